"""Speed of scoring, validation and CLI start-up. Prints figures; asserts nothing.

Run from the repository root: ``python bench/bench_scoring.py [--repeat N]``.
Goals (issue 2): scoring the 309 recorded trajectories in-process well under 0.5 s;
``validate`` of all 1,044 tasks under 2 s; ``egoeval --help`` and ``egoeval score``
start-up under 0.5 s. Issue 13: the egobench2 oracle trajectories (one results file per
task file, written to a temporary folder) scored by the whole command, CPU time of the
process; ``validate --suite egobench2`` under 3 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "egobench" / "trajectories"

SCORE_ONCE = """
import sys, time
t0 = time.perf_counter()
from egoeval.trajectory import read_results_file, results_file_stem
from egoeval.suites import get_suite
suite = get_suite("egobench")
profile = suite.profile("egobench")
t1 = time.perf_counter()
files = sys.argv[1:]
data = [(results_file_stem(f)[0], read_results_file(f)) for f in files]
t2 = time.perf_counter()
n = 0
for stem, trajectories in data:
    n += len(suite.score_results(stem, trajectories, profile).verdicts)
t3 = time.perf_counter()
print(n, t1 - t0, t2 - t1, t3 - t2)
"""

VALIDATE_ONCE = """
import time
t0 = time.perf_counter()
from egoeval.validate import validate
r = validate("egobench")
print(r.tasks, r.oracle_joint_success, r.null_joint_success, len(r.defective), time.perf_counter() - t0)
"""


def fresh(code: str, *args: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    return out.stdout.split()


def wall(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=False)
    return time.perf_counter() - t0


def cpu(cmd: list[str]) -> float:
    """User + system CPU seconds of a child process."""
    before = os.times()
    subprocess.run(cmd, capture_output=True, check=False)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def egobench2_oracle_files(folder: Path) -> int:
    """One results file per egobench2 task file whose trajectories send the ground truth."""
    from egoeval.suites import get_suite

    suite = get_suite("egobench2")
    n = 0
    for stem in suite.files():
        rows = [{"scenario_id": t.get("scenario_id", i + 1), "tool_calls": [{"turn": 0, "calls": t["ground_truth"]}]}
                for i, t in enumerate(suite.raw_tasks(stem))]
        (folder / f"{stem}_easy.json").write_text(json.dumps(rows), encoding="utf-8")
        n += len(rows)
    return n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    files = sorted(str(p) for p in SHARED.glob("*_easy.json"))
    if not files:
        sys.exit(f"no trajectories under {SHARED}")

    runs = [fresh(SCORE_ONCE, *files) for _ in range(args.repeat)]
    n = int(runs[0][0])
    imp, read, score = (statistics.median(float(r[i]) for r in runs) for i in (1, 2, 3))
    print(f"score {n} trajectories in-process (fresh process, median of {args.repeat}):")
    print(f"  import {imp * 1000:7.1f} ms   read JSON {read * 1000:7.1f} ms   score {score * 1000:7.1f} ms   "
          f"read+score {(read + score) * 1000:7.1f} ms")

    vals = [fresh(VALIDATE_ONCE) for _ in range(args.repeat)]
    t = statistics.median(float(v[4]) for v in vals)
    tasks, oracle, null, defective = vals[0][:4]
    print(f"validate {tasks} tasks (oracle {oracle}, null {null}, defective {defective}): "
          f"{t * 1000:7.1f} ms (median of {args.repeat}, including imports)")

    exe = [sys.executable, "-m", "egoeval"]
    helps = [wall(exe + ["--help"]) for _ in range(args.repeat)]
    print(f"egoeval --help wall time: {statistics.median(helps) * 1000:7.1f} ms (median of {args.repeat})")
    startup = [wall(exe + ["score", "--profile", "nope", "x"]) for _ in range(args.repeat)]
    print(f"egoeval score start-up to first output (bad profile, exits at once): "
          f"{statistics.median(startup) * 1000:7.1f} ms")
    full = [wall(exe + ["score", *files]) for _ in range(args.repeat)]
    print(f"egoeval score of the 309 trajectories, whole command: {statistics.median(full) * 1000:7.1f} ms")
    used = [cpu(exe + ["score", *files]) for _ in range(args.repeat)]
    print(f"  CPU time of that process: {statistics.median(used) * 1000:7.1f} ms")

    with tempfile.TemporaryDirectory() as tmp:
        n = egobench2_oracle_files(Path(tmp))
        cmd = exe + ["score", "--suite", "egobench2", tmp]
        walls = [wall(cmd) for _ in range(args.repeat)]
        cpus = [cpu(cmd) for _ in range(args.repeat)]
        print(f"egoeval score of {n} egobench2 oracle trajectories, whole command: "
              f"{statistics.median(walls) * 1000:7.1f} ms wall, {statistics.median(cpus) * 1000:7.1f} ms CPU")
    validate2 = [wall(exe + ["validate", "--suite", "egobench2"]) for _ in range(args.repeat)]
    print(f"egoeval validate --suite egobench2, whole command: {statistics.median(validate2) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
