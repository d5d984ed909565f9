"""Suites of tasks, shipped as data with their loaders (``egoeval.tasks.egobench``)."""


def shipped_tasks(folder) -> list:
    """A private copy of the ``tasks.json`` a suite ships in ``folder`` (read once)."""
    import json

    return json.loads(json.dumps(_read_tasks(str(folder))))


def _read_tasks(folder: str) -> tuple:
    import json
    from pathlib import Path

    if folder not in _SHIPPED:
        _SHIPPED[folder] = tuple(json.loads((Path(folder) / "tasks.json").read_text(encoding="utf-8")))
    return _SHIPPED[folder]


_SHIPPED: dict = {}
