"""Suites: the one interface every layer dispatches through, and their registry.

A suite bundles everything that differs from one benchmark to another: its tasks, the
tool schemas and seeded environment of each task, where a task's video comes from,
its scoring profiles (and default), how an episode is scored, its self-test, the facts
an agent must communicate, and its results-file format if it has one. The runner,
``egoeval score``, ``report``, ``view``, ``validate``, ``judge``, ``export`` and the CLI
ask :func:`get_suite` and never name a suite themselves.

Suites are found in two places, both registered the same way:

- the built-in ones (the table below, imported on first use), and
- third-party ones, declared by an installed package in the ``egoeval.suites`` entry
  point group (``name = "package.module:object"``, the object being a :class:`Suite`
  instance, a subclass, or a factory returning one), as tau2-bench's domains are.

Task ids name their suite (``egobench/retail1/7``, ``demo/retail/1``), so a log can
be scored without knowing how it was produced.
"""

from __future__ import annotations

import importlib
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Callable, ClassVar

from egoeval.task import Task

ENTRY_POINT_GROUP = "egoeval.suites"

#: built-in suites: name -> "module:attribute" (imported on first use)
BUILTIN: dict[str, str] = {
    "egobench": "egoeval.tasks.egobench.suite:EgoBench",
    "egobench2": "egoeval.tasks.egobench2:EgoBench2",
    "demo": "egoeval.tasks.demo:Demo",
    "artifacts": "egoeval.tasks.artifacts:Artifacts",
}


class UnknownSuite(KeyError):
    """A suite name egoeval does not have."""

    def __str__(self) -> str:
        return f"unknown suite {self.args[0]!r}; available: {', '.join(suite_names())}"


class UnknownProfile(KeyError):
    """A scoring profile the suite does not have."""


class SuiteDataError(ValueError):
    """A suite's data cannot be read (e.g. a broken file in a clone it was pointed at)."""


class Suite:
    """What a suite declares. Subclass it and override what your suite has.

    The defaults describe a suite whose tasks are scored from their tool calls and
    final state (``verdict_kind = "calls"``) and whose videos the user downloads.
    """

    #: the name users type (``--suite NAME``) and the first part of every task id
    name: ClassVar[str] = ""
    #: one line for ``egoeval suites``
    title: ClassVar[str] = ""
    #: scenario names, in a stable order (``tasks list --scenario``)
    scenarios: ClassVar[tuple[str, ...]] = ()
    #: "calls": Tool/Result/Joint verdicts from calls and state hashes;
    #: "artifact": the episode made a file, judged by criteria
    verdict_kind: ClassVar[str] = "calls"
    #: True when the suite makes its clips on this machine (nothing to download)
    generates_videos: ClassVar[bool] = False
    #: True when every episode gets the media and office tools and a workspace
    makes_files: ClassVar[bool] = False
    #: the suite's folder of data files (rubrics.json, answers_overrides.json), if any
    folder: ClassVar[Path | None] = None

    def use_data_dir(self, path: str | Path) -> str:
        """Read the suite's data from ``path`` (e.g. a clone of its official repository);
        returns one line about what differs from the shipped copy (empty: nothing)."""
        raise ValueError(f"suite {self.name} reads no data from outside egoeval")

    def data_file(self, name: str) -> Path | None:
        """A data file of the suite's folder (it may not exist); None without a folder."""
        return self.folder / name if self.folder is not None else None

    # --- tasks ----------------------------------------------------------------------
    def load_tasks(self, scenario: str | None = None) -> list[Task]:
        """The suite's tasks in suite order, optionally of one scenario."""
        raise NotImplementedError

    def get_task(self, task_id: str) -> Task:
        """The task with id ``task_id``; ``KeyError`` for an unknown one."""
        for t in self.load_tasks():
            if t.id == task_id:
                return t
        raise KeyError(task_id)

    def scenario_of(self, group: str) -> str:
        """The scenario of a task group (a task file such as ``retail1``), for reports."""
        return group

    # --- scoring profiles -------------------------------------------------------------
    #: profile name -> the profile object the suite's verifiers take
    profiles: ClassVar[dict[str, Any]] = {}
    default_profile: ClassVar[str] = ""

    def profile(self, name: str | None = None) -> Any:
        """The profile called ``name`` (the default when None); ``UnknownProfile`` else."""
        key = name or self.default_profile
        if key not in self.profiles:
            raise UnknownProfile(f"suite {self.name} has no profile {key!r}; choose one of: "
                                 f"{', '.join(self.profiles) or '(none)'}")
        return self.profiles[key]

    # --- the episode ------------------------------------------------------------------
    def tool_schemas(self, task: Task) -> list[dict]:
        """The task's tool schemas as the suite ships them (``tool_name`` entries)."""
        return []

    def new_env(self, task: Task) -> Any:
        """A fresh environment seeded for ``task`` (None: the task has no scenario tools)."""
        return None

    def distractors(self, task: Task) -> list[str]:
        """Sentences a hard-mode user slips in for this task's scenario."""
        return []

    def video_path(self, task: Task, video_dir: Path | None) -> Path:
        """The task's video file; raises ``egoeval.videos.VideoMissing`` when absent."""
        from egoeval.videos import find_video

        return find_video(task.video, video_dir)

    def oracle_calls(self, task: Task, profile: Any) -> list[dict]:
        """What a perfect agent sends (``{"tool_name", "parameters"}``), in order."""
        return [dict(c) for c in task.ground_truth]

    # --- verdicts -----------------------------------------------------------------------
    def score_episode(self, task_id: str, trajectory: dict, profile: Any, workspace: Path | None = None,
                      ground_truth: str = "pinned") -> Any:
        """Score one logged trajectory of task ``task_id``: a ``FileScore`` for
        ``verdict_kind == "calls"``, a verdict dict for ``"artifact"``. ``ground_truth``
        names another ground truth the suite ships (KeyError when it has none)."""
        raise NotImplementedError

    def expected_facts(self, task: Task) -> list:
        """The values the agent must tell the user (the answers component)."""
        return []

    def rubric_items(self, task: Task) -> list:
        """Rubric items derived from the task when no rubric file gives them."""
        return []

    def validate(self, profile: Any) -> dict:
        """The suite's self-test as a JSON-able dict with at least ``tasks`` and ``ok``."""
        raise NotImplementedError

    # --- results files (suites with an external format) ------------------------------
    #: True when the suite reads and writes results files (score, export, import)
    exports_results: ClassVar[bool] = False
    #: the member naming a task in the suite's task and results files
    id_member: ClassVar[str] = "task_id"

    def results_stem(self, path: Path) -> str | None:
        """The task group a results file holds, None when the file is not of this suite."""
        return None

    def raw_tasks(self, stem: str, ground_truth: str = "pinned") -> list[dict]:
        """A task group's records as the results format pairs them (KeyError: none)."""
        raise KeyError(stem)

    def task_ref(self, stem: str, raw: dict, position: int) -> str:
        """The task id of the record at ``position`` of group ``stem``."""
        raise KeyError(stem)

    def placeholder(self, raw: dict, position: int, mode: str) -> dict:
        """What an exported results file holds for a task the log has no episode of."""
        raise NotImplementedError

    def score_results(self, stem: str, trajectories: list, profile: Any, ground_truth: str = "pinned") -> Any:
        """Score a results file of group ``stem`` (a ``FileScore``)."""
        raise NotImplementedError


_REGISTRY: dict[str, Suite] = {}
_ENTRY_POINTS: dict[str, Any] | None = None


def register(suite: Suite | type[Suite] | Callable[[], Suite]) -> Suite:
    """Add a suite (an instance, a subclass or a factory) and return the instance."""
    obj = suite() if isinstance(suite, type) or (callable(suite) and not isinstance(suite, Suite)) else suite
    if not isinstance(obj, Suite) or not obj.name:
        raise TypeError(f"{suite!r} is not a named egoeval Suite")
    _REGISTRY[obj.name] = obj
    return obj


def _entry_points() -> dict[str, Any]:
    global _ENTRY_POINTS
    if _ENTRY_POINTS is None:
        from importlib.metadata import entry_points

        _ENTRY_POINTS = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return _ENTRY_POINTS


def suite_names() -> list[str]:
    """Every suite that can be loaded: built-in first, then entry points, then registered."""
    names = list(BUILTIN) + [n for n in _entry_points() if n not in BUILTIN]
    return names + [n for n in _REGISTRY if n not in names]


def get_suite(name: str) -> Suite:
    """The suite called ``name``; raises :class:`UnknownSuite`."""
    if name in _REGISTRY:
        return _REGISTRY[name]
    if name in BUILTIN:
        module, attr = BUILTIN[name].split(":")
        obj = getattr(importlib.import_module(module), attr)
    elif name in _entry_points():
        obj = _entry_points()[name].load()
    else:
        raise UnknownSuite(name)
    suite = register(obj)
    if suite.name != name:
        raise TypeError(f"suite registered as {name!r} calls itself {suite.name!r}")
    return suite


def loadable_suites() -> list[Suite]:
    """Every suite that loads, in :func:`suite_names` order; one that fails to load (a
    broken third-party package) is left out with a warning rather than breaking the
    commands that look through all suites."""
    import warnings

    out = []
    for name in suite_names():
        try:
            out.append(get_suite(name))
        except Exception as exc:  # noqa: BLE001 - someone else's package
            warnings.warn(f"suite {name} cannot be loaded ({type(exc).__name__}: {exc}); left out", stacklevel=2)
    return out


def suite_of(task_id: str) -> Suite:
    """The suite a task id names (its first part); raises ``KeyError``."""
    return get_suite(task_id.split("/", 1)[0])


def load_tasks(suite: str, scenario: str | None = None, pattern: str | None = None) -> list[Task]:
    """A suite's tasks in suite order, optionally of one scenario, or whose id matches a
    glob ``pattern`` (several patterns separated by commas)."""
    tasks = get_suite(suite).load_tasks(scenario)
    if pattern:
        globs = [g.strip() for g in pattern.split(",") if g.strip()]
        tasks = [t for t in tasks if any(fnmatchcase(t.id, g) or fnmatchcase(t.id, f"{suite}/{g}") for g in globs)]
    return tasks


def get_task(task_id: str) -> Task:
    """The task with id ``task_id``; raises ``KeyError`` for an unknown one. An id that
    does not start with a suite (``retail1/7``) is looked up in each suite in turn."""
    first = task_id.split("/", 1)[0]
    if first in suite_names():
        return get_suite(first).get_task(task_id)
    for suite in loadable_suites():
        try:
            return suite.get_task(f"{suite.name}/{task_id}")
        except KeyError:
            continue
    raise KeyError(task_id)
