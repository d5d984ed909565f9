"""A calls-scored suite's self-test (``egoeval validate``), task file by task file.

Three agents that need no model: the **oracle** sends each task's ground truth as its
own calls and must reach joint success on every task; the **null** agent makes no call
and must fail every task; and the ground truth itself is executed live on the seed, so
that calls to tools that do not exist or that fail are reported as defects (SCORING.md
Q13). The suite says which files there are, what their ground truth is and how the
oracle sends it; this module only runs and counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .context import ScoringContext
from .egobench import id_key, score_file, user_id_mismatch
from .profiles import Profile


@dataclass
class ValidationReport:
    suite: str
    profile: str
    tasks: int = 0
    oracle_joint_success: int = 0
    null_joint_success: int = 0
    oracle_failures: list[dict] = field(default_factory=list)
    null_successes: list[str] = field(default_factory=list)
    defective: list[dict] = field(default_factory=list)
    user_id_mismatches: list[dict] = field(default_factory=list)
    #: problems of clips a suite makes itself (None: the suite makes none)
    clip_problems: list[dict] | None = None

    @property
    def ok(self) -> bool:
        return self.oracle_joint_success == self.tasks and self.null_joint_success == 0 and not self.clip_problems

    def to_dict(self) -> dict[str, Any]:
        return {"profile": self.profile, "tasks": self.tasks, "oracle_joint_success": self.oracle_joint_success,
                "null_joint_success": self.null_joint_success, "oracle_failures": self.oracle_failures,
                "null_successes": self.null_successes, "defective": self.defective,
                "user_id_mismatches": self.user_id_mismatches, "clip_problems": self.clip_problems or [],
                "ok": self.ok}

    def lines(self) -> list[str]:
        """The report as ``egoeval validate`` prints it."""
        out = [f"suite {self.suite}, profile {self.profile}: {self.tasks} tasks",
               f"oracle (ground truth replayed as the agent): joint success {self.oracle_joint_success}/{self.tasks}"]
        out += [f"  FAIL {f['task']}: {f['reason']}" for f in self.oracle_failures]
        out.append(f"null agent (no calls): joint success {self.null_joint_success}/{self.tasks}")
        out += [f"  UNEXPECTED SUCCESS {t}" for t in self.null_successes]
        out.append(f"tasks with defective ground truth: {len(self.defective)}")
        out += [f"  {d['task']}: {d['reason']}" for d in self.defective]
        out.append(f"tasks whose ground truth uses another user than the instruction's User ID: "
                   f"{len(self.user_id_mismatches)} (an agent that follows the instruction fails them)")
        out += [f"  {d['task']}: {d['reason']}" for d in self.user_id_mismatches]
        if self.clip_problems is not None:
            out.append(f"clips generated and checked against their tasks: {self.tasks - len(self.clip_problems)}"
                       f"/{self.tasks}")
            out += [f"  {d['task']}: {d['reason']}" for d in self.clip_problems]
        out.append("ok" if self.ok else "FAILED")
        return out


def gt_defects(ctx: ScoringContext, gt_task: dict) -> list[str]:
    """Why the GT of a task cannot be replayed cleanly on its seed (empty if it can)."""
    env = ctx.fresh_env()
    problems: list[str] = []
    for n, call in enumerate(gt_task.get("ground_truth") or [], 1):
        name = call.get("tool_name") or call.get("name")
        if name not in ctx.env_cls.tools:
            problems.append(f"call {n} uses {name!r}, which is not a tool")
            continue
        params = call.get("parameters", {})
        if isinstance(params, dict):  # the scorer drops parameters the tool does not take (A3)
            params = {k: v for k, v in params.items() if k in ctx.env_cls.members[name]}
        try:
            result = env.invoke(name, params)
        except Exception as exc:  # noqa: BLE001 - a defect report, not a crash
            problems.append(f"call {n} ({name}) raises {type(exc).__name__}: {exc}")
            continue
        status = result.get("status") if isinstance(result, dict) else None
        if status in ("error", "partial_success"):
            problems.append(f"call {n} ({name}) fails on the seed: {result.get('message')}")
    return problems


def send_as_agent(ctx: ScoringContext, gt_task: dict, profile: Profile) -> list[dict]:
    """The GT calls as a correct agent sends them.

    Under a faithful profile they are sent verbatim. Where replays have live semantics
    (strict), arguments the tool does not take are left out, as a correct agent would:
    the GT of order1 and restaurant1-4 carries extra catalog fields.
    """
    import json

    calls = json.loads(json.dumps(gt_task["ground_truth"]))  # a private copy
    if not profile.replay_live_semantics:
        return calls
    for call in calls:
        names = ctx.env_cls.members.get(call.get("tool_name"))
        if names is not None and isinstance(call.get("parameters"), dict):
            call["parameters"] = {k: v for k, v in call["parameters"].items() if k in names}
    return calls


def validate_group(report: ValidationReport, stem: str, gt_tasks: list[dict], ctx: ScoringContext,
                   profile: Profile, ref: Callable[[dict, int], str]) -> None:
    """Oracle, null agent and GT defects for the tasks of one file (scored in ``ctx``);
    ``ref(task, position)`` names a task in the report."""
    key = id_key(profile)
    refs = {t.get(key, i + 1): ref(t, i) for i, t in enumerate(gt_tasks)}
    oracle = [{key: t.get(key, i + 1),
               "tool_calls": [{"turn": 0, "calls": send_as_agent(ctx, t, profile), "results": []}]}
              for i, t in enumerate(gt_tasks)]
    null = [{key: t.get(key, i + 1), "tool_calls": []} for i, t in enumerate(gt_tasks)]
    oracle_score = score_file(stem, oracle, profile, gt_tasks, ctx)
    null_score = score_file(stem, null, profile, gt_tasks, ctx)
    report.tasks += len(gt_tasks)
    for v in oracle_score.verdicts:
        if v.joint_success or v.excluded:
            report.oracle_joint_success += 1
        else:
            report.oracle_failures.append({"task": refs[v.task_id],
                                           "reason": "; ".join(v.diff[:3] + v.notes) or "tool check failed"})
    for v in null_score.verdicts:
        if v.joint_success:
            report.null_joint_success += 1
            report.null_successes.append(refs[v.task_id])
    for i, t in enumerate(gt_tasks):
        problems = gt_defects(ctx, t)
        if problems:
            report.defective.append({"task": ref(t, i), "reason": "; ".join(problems)})
        mismatch = user_id_mismatch(t)
        if mismatch:
            report.user_id_mismatches.append({"task": ref(t, i), "reason": mismatch})
