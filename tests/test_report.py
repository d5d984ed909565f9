"""egoeval report: the same numbers as egoeval score, per model x scenario x mode, epochs,
formats, byte-for-byte determinism."""

import asyncio
import csv
import io
import json

from egoeval.agents import NullAgent, OracleAgent
from egoeval.cli import main
from egoeval.observation import ObservationConfig
from egoeval.report import build, render
from egoeval.runner import RunConfig, Runner
from egoeval.scoring import score_paths
from egoeval.suites import load_tasks
from egoeval.users import ScriptedUser

EGOBENCH = "egobench"


def test_report_reproduces_egoeval_score_on_the_recorded_trajectories(shared):
    folder = str(shared / "trajectories")
    report = build([folder], "egobench")
    scored = score_paths([folder], "egobench").overall
    [model] = report["models"].values()
    overall = model["overall"]
    assert overall["tasks"] == scored["tasks"] == 309 and overall["joint_success"] == scored["joint_success"]
    for name, key in (("Micro", "micro_acc"), ("Tool", "tool_success_rate"), ("Result", "result_success_rate"),
                      ("Joint", "joint_success_rate")):
        assert overall[name] == round(100 * scored[key], 2)
    totals = json.loads((shared / "trajectories" / "verdicts.json").read_text())["totals"]  # the official run
    assert overall["joint_success"] == totals["joint_success"] == 259
    assert overall["Tool"] == round(100 * totals["tool_success_rate"], 2)
    assert overall["Micro"] == round(100 * totals["micro_acc_task_weighted_mean_of_files"], 2)
    assert sum(r["tasks"] for r in model["rows"]) == 309
    assert {r["scenario"] for r in model["rows"]} == {"retail", "kitchen", "restaurant", "order"}
    assert model["error_categories"]["correct"] == overall["joint_success"]


def run(tmp_path, agent, epochs=1):
    runner = Runner(RunConfig(observation=ObservationConfig(no_video=True), epochs=epochs, agent=agent.name),
                    load_tasks("demo"), agent, lambda: ScriptedUser("easy"), tmp_path)
    asyncio.run(runner.run())
    return runner.log_path


def test_oracle_and_null_runs_side_by_side_with_epochs(tmp_path, capsys):
    oracle = run(tmp_path / "oracle", OracleAgent, epochs=2)
    null = run(tmp_path / "null", NullAgent)
    report = build([str(oracle), str(null)], "egobench")
    assert report["models"]["oracle"]["overall"]["Joint"] == 100.0
    assert report["models"]["null"]["overall"]["Joint"] == 0.0
    assert report["models"]["oracle"]["epochs"]["pass^k"] == {"1": 1.0, "2": 1.0}
    assert report["models"]["null"]["epochs"] == {}
    page = render(report, "html")
    assert page.count("data:image/png;base64,") == 4 and "<table>" in page  # 3 figures + the pass curves
    for fmt in ("md", "json", "csv", "latex", "html"):
        assert render(report, fmt) == render(build([str(oracle), str(null)], "egobench"), fmt)  # same bytes
    rows = list(csv.DictReader(io.StringIO(render(report, "csv"))))
    assert {r["model"] for r in rows} == {"oracle", "null"} and rows[0]["Joint"] in ("100.00", "0.00")
    assert render(report, "latex").startswith(r"\begin{tabular}")
    out = tmp_path / "report.md"
    assert main(["report", str(tmp_path / "oracle"), str(tmp_path / "null"), "--out", str(out)]) == 0
    assert "| oracle | all | all | all | 24 | 100.00 | 100.00 | 100.00 | 100.00 |" in out.read_text()


def test_taxonomy_cascade_examples_and_user_fidelity(shared):
    [model] = build([str(shared / "trajectories")], "egobench")["models"].values()
    rates = model["error_rates"]
    assert rates["denominators"]["total"] == 309
    assert rates["multimodal_error_rate"] == round(6 / rates["denominators"]["syntax_correct"], 4)
    assert set(model["error_examples"]) == {c for c in model["error_categories"] if c != "correct"}
    assert all(1 <= len(v) <= 3 for v in model["error_examples"].values())
    assert 0.9 <= model["user_fidelity"]["role_consistency"] <= 1.0


def test_artifact_episodes_in_the_report(tmp_path):
    import shutil

    import pytest

    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice is not installed")
    runner = Runner(RunConfig(suite="artifacts", observation=ObservationConfig(frames=2)),
                    load_tasks("artifacts", pattern="artifacts/retail/1"), OracleAgent,
                    lambda: ScriptedUser("easy"), tmp_path)
    asyncio.run(runner.run())
    art = build([str(runner.log_path)], "egobench")["models"]["oracle"]["artifacts"]
    assert art["passed"] == art["tasks"] == 1 and art["self_verification"] == {"verified": 1}


def test_intervals_for_every_rate_contain_their_estimate(shared):
    report = build([str(shared / "trajectories")], "egobench")
    [model] = report["models"].values()
    ci, overall = model["ci95"], model["overall"]
    assert ci["Joint"] == model["joint_ci95"]
    for name in ("Tool", "Result", "Joint", "Answers"):
        low, high = ci[name]
        assert low < overall[name] / 100 < high, name
    scored = score_paths([str(shared / "trajectories")], "egobench").overall
    assert ci["Micro (pooled)"][0] < scored["pooled_micro_acc"] < ci["Micro (pooled)"][1]
    assert "95% CI Tool" in render(report, "md")


def test_step_latency_percentiles_leave_cache_hits_out():
    from egoeval.report import Record, _efficiency
    from egoeval.trajectory import Episode

    ep = Episode("e", "demo/retail/1")
    for n, seconds in enumerate([0.5, 1.0, 2.0, 4.0]):
        ep.apply({"event": "tool_calls", "turn": n, "calls": [], "results": [], "latency_s": seconds})
    ep.apply({"event": "message", "role": "agent", "turn": 9, "content": "hi", "latency_s": 0.001, "cached": True})
    ep.apply({"event": "message", "role": "user", "turn": 9, "content": "STOP"})
    assert ep.step_latencies == [0.5, 1.0, 2.0, 4.0]
    record = Record("m", "demo", "retail", "retail", "easy", "demo/retail/1", 1, None, {}, None, ep.step_latencies)
    assert _efficiency([record])["step_latency_s"] == {"p50": 2.0, "p90": 4.0, "p99": 4.0}


def test_excluded_verdicts_stay_out_of_every_interval():
    from egoeval.report import Record, _intervals
    from egoeval.verifiers.verdict import Verdict

    def record(task, joint, excluded=None):
        v = Verdict("order1", task, joint, joint, joint, 1, 1, 1, None, None, excluded=excluded)
        return Record("m", "egobench", "order", "order1", "easy", f"egobench/order1/{task}", 1, v)

    kept = [record(n, n % 2 == 0) for n in range(40)]
    excluded = [record(100 + n, False, excluded="GT contradicts the instruction") for n in range(40)]
    assert _intervals(kept + excluded) == _intervals(kept)
