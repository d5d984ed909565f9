"""The suite's self-test (``egoeval validate``).

Three agents that need no model: the **oracle** replays each task's ground truth as
its own calls and must reach joint success on every task; the **null** agent makes no
call and must fail every task; and the ground truth itself is executed live on the
seed, so that calls to tools that do not exist or that fail are reported as defects
(SCORING.md Q13, MANIFEST.md "Known ground-truth anomalies").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from egoeval.tasks import egobench as suite
from egoeval.verifiers.context import get_context
from egoeval.verifiers.egobench import score_file, user_id_mismatch
from egoeval.verifiers.profiles import Profile


@dataclass
class ValidationReport:
    profile: str
    tasks: int = 0
    oracle_joint_success: int = 0
    null_joint_success: int = 0
    oracle_failures: list[dict] = field(default_factory=list)
    null_successes: list[str] = field(default_factory=list)
    defective: list[dict] = field(default_factory=list)
    user_id_mismatches: list[dict] = field(default_factory=list)
    clip_problems: list[dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.oracle_joint_success == self.tasks and self.null_joint_success == 0 and not self.clip_problems

    def to_dict(self) -> dict[str, Any]:
        return {"profile": self.profile, "tasks": self.tasks, "oracle_joint_success": self.oracle_joint_success,
                "null_joint_success": self.null_joint_success, "oracle_failures": self.oracle_failures,
                "null_successes": self.null_successes, "defective": self.defective,
                "user_id_mismatches": self.user_id_mismatches, "clip_problems": self.clip_problems, "ok": self.ok}


def gt_defects(stem: str, gt_task: dict) -> list[str]:
    """Why the GT of a task cannot be replayed cleanly on its seed (empty if it can)."""
    scenario, variant = suite.split_file(stem)
    ctx = get_context(scenario, variant)
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


def oracle_calls(stem: str, gt_task: dict, profile: Profile) -> list[dict]:
    """The GT calls as an agent would send them.

    Under the faithful profile they are sent verbatim. Where replays have live
    semantics (strict), arguments the tool does not take are left out, as a correct
    agent would: the GT of order1 and restaurant1-4 carries extra catalog fields.
    """
    calls = json.loads(json.dumps(gt_task["ground_truth"]))  # a private copy
    if not profile.replay_live_semantics:
        return calls
    members = get_context(*suite.split_file(stem)).env_cls.members
    for call in calls:
        names = members.get(call.get("tool_name"))
        if names is not None and isinstance(call.get("parameters"), dict):
            call["parameters"] = {k: v for k, v in call["parameters"].items() if k in names}
    return calls


def validate(profile: Profile, files: tuple[str, ...] = suite.FILES, suite_name: str = "egobench") -> ValidationReport:
    """Self-test a suite (``egobench`` or ``demo``) under ``profile``."""
    report = ValidationReport(profile.name)
    if suite_name == "demo":
        from egoeval.tasks import demo

        for stem, gt_tasks in demo.groups():
            _validate_group(report, stem, gt_tasks, profile, lambda t, i: demo.task_ref(t))
        for task in demo.load_tasks():
            problem = clip_problem(task)
            if problem:
                report.clip_problems.append({"task": task.id, "reason": problem})
        return report
    for stem in files:
        _validate_group(report, stem, suite.raw_tasks(stem), profile,
                        lambda t, i, stem=stem: f"egobench/{stem}/{t.get('task_id', i + 1)}")
    return report


def clip_problem(task) -> str | None:
    """Why a demo task's clip does not show what the task says (None when it does):
    generated (or found in the cache), readable, and pointing at the task's items."""
    from egoeval.media.errors import MediaError
    from egoeval.media.probe import probe
    from egoeval.tasks.demo import clip_path

    try:
        path = clip_path(task)
        info = probe(path)
        notes = json.loads(path.with_suffix(".json").read_text())
    except (MediaError, OSError, ValueError) as e:
        return f"clip unusable: {e}"
    pointed = [p["item"] for p in notes["pointing"]]
    if not info.has_video or info.frame_count != notes["frames"]:
        return f"clip has {info.frame_count} frames, its annotations say {notes['frames']}"
    missing = [v for v in task.value if v not in pointed]
    return f"the clip never points at {missing}" if missing else None


def _validate_group(report: ValidationReport, stem: str, gt_tasks: list[dict], profile: Profile, ref) -> None:
    """Oracle, null agent and GT defects for tasks scored in the context of ``stem``."""
    refs = {t.get("task_id", i + 1): ref(t, i) for i, t in enumerate(gt_tasks)}
    oracle = [{"task_id": t.get("task_id", i + 1),
               "tool_calls": [{"turn": 0, "calls": oracle_calls(stem, t, profile), "results": []}]}
              for i, t in enumerate(gt_tasks)]
    null = [{"task_id": t.get("task_id", i + 1), "tool_calls": []} for i, t in enumerate(gt_tasks)]
    oracle_score = score_file(stem, oracle, profile, gt_tasks)
    null_score = score_file(stem, null, profile, gt_tasks)
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
        problems = gt_defects(stem, t)
        if problems:
            report.defective.append({"task": ref(t, i), "reason": "; ".join(problems)})
        mismatch = user_id_mismatch(t)
        if mismatch:
            report.user_id_mismatches.append({"task": ref(t, i), "reason": mismatch})
