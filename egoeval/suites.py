"""One way to reach the tasks of every suite, by suite name or by task id.

Task ids name their suite (``egobench/retail1/7``, ``demo/retail/1``), so a log can be
scored without knowing how it was produced: :func:`scoring_target` gives the task file
whose scoring context applies and the raw ground-truth record the verifiers read.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from egoeval.task import Task

SUITES = ("egobench", "demo", "artifacts")


class UnknownSuite(KeyError):
    """A suite name egoeval does not have."""


def _module(suite: str):
    if suite == "egobench":
        from egoeval.tasks import egobench as module
    elif suite == "demo":
        from egoeval.tasks import demo as module
    elif suite == "artifacts":
        from egoeval.tasks import artifacts as module
    else:
        raise UnknownSuite(suite)
    return module


def load_tasks(suite: str, scenario: str | None = None, pattern: str | None = None) -> list[Task]:
    """A suite's tasks in suite order, optionally of one scenario, or whose id matches a
    glob ``pattern`` (several patterns separated by commas)."""
    tasks = _module(suite).load_tasks(scenario)
    if pattern:
        globs = [g.strip() for g in pattern.split(",") if g.strip()]
        tasks = [t for t in tasks if any(fnmatchcase(t.id, g) or fnmatchcase(t.id, f"{suite}/{g}") for g in globs)]
    return tasks


def get_task(task_id: str) -> Task:
    """The task with id ``task_id``; raises ``KeyError`` for an unknown one."""
    suite = task_id.split("/", 1)[0]
    return _module(suite if suite in SUITES else "egobench").get_task(task_id)


def scoring_target(task_id: str, ground_truth: str = "pinned") -> tuple[str, dict]:
    """(task file whose scoring context applies, raw ground-truth record) for a task id."""
    parts = task_id.split("/")
    if len(parts) != 3:
        raise KeyError(task_id)
    if parts[0] == "demo":
        from egoeval.tasks import demo

        for raw in demo.raw_tasks():
            if demo.task_ref(raw) == task_id:
                return demo.context_stem(raw), raw
        raise KeyError(task_id)
    if parts[0] != "egobench":
        raise KeyError(task_id)
    from egoeval.tasks import egobench

    for pos, raw in enumerate(egobench.raw_tasks(parts[1], ground_truth)):
        if str(raw.get("task_id", pos + 1)) == parts[2]:
            return parts[1], raw
    raise KeyError(task_id)
