"""The demo suite: 12 offline tasks (3 per scenario) over synthetic egocentric clips.

Each task names real items of the EgoBench seed databases on a generated shelf, menu or
worktop, with an EgoBench-style instruction (referential: "the second bottle I pointed
at"; conditional branches; a state change). Ground truth comes from
:mod:`egoeval.tasks.demo.build`. Clips are generated on first use into the media cache
(never shipped as binaries) and are byte-stable for a given spec and seed.
"""

from __future__ import annotations

from pathlib import Path

from egoeval.task import Task

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
