"""Scoring EgoBench trajectories against the suite's ground truth.

:func:`score_file` is the official evaluator's per-file procedure (SCORING.md A1-A5)
followed by the error analysis (A8): pair trajectories with GT tasks, check calls
(process) and final states (result), then give each trajectory an error category.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from egoeval.taxonomy import USER_ID_RE, classify

from .calls import flatten_calls
from .context import ScoringContext
from .process import check_calls
from .profiles import Profile
from .result import check_result
from .verdict import InvalidEntry, Verdict

USER_ISSUE_KEYS = ("role_consistency", "instruction_following", "resilience", "contextual_robustness")


@dataclass
class FileScore:
    """Verdicts of one run file (one task file's trajectories)."""

    stem: str
    verdicts: list[Verdict] = field(default_factory=list)
    invalid: list[InvalidEntry] = field(default_factory=list)


def user_has_issue(trajectory: dict) -> bool:
    scores = trajectory.get("corrected_scores")
    return isinstance(scores, dict) and any(k in scores and scores[k] == 0 for k in USER_ISSUE_KEYS)


def user_id_mismatch(gt_task: dict) -> str | None:
    """Why a task's GT contradicts its instruction's User ID (Q14), or None."""
    m = USER_ID_RE.search(gt_task.get("Instruction") or "")
    if not m:
        return None
    for call in gt_task.get("ground_truth") or []:
        params = call.get("parameters") if isinstance(call, dict) else None
        if isinstance(params, dict) and "user_id" in params and params["user_id"] != m.group(1):
            return f"GT user_id {params['user_id']!r} differs from the instruction's User ID {m.group(1)!r}"
    return None


def id_key(profile: Profile) -> str:
    """The member that names a task in GT and trajectories under ``profile``."""
    return "scenario_id" if profile.pair_by_scenario_id else "task_id"


def score_task(stem: str, position: int, gt_task: dict, trajectory: dict, ctx: ScoringContext,
               profile: Profile) -> Verdict:
    """Verdict of one valid (GT task, trajectory) pair, without its error category."""
    gt_calls = gt_task.get("ground_truth", [])  # a missing key is no calls, as in the reference
    if profile.drop_missing_tool_gt_calls:
        gt_calls = [c for c in gt_calls if ctx.params_of(c.get("tool_name") or c.get("name"), profile) is not None]
    agent_calls = flatten_calls(trajectory.get("tool_calls", []))
    proc = check_calls(gt_calls, agent_calls, ctx, profile)
    res = check_result(gt_calls, agent_calls, ctx, profile)
    tool_ok = proc.matched == proc.gt_calls and proc.gt_calls > 0
    notes = [n for n in (proc.error, res.error) if n]
    return Verdict(
        scenario=stem, task_id=gt_task.get(id_key(profile), position + 1),
        tool_success=tool_ok, result_success=res.success, joint_success=tool_ok and res.success,
        matched_calls=proc.matched, gt_calls=proc.gt_calls, agent_calls=proc.agent_calls,
        gt_hash=res.gt_hash, agent_hash=res.agent_hash, diff=res.diff,
        user_has_issue=user_has_issue(trajectory), profile=profile.name,
        missing_gt_calls=proc.missing or [], notes=notes,
        excluded=user_id_mismatch(gt_task) if profile.exclude_user_id_mismatch else None,
        profile_pairs_by=id_key(profile),
    )


def _answers(facts_of: Callable[[Any], list], task_id: Any, trajectory: dict) -> dict | None:
    """The answers component of one verdict (None for a task egoeval does not know)."""
    from .answers import agent_messages, check_answers

    try:
        facts = facts_of(task_id)
    except KeyError:
        return None
    return check_answers(facts, agent_messages(trajectory))


def _pairs(gt_tasks: list, trajectories: list, profile: Profile) -> list[tuple[int, dict, Any]]:
    """(position, GT task, trajectory or None) in GT order (A1; Q1 in strict; by
    scenario_id, a later trajectory replacing an earlier one, in the newest evaluator)."""
    if profile.pair_by_scenario_id:
        latest: dict[Any, Any] = {}
        for i, t in enumerate(trajectories):
            try:
                latest[t.get("scenario_id", i + 1) if isinstance(t, dict) else i + 1] = t
            except TypeError:  # an unhashable id names no task
                continue
        return [(i, gt, latest.get(gt.get("scenario_id", i + 1))) for i, gt in enumerate(gt_tasks)]
    if not profile.pair_by_task_id:
        return [(i, gt, trajectories[i] if i < len(trajectories) else None) for i, gt in enumerate(gt_tasks)]
    by_id: dict[Any, Any] = {}
    for i, t in enumerate(trajectories):
        tid = t.get("task_id", i + 1) if isinstance(t, dict) else i + 1
        by_id.setdefault(tid, t)
    return [(i, gt, by_id.get(gt.get("task_id", i + 1))) for i, gt in enumerate(gt_tasks)]


def score_file(stem: str, trajectories: list, profile: Profile, gt_tasks: list, ctx: ScoringContext,
               facts_of: Callable[[Any], list] | None = None) -> FileScore:
    """Score one run file against ``gt_tasks`` in the scoring context of its task file
    (the suite gives both). ``facts_of(task_id)``, when given, names the facts each task
    must communicate; every verdict then carries the ``answers`` component (see
    :mod:`.answers`)."""
    out = FileScore(stem)
    key = id_key(profile)
    for pos, gt, traj in _pairs(gt_tasks, trajectories, profile):
        tid = gt.get(key, pos + 1)
        if traj is None:
            out.invalid.append(InvalidEntry(stem, tid, "Missing interaction data"))
        elif not isinstance(traj, dict):
            out.invalid.append(InvalidEntry(stem, tid, f"trajectory {pos + 1} is not an object"))
        elif not isinstance(gt.get("ground_truth", []), list):
            out.invalid.append(InvalidEntry(stem, tid, "ground_truth is not a list"))
        elif not isinstance(traj.get("tool_calls", []), list):
            out.invalid.append(InvalidEntry(stem, tid, f"trajectory {pos + 1}: tool_calls is not a list"))
        else:
            verdict = score_task(stem, pos, gt, traj, ctx, profile)
            if facts_of is not None:
                verdict.answers = _answers(facts_of, tid, traj)
            out.verdicts.append(verdict)
    _categorise(out, gt_tasks, trajectories, ctx, profile)
    return out


def _categorise(out: FileScore, gt_tasks: list, trajectories: list, ctx: ScoringContext, profile: Profile) -> None:
    """Error analysis (A8; Part E in the newest): each trajectory is paired by its own id.
    The newest analysis skips null trajectories and finds GT tasks by their explicit
    ``scenario_id`` only."""
    key = id_key(profile)
    gt_by_id: dict[Any, dict] = {}
    for i, gt in enumerate(gt_tasks):
        if profile.newest_error_analysis and (not isinstance(gt, dict) or key not in gt):
            continue
        try:
            gt_by_id.setdefault(gt.get(key, i + 1), gt)
        except TypeError:
            continue
    verdict_by_id: dict[Any, Verdict] = {}
    for v in out.verdicts:
        verdict_by_id.setdefault(v.task_id, v)
    done: set[int] = set()
    order = list(enumerate(trajectories))
    if profile.pair_by_scenario_id:  # the last of duplicate ids is the one scored: it is the one classified
        order.reverse()
    for pos, traj in order:
        if not isinstance(traj, dict):
            continue
        tid = traj.get(key, pos + 1)
        try:
            gt, v = gt_by_id.get(tid), verdict_by_id.get(tid)
        except TypeError:  # an unhashable id pairs with nothing
            continue
        if gt is None or v is None or id(v) in done:
            continue
        done.add(id(v))
        v.error_category = classify(
            gt, traj, tool_success=v.tool_success, result_success=v.result_success,
            matched_calls=v.matched_calls, gt_calls=v.gt_calls, query_tools=ctx.query_tools,
            expected_restaurant=ctx.expected_restaurant, fold_unknown=profile.fold_unknown,
            case_insensitive_restaurant=profile.case_insensitive_restaurant,
            newest=profile.newest_error_analysis, key_aliases=ctx.key_aliases)
