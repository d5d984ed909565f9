"""Between egoeval logs and the EgoBench results format.

**Export** writes, per task file and mode (and per epoch when there are several), the
JSON list the official EgoBench evaluator reads: ``<file>_<mode>.json`` with one
trajectory per task *in task-file order*, because that evaluator pairs trajectories with
ground truth by position. A task the log has no finished episode for gets an empty
placeholder (``"egoeval_missing": true``), which the official evaluator scores as a
failure, so positions never shift. Only EgoBench tasks can be exported.

**Import** turns EgoBench results files into an egoeval log (``egoeval import``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from egoeval.trajectory import BadInput, Episode, LogWriter, episodes_from_results, read_log, read_results_file, \
    results_file_stem


@dataclass
class ExportReport:
    files: list[str] = field(default_factory=list)
    trajectories: int = 0
    placeholders: int = 0
    skipped: list[str] = field(default_factory=list)


def export_log(log: str | Path, out_dir: str | Path) -> ExportReport:
    from egoeval.tasks import egobench

    _, episodes = read_log(log)
    out, report = Path(out_dir), ExportReport()
    groups: dict[tuple[str, str, int], dict[str, Episode]] = {}
    for ep in episodes:
        parts = ep.task.split("/")
        if len(parts) != 3 or parts[0] != "egobench":
            report.skipped.append(f"{ep.episode}: not an EgoBench task")
            continue
        if not ep.finished or ep.end_reason == "infra_error":
            report.skipped.append(f"{ep.episode}: {'unfinished' if not ep.finished else 'infrastructure error'}")
            continue
        groups.setdefault((parts[1], ep.mode, ep.epoch), {})[parts[2]] = ep
    epochs = {e for _, _, e in groups}
    for (stem, mode, epoch), by_id in sorted(groups.items()):
        rows = []
        for pos, raw in enumerate(egobench.raw_tasks(stem)):
            tid = raw.get("task_id", pos + 1)
            ep = by_id.get(str(tid))
            if ep is None:
                rows.append({"task_id": tid, "mode": mode, "dialogue": [], "tool_calls": [], "egoeval_missing": True})
                report.placeholders += 1
            else:
                rows.append(ep.as_trajectory())
                report.trajectories += 1
        folder = out / f"epoch{epoch}" if len(epochs) > 1 else out
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{stem}_{mode}.json"
        path.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
        report.files.append(str(path))
    return report


def import_results(files: list[str | Path], log: str | Path) -> int:
    """Append the trajectories of EgoBench results files to an egoeval log; returns how many."""
    count = 0
    with LogWriter(log, suite="egobench", config={"imported_from": [str(f) for f in files]}, fsync=False) as w:
        for f in files:
            named = results_file_stem(f)
            if named is None:
                raise BadInput(f"{f}: expected a name like retail6_easy.json")
            for events in episodes_from_results(named[0], read_results_file(f), named[1]):
                for ev in events:
                    w.write(ev)
                count += 1
        w.sync()
    return count
