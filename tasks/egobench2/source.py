"""Where egobench2 reads its data: the copy shipped with egoeval, or a clone of the
official repository (``--egobench-dir`` / ``EGOBENCH_DIR``).

Users clone the repository for its videos; pointed at the clone, egoeval reads the task
files, tool schemas and seeds from it and compares each with the shipped copy, so that
a newer or older release is named before anything runs. Files are compared by the
SHA-256 of their content in canonical JSON (the shipped seeds are JSON conversions of
the repository's Python literals, so byte hashes could not agree). Seeds are Python
literals: they are parsed with ``ast.literal_eval``, never imported or executed.
"""

from __future__ import annotations

import ast
import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from egoeval.suites import SuiteDataError

HERE = Path(__file__).parent
DATA = HERE / "data"
#: repository path -> SHA-256 of its canonical content, per variable for seed files
SUMS = DATA / "SHA256SUMS.json"


class BadClone(SuiteDataError):
    """A folder that is not a clone of the EgoBench repository (or holds a broken file)."""


def content_hash(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=None)
def read_json(path: Path) -> Any:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def literals(path: Path) -> dict[str, Any]:
    """The ``NAME = <literal>`` assignments of a Python file, evaluated as literals only."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, SyntaxError, UnicodeDecodeError) as exc:
        raise BadClone(f"{path}: cannot read it as Python literals: {exc}") from None
    out: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue  # not a literal: not data
    return out


def task_path(stem: str) -> str:
    return f"scenarios/final/{stem}.json"


def schema_path(name: str) -> str:
    """Where the repository keeps a tool set (``restaurant6`` lives with ``restaurant``)."""
    folder = "restaurant" if name == "restaurant6" else name
    return f"tools/{folder}/{name}_tools.json"


class Shipped:
    """The copy shipped with egoeval (package data)."""

    root: Path | None = None
    note = ""

    def tasks(self, stem: str) -> list[dict]:
        return read_json(DATA / "tasks" / f"{stem}.json")

    def schemas(self, scenario: str) -> list[dict]:
        return read_json(DATA / "tools" / f"{scenario}.json")

    def seed(self, name: str) -> dict | None:
        path = DATA / "databases" / f"{name}.json"
        return read_json(path) if path.exists() else None


class Clone(Shipped):
    """A clone of the official repository; what it lacks is read from the shipped copy."""

    def __init__(self, root: Path, files: list[str], scenarios: list[str]) -> None:
        if not (root / "scenarios" / "final").is_dir():
            raise BadClone(f"--egobench-dir {root}: not a clone of the EgoBench repository "
                           f"(no scenarios/final/ folder)")
        self.root = root
        self._seeds: dict[str, Any] = {}
        for init in sorted((root / "tools").glob("*/*_init.py")):
            self._seeds.update(literals(init))
        self.note = self._compare(files, scenarios)

    def tasks(self, stem: str) -> list[dict]:
        path = self.root / task_path(stem)
        if not path.exists():
            return super().tasks(stem)
        tasks = _json(path)
        if not isinstance(tasks, list) or not all(isinstance(t, dict) for t in tasks):
            raise BadClone(f"{path}: expected a JSON list of task objects")
        for n, t in enumerate(tasks, 1):
            sid = t.get("scenario_id")
            if sid is not None and (isinstance(sid, bool) or not isinstance(sid, int)):
                raise BadClone(f"{path}: task {n}: scenario_id {sid!r} is not a whole number")
            if not isinstance(t.get("ground_truth", []), list) or not isinstance(t.get("Instruction", ""), str):
                raise BadClone(f"{path}: task {n}: ground_truth must be a list and Instruction text")
        return tasks

    def schemas(self, scenario: str) -> list[dict]:
        path = self.root / schema_path(scenario)
        if not path.exists():
            return super().schemas(scenario)
        schemas = _json(path)
        if not isinstance(schemas, list) or not all(isinstance(s, dict) for s in schemas):
            raise BadClone(f"{path}: expected a JSON list of tool schemas")
        return schemas

    def seed(self, name: str) -> dict | None:
        if name not in self._seeds:
            return super().seed(name)
        if not isinstance(self._seeds[name], dict):
            raise BadClone(f"seed {name} of {self.root}/tools is not a dictionary")
        return self._seeds[name]

    def _compare(self, files: list[str], scenarios: list[str]) -> str:
        """One line: which files of the clone differ from (or are missing against) the
        shipped copy; empty when the clone is the pinned release."""
        sums = read_json(SUMS)
        differ, missing = [], []
        for stem in files:
            path = self.root / task_path(stem)
            if not path.exists():
                missing.append(task_path(stem))
            else:
                try:
                    same = content_hash(read_json(path)) == sums[task_path(stem)]
                except (ValueError, UnicodeDecodeError):
                    same = False
                if not same:
                    differ.append(task_path(stem))
        for scenario in scenarios:
            path = self.root / schema_path(scenario)
            if path.exists():
                try:
                    same = content_hash(read_json(path)) == sums[schema_path(scenario)]
                except (ValueError, UnicodeDecodeError):
                    same = False
                if not same:
                    differ.append(schema_path(scenario))
        for name, digest in sums["seeds"].items():
            if name not in self._seeds:
                missing.append(f"seed {name}")
            elif content_hash(self._seeds[name]) != digest:
                differ.append(f"seed {name}")
        if not differ and not missing:
            return ""
        parts = []
        if differ:
            parts.append(f"{len(differ)} differ from the pinned release egoeval ships (a newer or older release): "
                         f"{', '.join(differ[:12])}{' ...' if len(differ) > 12 else ''}")
        if missing:
            parts.append(f"{len(missing)} missing (the shipped copy is used): "
                         f"{', '.join(missing[:6])}{' ...' if len(missing) > 6 else ''}")
        return f"--egobench-dir {self.root}: " + "; ".join(parts)


def _json(path: Path) -> Any:
    try:
        return read_json(path)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise BadClone(f"{path}: not readable JSON: {exc}") from None


def write_sums(files: list[str], scenarios: list[str]) -> dict:
    """The content hashes of the shipped copy (run when the shipped data changes)."""
    shipped = Shipped()
    sums: dict[str, Any] = {task_path(s): content_hash(shipped.tasks(s)) for s in files}
    sums.update({schema_path(s): content_hash(shipped.schemas(s)) for s in scenarios})
    sums["seeds"] = {p.stem: content_hash(read_json(p)) for p in sorted((DATA / "databases").glob("*.json"))}
    SUMS.write_text(json.dumps(sums, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return sums
