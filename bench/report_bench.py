"""Speed of ``egoeval report``. Prints figures; asserts nothing.

Run from the repository root: ``python bench/report_bench.py [--epochs 10]``.

Writes a synthetic log of every EgoBench task times ``--epochs`` (10,440 episodes by
default): in each episode the agent makes the task's ground-truth calls, or drops one of
them (about a third of the time, seeded), so verdicts vary. Then it times building the
report (every episode scored) and rendering each format (goal: under 10 s for 10,000
episodes).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

from egoeval.report import FORMATS, build, render
from egoeval.suites import load_tasks
from egoeval.trajectory import LogWriter


def write_log(path: Path, epochs: int, seed: int = 0) -> int:
    rng = random.Random(seed)
    n = 0
    with LogWriter(path, suite="egobench", config={"agent": "synthetic"}, fsync=False) as w:
        for epoch in range(1, epochs + 1):
            for task in load_tasks("egobench"):
                eid = f"{task.id}@{epoch}"
                calls = list(task.ground_truth)
                if calls and rng.random() < 0.33:
                    calls.pop(rng.randrange(len(calls)))
                w.write({"event": "episode_start", "episode": eid, "task": task.id, "epoch": epoch, "mode": "easy"})
                w.write({"event": "message", "episode": eid, "role": "user", "turn": 0, "content": "hello"})
                w.write({"event": "tool_calls", "episode": eid, "turn": 0, "calls": calls, "results": []})
                w.write({"event": "episode_end", "episode": eid, "reason": "user_stop",
                         "counters": {"input_tokens": rng.randrange(1000, 50000), "output_tokens": rng.randrange(50, 900),
                                      "rounds_count": rng.randrange(1, 10), "tool_calls_count": len(calls)}})
                n += 1
    return n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="egoeval-report-bench-") as tmp:
        log = Path(tmp) / "run.jsonl"
        started = time.perf_counter()
        n = write_log(log, args.epochs)
        print(f"synthetic log: {n} episodes, {log.stat().st_size / 2**20:.1f} MiB, written in "
              f"{time.perf_counter() - started:.2f} s")
        started = time.perf_counter()
        report = build([str(log)], "egobench")
        built = time.perf_counter() - started
        times = {}
        for fmt in FORMATS:
            t = time.perf_counter()
            render(report, fmt)
            times[fmt] = time.perf_counter() - t
        joint = report["models"]["synthetic"]["overall"]["Joint"]
        print(f"report over {n} episodes: built (every episode scored) in {built:.2f} s; rendered "
              + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in times.items())
              + f"; total {built + sum(times.values()):.2f} s (goal < 10 s); joint {joint:.1f} %")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
