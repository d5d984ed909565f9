"""Metrics over repeated attempts (epochs): pass@k, pass^k, avg@k, and bootstrap intervals.

For a task tried ``n`` times with ``c`` successes:

- **pass@k** — the chance that at least one of k attempts, drawn without replacement
  from the n, succeeds: ``1 - C(n-c, k) / C(n, k)`` (the unbiased estimator of Chen et
  al., 2021, "Evaluating Large Language Models Trained on Code").
- **pass^k** — the chance that all k drawn attempts succeed: ``C(c, k) / C(n, k)`` (as in
  tau-bench and ECom-Bench): consistency, not luck.
- **avg@k** — the mean success rate over the first k attempts.

Suite-level values are means over tasks. :func:`bootstrap_ci` resamples *tasks* (the
epochs of a task stay together, since they are not independent) with a fixed seed, so
the same inputs give the same interval.
"""

from __future__ import annotations

from math import comb
from typing import Sequence


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one task (n attempts, c successes)."""
    _check(n, c, k)
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k for one task: all of k attempts succeed."""
    _check(n, c, k)
    return comb(c, k) / comb(n, k)


def avg_at_k(outcomes: Sequence[bool], k: int) -> float:
    """Mean success over the first k attempts of one task."""
    if not 1 <= k <= len(outcomes):
        raise ValueError(f"k={k} needs 1 <= k <= attempts ({len(outcomes)})")
    return sum(bool(x) for x in outcomes[:k]) / k


def _check(n: int, c: int, k: int) -> None:
    if not (0 <= c <= n and 1 <= k <= n):
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n, got n={n}, c={c}, k={k}")


def suite_metrics(attempts: dict[str, list[bool]], ks: Sequence[int] | None = None) -> dict[str, dict[int, float]]:
    """pass@k, pass^k and avg@k averaged over tasks, for every k up to the fewest attempts
    any task has (tasks with fewer attempts than k would bias the mean)."""
    if not attempts:
        return {"pass@k": {}, "pass^k": {}, "avg@k": {}}
    n_min = min(len(v) for v in attempts.values())
    ks = [k for k in (ks or range(1, n_min + 1)) if 1 <= k <= n_min]
    out: dict[str, dict[int, float]] = {"pass@k": {}, "pass^k": {}, "avg@k": {}}
    for k in ks:
        out["pass@k"][k] = _mean(pass_at_k(len(v), sum(v), k) for v in attempts.values())
        out["pass^k"][k] = _mean(pass_hat_k(len(v), sum(v), k) for v in attempts.values())
        out["avg@k"][k] = _mean(avg_at_k(v, k) for v in attempts.values())
    return out


def _mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def bootstrap_ci(per_task: dict[str, list[float]], resamples: int = 2000, level: float = 0.95,
                 seed: int = 0) -> tuple[float, float]:
    """A percentile interval for the mean of all values, resampling tasks (clusters)."""
    return ratio_ci({t: (sum(v), len(v)) for t, v in per_task.items()}, resamples, level, seed)


def ratio_ci(per_task: dict[str, tuple[float, float]], resamples: int = 2000, level: float = 0.95,
             seed: int = 0) -> tuple[float, float]:
    """A percentile interval for sum(numerators) / sum(denominators) over tasks resampled
    with replacement: a mean (sum, count), a success rate, or a pooled ratio such as
    MicroAcc (matched, ground-truth calls). Vectorised: 10,000 tasks take milliseconds."""
    import numpy as np

    tasks = sorted(per_task)
    if not tasks or resamples < 1:
        return (0.0, 0.0)
    num = np.array([float(per_task[t][0]) for t in tasks])
    den = np.array([float(per_task[t][1]) for t in tasks])
    rng = np.random.default_rng(seed)  # numpy's documented stream: the same interval for the same inputs
    stats = []
    block = max(1, 2_000_000 // len(tasks))  # resamples drawn at once, ~16 MB of indices
    for start in range(0, resamples, block):
        idx = rng.integers(0, len(tasks), size=(min(block, resamples - start), len(tasks)))
        total = den[idx].sum(axis=1)
        stats.append(num[idx].sum(axis=1)[total > 0] / total[total > 0])  # an all-zero draw has no ratio
    values = np.sort(np.concatenate(stats))
    if not len(values):
        return (0.0, 0.0)
    low = values[int((1 - level) / 2 * len(values))]
    high = values[min(len(values) - 1, int((1 + level) / 2 * len(values)))]
    return (float(low), float(high))
