"""pass@k, pass^k and avg@k against worked examples; bootstrap intervals."""

from math import comb

import pytest

from egoeval.epochs import avg_at_k, bootstrap_ci, pass_at_k, pass_hat_k, suite_metrics


def test_pass_at_k_worked_examples():
    # n=5 attempts, c=2 successes, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7)
    assert pass_at_k(5, 2, 1) == pytest.approx(0.4)  # k=1 is the success rate
    assert pass_at_k(5, 0, 3) == 0.0 and pass_at_k(5, 3, 3) == 1.0  # n-c < k: some success is certain
    assert pass_at_k(10, 1, 10) == 1.0


def test_pass_hat_k_is_the_ecom_bench_formula():
    # ECom-Bench / tau-bench: pass^k = C(c, k) / C(n, k); n=4, c=3, k=2 -> 3/6
    assert pass_hat_k(4, 3, 2) == pytest.approx(0.5)
    assert pass_hat_k(4, 3, 1) == pytest.approx(0.75)
    assert pass_hat_k(4, 1, 2) == 0.0 and pass_hat_k(4, 4, 4) == 1.0
    for n in range(1, 7):
        for c in range(n + 1):
            for k in range(1, n + 1):
                assert pass_hat_k(n, c, k) == pytest.approx(comb(c, k) / comb(n, k))
                assert pass_hat_k(n, c, k) <= pass_at_k(n, c, k) + 1e-12


def test_avg_at_k_and_bad_arguments():
    assert avg_at_k([True, False, True, True], 2) == 0.5 and avg_at_k([True, False, True, True], 4) == 0.75
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError):
        pass_hat_k(3, 1, 4)
    with pytest.raises(ValueError):
        avg_at_k([True], 2)


def test_suite_metrics_average_over_tasks():
    attempts = {"a": [True, True, True, True], "b": [True, False, False, False], "c": [False] * 4}
    m = suite_metrics(attempts)
    assert m["pass@k"][1] == pytest.approx((1 + 0.25 + 0) / 3)
    assert m["pass^k"][2] == pytest.approx((1 + 0 + 0) / 3)
    assert m["pass@k"][2] == pytest.approx((1 + (1 - comb(3, 2) / comb(4, 2)) + 0) / 3)
    assert m["avg@k"][4] == pytest.approx((1 + 0.25 + 0) / 3)
    assert sorted(m["pass@k"]) == [1, 2, 3, 4]


def test_bootstrap_is_clustered_and_reproducible():
    per_task = {f"t{i}": [1.0, 1.0, 1.0] if i % 2 else [0.0, 0.0, 0.0] for i in range(40)}
    low, high = bootstrap_ci(per_task)
    assert low < 0.5 < high and (low, high) == bootstrap_ci(per_task)
    assert bootstrap_ci({"only": [1.0, 0.0]}) == (0.5, 0.5)


def test_ratio_intervals_pool_and_skip_empty_draws():
    from egoeval.epochs import ratio_ci

    assert ratio_ci({"a": (0, 0), "b": (3, 4)}) == (0.75, 0.75)  # a draw of only 'a' has no ratio
    assert ratio_ci({"a": (1, 2)}, resamples=0) == (0.0, 0.0)
    low, high = ratio_ci({f"t{i}": (i % 3, 3) for i in range(60)})
    assert low < 1 / 3 < high
