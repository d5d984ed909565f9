"""The artifact suite: 12 tasks whose result is a file (a workbook, a slide, a document).

Each task names a demo clip (what the user pointed at), the file to make, its criteria
(:mod:`egoeval.verifiers.artifact`), a reference solution (tool calls through the office
and media tools) and broken solutions, each with the criteria it must fail. See
:mod:`egoeval.tasks.artifacts.build` for how they are made, and :func:`validate` for
the self-test behind ``egoeval validate --suite artifacts``.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from egoeval.suites import Suite
from egoeval.task import Task

SUITE = "artifacts"
HERE = Path(__file__).parent


class UnknownTask(KeyError):
    """A task id the artifact suite does not have."""


def _raw() -> tuple[dict, ...]:
    from egoeval.tasks import _read_tasks

    return _read_tasks(str(HERE))


def raw_tasks() -> list[dict]:
    """The tasks as shipped (a private copy)."""
    from egoeval.tasks import shipped_tasks

    return shipped_tasks(HERE)


def _task(raw: dict) -> Task:
    from egoeval.tasks import demo, egobench

    demo_raw = next(t for t in demo.raw_tasks() if t["task_id"] == raw["demo_task"])
    clip_task = demo.get_task(demo.task_ref(demo_raw))
    return Task(id=f"{SUITE}/{raw['scenario']}/{raw['task_id']}", suite=SUITE, scenario=raw["scenario"],
                file=raw["scenario"], task_id=raw["task_id"], instruction=raw["Instruction"], video=clip_task.video,
                scene_description=raw.get("scene_description", ""), ground_truth=[],
                seed=egobench.seed_name(raw["scenario"], 1),
                extra={"criteria": raw["criteria"], "reference": raw["reference"], "broken": raw["broken"],
                       "demo_task": clip_task.id})


def load_tasks(scenario: str | None = None) -> list[Task]:
    return [_task(t) for t in _raw() if scenario is None or t["scenario"] == scenario]


def get_task(task_id: str) -> Task:
    for t in load_tasks():
        if t.id == task_id:
            return t
    raise UnknownTask(task_id)


def clip(task: Task) -> Path:
    from egoeval.tasks import demo

    return demo.clip_path(demo.get_task(task.extra["demo_task"]))


def pointed_items(task: Task) -> list[str]:
    """The labels the hand points at in the task's clip, in order."""
    from egoeval.tasks import demo

    spec = demo.get_task(task.extra["demo_task"]).extra["clip"]
    return [spec["labels"][i] for i in spec["points"]]


def point_seconds(clip_path: Path) -> list[float]:
    """For each pointed item, a second at which the hand points at it, clear of occlusions."""
    notes = json.loads(clip_path.with_suffix(".json").read_text())
    blocked = [(o["start"] - 0.15, o["end"] + 0.15) for o in notes.get("occlusions", [])]
    out = []
    for p in notes["pointing"]:
        middle = (p["start"] + p["end"]) / 2
        candidates = [round(p["start"] + 0.2 + 0.1 * k, 2) for k in range(int((p["end"] - p["start"] - 0.4) / 0.1) + 1)]
        clear = [t for t in candidates if not any(a <= t <= b for a, b in blocked)] or [middle]
        out.append(min(clear, key=lambda t: abs(t - middle)))
    return out


def _resolve(value: Any, seconds: list[float], frames: dict[int, str] | None = None) -> Any:
    """Replace ``$pointK`` by the K-th pointing second (or, in criteria, by a frame file)."""
    if isinstance(value, str) and value.startswith("$point"):
        k = int(value[6:])
        return frames[k] if frames is not None else seconds[k]
    if isinstance(value, list):
        return [_resolve(v, seconds, frames) for v in value]
    if isinstance(value, dict):
        return {k: _resolve(v, seconds, frames) for k, v in value.items()}
    return value


def solution_calls(task: Task, calls: list[dict]) -> list[dict]:
    return _resolve(calls, point_seconds(clip(task)))


def criteria_for(task: Task, folder: Path) -> dict:
    """The task's criteria with reference frames written into ``folder``."""
    import cv2

    from egoeval.media.frames import sample_frames

    video = clip(task)
    seconds = point_seconds(video)
    frames = {}
    for k, second in enumerate(seconds):
        frame = sample_frames(video, at=[second], cache=True).frames[0]
        path = folder / f"reference-point{k}.png"
        cv2.imwrite(str(path), cv2.cvtColor(frame.image, cv2.COLOR_RGB2BGR))
        frames[k] = str(path)
    return _resolve(task.extra["criteria"], seconds, frames)


def play(task: Task, calls: list[dict], workspace: Path, service: Any = None) -> list:
    """Run a solution's calls with the office and media tools in ``workspace``."""
    from egoeval.tools.media_tools import MediaTools
    from egoeval.tools.office_tools import OfficeTools
    from egoeval.tools.registry import ToolRegistry
    from egoeval.tools.workspace import Workspace

    ws = Workspace(workspace)
    registry = ToolRegistry()
    env = Artifacts().new_env(task)
    extra = [MediaTools({task.video: clip(task)}, workspace=ws), OfficeTools(ws, service=service)]
    return [registry.execute(env, c, extra) for c in solution_calls(task, calls)]


def validate(service: Any = None) -> dict:
    """The suite's self-test: every reference passes; each broken solution fails exactly
    the criteria it is meant to fail."""
    from egoeval.verifiers.artifact import check_artifact

    report: dict[str, Any] = {"tasks": 0, "oracle_pass": 0, "broken": 0, "broken_failed_as_intended": 0,
                              "failures": []}
    for task in load_tasks():
        report["tasks"] += 1
        with tempfile.TemporaryDirectory(prefix="egoeval-artifacts-") as tmp:
            criteria = criteria_for(task, Path(tmp))
            runs = [("reference", task.extra["reference"], [])] + [
                (b["name"], b["calls"], b["fails"]) for b in task.extra["broken"]]
            for name, calls, intended in runs:
                workspace = Path(tmp) / name
                results = play(task, calls, workspace, service)
                verdict = check_artifact(workspace, criteria, service=service, cache=False)
                failed = verdict.failed()
                if name == "reference":
                    ok = verdict.passed
                    report["oracle_pass"] += ok
                else:
                    report["broken"] += 1
                    ok = failed == intended
                    report["broken_failed_as_intended"] += ok
                if not ok:
                    errors = [r.content for r in results if r.error]
                    report["failures"].append({"task": task.id, "solution": name, "intended": intended,
                                               "failed": failed, "tool_errors": errors[:3],
                                               "evidence": {c.id: c.evidence for c in verdict.criteria if not c.passed}})
    report["ok"] = report["oracle_pass"] == report["tasks"] and report["broken_failed_as_intended"] == report["broken"]
    return report


@dataclass
class ArtifactValidation:
    """What :func:`validate` found, as ``egoeval validate`` prints it."""

    report: dict

    @property
    def ok(self) -> bool:
        return self.report["ok"]

    def to_dict(self) -> dict:
        return self.report

    def lines(self) -> list[str]:
        r = self.report
        out = [f"suite artifacts: {r['tasks']} tasks",
               f"reference solutions passing every criterion: {r['oracle_pass']}/{r['tasks']}",
               f"broken solutions failing exactly their intended criteria: "
               f"{r['broken_failed_as_intended']}/{r['broken']}"]
        out += [f"  FAIL {f['task']} {f['solution']}: intended {f['intended']}, failed {f['failed']}"
                for f in r["failures"]]
        return out + ["ok" if r["ok"] else "FAILED"]


class Artifacts(Suite):
    """Tasks whose result is a file, judged by criteria on the file and its renders.
    Seeds, tools and environments are the first EgoBench release's; clips are the demo's."""

    name = SUITE
    title = "artifacts: 12 tasks whose result is a workbook, slide or document"
    scenarios = ("retail", "kitchen", "restaurant", "order")
    verdict_kind = "artifact"
    generates_videos = True
    makes_files = True
    folder = HERE

    @property
    def _egobench(self) -> Any:
        from egoeval.suites import get_suite

        return get_suite("egobench")

    @property
    def profiles(self) -> dict:  # type: ignore[override]
        return self._egobench.profiles  # accepted for symmetry; criteria do not depend on them

    @property
    def default_profile(self) -> str:  # type: ignore[override]
        return self._egobench.default_profile

    def load_tasks(self, scenario: str | None = None) -> list[Task]:
        return load_tasks(scenario)

    def get_task(self, task_id: str) -> Task:
        return get_task(task_id)

    def tool_schemas(self, task: Task) -> list[dict]:
        return self._egobench.schemas(task.scenario)

    def new_env(self, task: Task) -> Any:
        return self._egobench.environments[task.scenario].from_seed(self._egobench.seed(task.seed))

    def distractors(self, task: Task) -> list[str]:
        return self._egobench.distractors(task)

    def video_path(self, task: Task, video_dir: Path | None) -> Path:
        return clip(task)

    def oracle_calls(self, task: Task, profile: Any) -> list[dict]:
        """The reference solution, then a look at the result."""
        return solution_calls(task, task.extra["reference"]) + [
            {"tool_name": "render_to_image", "parameters": {"file_name": task.extra["criteria"]["file"]}}]

    def score_episode(self, task_id: str, trajectory: dict, profile: Any, workspace: Path | None = None,
                      ground_truth: str = "pinned") -> dict:
        """The criteria on the file the episode left in ``workspace``, the
        self-verification kind and, when it failed, a category (see self_verification)."""
        from egoeval.verifiers.artifact import check_artifact
        from egoeval.verifiers.self_verification import failure_category, self_verification

        task = self.get_task(task_id)
        tool_calls = trajectory.get("tool_calls") or []
        with tempfile.TemporaryDirectory(prefix="egoeval-criteria-") as tmp:
            spec = criteria_for(task, Path(tmp))
            verdict = check_artifact(workspace, spec, cache=False)
        result = verdict.to_dict()
        result.update({"task": task.id, "joint_success": verdict.passed,
                       "self_verification": self_verification(tool_calls, spec["file"]),
                       "error_category": failure_category(result, tool_calls, spec["file"], pointed_items(task))})
        return result

    def validate(self, profile: Any) -> ArtifactValidation:
        return ArtifactValidation(validate())
