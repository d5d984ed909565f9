"""Between egoeval logs and the EgoBench results format.

**Export** writes, per task file and mode (and per epoch when there are several), the
JSON list the official EgoBench evaluator reads: ``<file>_<mode>.json`` with one
trajectory per task *in task-file order*, because that evaluator pairs trajectories with
ground truth by position. A task the log has no finished episode for gets an empty
placeholder (``"egoeval_missing": true``), which the official evaluator scores as a
failure, so positions never shift. Only tasks of suites with a results format
(``Suite.exports_results``) can be exported.

**Import** turns EgoBench results files into an egoeval log (``egoeval import``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from egoeval.trajectory import Episode, LogWriter, episodes_from_results, read_log, read_results_file, \
    results_file_stem


@dataclass
class ExportReport:
    files: list[str] = field(default_factory=list)
    trajectories: int = 0
    placeholders: int = 0
    skipped: list[str] = field(default_factory=list)


def export_log(log: str | Path, out_dir: str | Path) -> ExportReport:
    from egoeval.suites import suite_of

    _, episodes = read_log(log)
    out, report = Path(out_dir), ExportReport()
    groups: dict[tuple[str, str, str, int], dict[str, Episode]] = {}
    suites: dict[str, Any] = {}
    for ep in episodes:
        parts = ep.task.split("/")
        try:
            suite = suite_of(ep.task)
        except KeyError:
            suite = None
        if len(parts) != 3 or suite is None or not suite.exports_results:
            report.skipped.append(f"{ep.episode}: not a task of a suite with a results format")
            continue
        if not ep.finished or ep.end_reason == "infra_error":
            report.skipped.append(f"{ep.episode}: {'unfinished' if not ep.finished else 'infrastructure error'}")
            continue
        suites[suite.name] = suite
        groups.setdefault((suite.name, parts[1], ep.mode, ep.epoch), {})[ep.task] = ep
    epochs = {e for *_, e in groups}
    for (name, stem, mode, epoch), by_id in sorted(groups.items()):
        suite = suites[name]
        try:
            raws = suite.raw_tasks(stem)
        except KeyError:
            report.skipped += [f"{ep.episode}: no task file {stem!r} in suite {name}" for ep in by_id.values()]
            continue
        rows = []
        for pos, raw in enumerate(raws):
            ep = by_id.get(suite.task_ref(stem, raw, pos))
            if ep is None:
                rows.append(suite.placeholder(raw, pos, mode))
                report.placeholders += 1
            else:
                rows.append({**ep.as_trajectory(), suite.id_member: raw.get(suite.id_member, pos + 1)})
                report.trajectories += 1
        folder = out / name if len(suites) > 1 else out
        folder = folder / f"epoch{epoch}" if len(epochs) > 1 else folder
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{stem}_{mode}.json"
        path.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
        report.files.append(str(path))
    return report


def import_results(files: list[str | Path], log: str | Path, suite: str | None = None) -> int:
    """Append the trajectories of results files to an egoeval log; returns how many.
    ``suite`` names their suite (default: the first whose format takes each file's name)."""
    from egoeval.scoring import results_suite

    count = 0
    owners = [results_suite(Path(f), suite) for f in files]  # every file checked before anything is written
    names = sorted({o.name for o, _ in owners})
    with LogWriter(log, suite=",".join(names), config={"imported_from": [str(f) for f in files]}, fsync=False) as w:
        for f, (owner, stem) in zip(files, owners):
            for events in episodes_from_results(stem, read_results_file(f), results_file_stem(f)[1], owner.name,
                                                owner.id_member):
                for ev in events:
                    w.write(ev)
                count += 1
        w.sync()
    return count
