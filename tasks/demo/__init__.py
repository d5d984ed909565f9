"""The demo suite: 12 offline tasks (3 per scenario) over synthetic egocentric clips.

Each task names real items of the EgoBench seed databases on a generated shelf, menu or
worktop, with an EgoBench-style instruction (referential: "the second bottle I pointed
at"; conditional branches; a state change). Ground truth comes from
:mod:`egoeval.tasks.demo.build`. Clips are generated on first use into the media cache
(never shipped as binaries) and are byte-stable for a given spec and seed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from egoeval.task import Task
from egoeval.tasks.egobench.suite import CallsSuite

SUITE = "demo"
HERE = Path(__file__).parent
SCENARIOS = ("retail", "kitchen", "restaurant", "order")


class UnknownTask(KeyError):
    """A task id the demo suite does not have."""


def _raw() -> tuple[dict, ...]:
    from egoeval.tasks import _read_tasks

    return _read_tasks(str(HERE))


def raw_tasks() -> list[dict]:
    """The tasks as shipped (a private copy)."""
    from egoeval.tasks import shipped_tasks

    return shipped_tasks(HERE)


def context_stem(raw: dict) -> str:
    """The EgoBench task file whose seed and scoring context a demo task uses (e.g. retail1)."""
    return f"{raw['scenario']}{raw.get('variant', 1)}"


def groups() -> list[tuple[str, list[dict]]]:
    """(context stem, raw tasks) in task order: what the scorer takes."""
    out: dict[str, list[dict]] = {}
    for t in raw_tasks():
        out.setdefault(context_stem(t), []).append(t)
    return list(out.items())


def task_ref(raw: dict) -> str:
    return f"{SUITE}/{raw['scenario']}/{raw['task_id']}"


def _task(raw: dict) -> Task:
    from egoeval.tasks import egobench

    return Task(id=task_ref(raw), suite=SUITE, scenario=raw["scenario"], file=raw["scenario"],
                task_id=raw["task_id"], instruction=raw["Instruction"],
                video=f"demo_{raw['task_id']:02d}_{raw['clip']['kind']}.mp4",
                scene_description=raw.get("scene_description", ""), ground_truth=raw["ground_truth"],
                key=raw.get("key", ""), value=raw.get("value", []),
                seed=egobench.seed_name(raw["scenario"], raw.get("variant", 1)),
                extra={"clip": raw["clip"], "variant": raw.get("variant", 1)})


def load_tasks(scenario: str | None = None) -> list[Task]:
    return [_task(t) for t in _raw() if scenario is None or t["scenario"] == scenario]


def get_task(task_id: str) -> Task:
    for t in _raw():
        if task_ref(t) == task_id:
            return _task(t)
    raise UnknownTask(task_id)


def clip_path(task: Task, cache=None) -> Path:
    """The task's clip, generated into the media cache on first use."""
    from egoeval.media.cache import Cache, make_key
    from egoeval.media.synth import GENERATOR_VERSION, ClipSpec, generate

    spec = ClipSpec.from_dict(task.extra["clip"])
    store = cache or Cache()
    key = make_key(spec=spec.to_dict(), generator=GENERATOR_VERSION)

    def build(folder: Path) -> None:
        generate(spec, folder / task.video)

    return store.get_or_put("clips", key, build) / task.video


def clip_problem(task: Task) -> str | None:
    """Why a demo task's clip does not show what the task says (None when it does):
    generated (or found in the cache), readable, and pointing at the task's items."""
    import json

    from egoeval.media.errors import MediaError
    from egoeval.media.probe import probe

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


class Demo(CallsSuite):
    """Twelve offline tasks over clips made here, scored in the EgoBench contexts of the
    seeds they use (a demo task file is the EgoBench file whose seed it shares)."""

    name = SUITE
    title = "demo: 12 offline tasks over synthetic clips (no download, no key)"
    scenarios = SCENARIOS
    folder = HERE
    generates_videos = True
    exports_results = False  # demo runs are egoeval logs, never EgoBench results files

    @property
    def _egobench(self) -> Any:
        from egoeval.suites import get_suite

        return get_suite("egobench")

    # the EgoBench release supplies seeds, tools, environments and scoring rules
    @property
    def profiles(self) -> dict:  # type: ignore[override]
        return self._egobench.profiles

    @property
    def default_profile(self) -> str:  # type: ignore[override]
        return self._egobench.default_profile

    def split_file(self, stem: str) -> tuple[str, int]:
        return self._egobench.split_file(stem)

    def seed_name(self, scenario: str, variant: int) -> str | None:
        return self._egobench.seed_name(scenario, variant)

    def seed(self, name: str | None) -> dict:
        return self._egobench.seed(name)

    def schemas(self, scenario: str) -> list[dict]:
        return self._egobench.schemas(scenario)

    def new_env(self, task: Task) -> Any:
        return self._egobench.environments[task.scenario].from_seed(self.seed(task.seed))

    def scoring_context(self, stem: str) -> Any:
        return self._egobench.scoring_context(stem)

    def distractors(self, task: Task) -> list[str]:
        return self._egobench.distractors(task)

    # the demo's own tasks
    def files(self) -> tuple[str, ...]:
        return tuple(stem for stem, _ in groups())

    def raw_tasks(self, stem: str, ground_truth: str = "pinned") -> list[dict]:
        found = dict(groups()).get(stem)
        if found is None:
            raise KeyError(stem)
        return found

    def task_ref(self, stem: str, raw: dict, position: int) -> str:
        return task_ref(raw)

    def scoring_target(self, task_id: str, ground_truth: str = "pinned") -> tuple[str, dict]:
        for raw in raw_tasks():
            if task_ref(raw) == task_id:
                return context_stem(raw), raw
        raise KeyError(task_id)

    def load_tasks(self, scenario: str | None = None) -> list[Task]:
        return load_tasks(scenario)

    def get_task(self, task_id: str) -> Task:
        return get_task(task_id)

    def video_path(self, task: Task, video_dir: Path | None) -> Path:
        return clip_path(task)

    def validate(self, profile: Any) -> Any:
        report = super().validate(profile)
        report.clip_problems = [{"task": t.id, "reason": p} for t in self.load_tasks() if (p := clip_problem(t))]
        return report
