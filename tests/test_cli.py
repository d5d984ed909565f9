"""The command line, run as a user runs it (a real subprocess)."""

import json
import subprocess
import sys

import pytest


def egoeval(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "egoeval", *args], capture_output=True, text=True, cwd=cwd)


def test_help_and_version():
    out = egoeval("--help")
    assert out.returncode == 0 and "score" in out.stdout and "validate" in out.stdout
    assert egoeval("--version").stdout.startswith("egoeval ")


def test_validate_json_reports_oracle_null_and_the_11_defective_tasks():
    out = egoeval("validate", "--suite", "egobench", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["tasks"] == 1044 and report["oracle_joint_success"] == 1044
    assert report["null_joint_success"] == 0
    defective = {d["task"]: d["reason"] for d in report["defective"]}
    assert sorted(defective) == sorted([
        "egobench/retail2/28", "egobench/retail4/8", "egobench/retail4/10", "egobench/retail4/11",
        "egobench/retail4/14", "egobench/retail4/18", "egobench/retail4/20", "egobench/retail7/27",
        "egobench/retail8/6", "egobench/retail8/16", "egobench/retail8/20"])
    assert "get_country_of_origin" in defective["egobench/retail2/28"]
    assert "'get_discount '" in defective["egobench/retail4/10"]
    assert "not found in catalog" in defective["egobench/retail8/16"]
    assert "remove_from_cart" in defective["egobench/retail8/20"]
    assert len(report["user_id_mismatches"]) == 33


def test_validate_strict_also_passes():
    out = egoeval("validate", "--profile", "strict")
    assert out.returncode == 0 and "oracle (ground truth replayed as the agent): joint success 1044/1044" in out.stdout


def test_tasks_list_and_show():
    out = egoeval("tasks", "list", "--file", "retail1", "--json")
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(rows) == 32 and rows[6]["id"] == "egobench/retail1/7"
    assert len(egoeval("tasks", "list", "--scenario", "kitchen", "--json").stdout.splitlines()) == 175
    shown = egoeval("tasks", "show", "egobench/retail1/7")
    assert shown.returncode == 0 and "User ID: mark_taylor_789" in shown.stdout and "Ground truth" in shown.stdout
    data = json.loads(egoeval("tasks", "show", "retail1/7", "--json").stdout)
    assert data["id"] == "egobench/retail1/7" and data["seed"] == "retail_init_data1"
    assert data["rubric"] and all(r["id"].startswith(("tell-", "do-")) for r in data["rubric"])
    order = json.loads(egoeval("tasks", "show", "egobench/order1/1", "--json").stdout)
    assert [f["value"] for f in order["expected_facts"]] == [15.75]
    made = [json.loads(line) for line in egoeval("tasks", "list", "--suite", "artifacts", "--json").stdout.splitlines()]
    assert len(made) == 12 and all(r["id"].startswith("artifacts/") for r in made)
    artifact = egoeval("tasks", "show", "artifacts/kitchen/4")
    assert artifact.returncode == 0 and "artifacts/kitchen/4" in artifact.stdout
    assert len(egoeval("tasks", "list", "--suite", "demo", "--scenario", "order", "--json").stdout.splitlines()) == 3


def test_score_writes_one_verdict_per_task(shared, tmp_path):
    out_file = tmp_path / "v.jsonl"
    files = sorted(str(p) for p in (shared / "trajectories").glob("*_easy.json"))
    out = egoeval("score", *files, "--out", str(out_file))
    assert out.returncode == 0, out.stderr
    assert "overall" in out.stdout and "1066/1187" in out.stdout
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert len(rows) == 309
    required = {"scenario", "task_id", "tool_success", "result_success", "joint_success", "matched_calls",
                "gt_calls", "agent_calls", "error_category", "gt_hash", "agent_hash", "diff"}
    assert all(required <= row.keys() for row in rows)
    assert sum(r["joint_success"] for r in rows) == 259


# --- bad input -------------------------------------------------------------------------------

def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("name,text,needle", [
    ("retail6_easy.json", '[{"task_id": 1, "tool_calls": [', "not valid JSON"),
    ("retail6_easy.json", '{"task_id": 1}', "expected a JSON list of trajectories, found a JSON object"),
    ("retail6_easy.json", "", "not valid JSON"),
    ("mystery.json", "[]", "cannot tell the task file from the name"),
    ("retail99_easy.json", "[]", "no ground truth for 'retail99'"),
])
def test_unreadable_files_exit_2_with_one_line(tmp_path, name, text, needle):
    path = _write(tmp_path, name, text)
    out = egoeval("score", path)
    assert out.returncode == 2
    assert needle in out.stderr and path in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_missing_file_unknown_profile_unknown_task_exit_2(tmp_path):
    for args, needle in [(("score", str(tmp_path / "nope_easy.json")), "no such file"),
                         (("score", "x", "--profile", "lenient"), "unknown profile 'lenient'"),
                         (("tasks", "show", "egobench/retail1/999"), "unknown task"),
                         (("validate", "--suite", "other"), "unknown suite"),
                         (("score",), "the following arguments are required")]:
        out = egoeval(*args)
        assert out.returncode == 2 and needle in out.stderr and "Traceback" not in out.stderr


def test_garbage_inside_a_readable_file_is_scored_not_fatal(tmp_path):
    trajectories = [
        {"task_id": 1, "tool_calls": [{"turn": 0, "calls": ["get_price", 3, None]}]},
        {"task_id": 2, "tool_calls": [{"turn": 0, "calls": [{"tool_name": "teleport", "parameters": {"to": "mars"}}]}]},
        {"task_id": 3, "tool_calls": [{"turn": 0, "calls": [
            {"tool_name": "add_to_cart", "parameters": {"user_id": ["x"], "product_name": 5, "qty": "lots",
                                                        "category": None, "price": {}, "tax_rate": [], "discount": "1"}},
            {"tool_name": "get_price", "parameters": [1, 2]}, {"tool_name": "get_cart", "parameters": None}]}]},
        {"task_id": 4, "tool_calls": None},
        "a string",
        42,
        {"task_id": 7, "tool_calls": [{"turn": 0, "call": {"name": "get_cart", "parameters": {"user_id": "u"}}}]},
    ]
    path = _write(tmp_path, "retail6_easy.json", json.dumps(trajectories))
    out_file = tmp_path / "v.jsonl"
    out = egoeval("score", path, "--out", str(out_file))
    assert out.returncode == 0, out.stderr
    rows = {r["task_id"]: r for r in map(json.loads, out_file.read_text().splitlines())}
    assert set(rows) == {1, 2, 3, 7}
    assert rows[1]["error_category"] == "syntax_error" and rows[1]["gt_calls"] == 0
    assert rows[2]["agent_calls"] == 1 and rows[2]["error_category"] != "correct"
    assert rows[3]["agent_calls"] == 3 and rows[3]["agent_hash"] is not None
    assert "invalid (not counted)" in out.stderr and "Traceback" not in out.stderr


def test_wrong_kinds_of_paths_and_typos_are_one_line_errors(tmp_path, shared):
    """What a first-time user mistypes gets exit 2 and one line naming the problem, never a
    traceback, and nothing is written where it should not be."""
    log_dir = tmp_path / "log"
    assert egoeval("run", "--tasks", "demo/retail/1", "--quiet", "--log-dir", str(log_dir)).returncode == 0
    log = log_dir / "run.jsonl"
    results = str(shared / "trajectories" / "retail6_easy.json")
    bad = [("run", "--tasks", "demo/retail/1", "--quiet", "--log-dir", str(log)),  # the log, not its folder
           ("run", "--tasks", "demo/retail/1,demo/retial/2", "--quiet", "--log-dir", str(tmp_path / "x")),
           ("import", results, "--out", str(log)),  # would add episodes to a run's log
           ("report", str(log_dir), "--out", str(log_dir)),
           ("export", str(log_dir), "--out", str(log)),
           ("view", str(tmp_path / "nothing-here")),
           ("score", str(tmp_path / "empty")),
           ("tasks", "check-videos"),
           ("validate", "--suite", "artifacts", "--profile", "nope"),
           ("media", "synth", "--task", "demo/retail/1", "--kind", "menu", "--out", str(tmp_path / "c.mp4"))]
    (tmp_path / "empty").mkdir()
    for args in bad:
        out = egoeval(*args)
        assert out.returncode == 2 and "Traceback" not in out.stderr and out.stderr.startswith("egoeval: "), args
    assert not (tmp_path / "nothing-here").exists() and not (tmp_path / "x").exists()
    assert sum(1 for line in log.read_text().splitlines() if '"episode_end"' in line) == 1
    shown = egoeval("view", str(log))  # a log file is as good as its folder
    assert shown.returncode == 0 and (log_dir / "view" / "index.html").is_file()
    assert egoeval("tasks", "check-videos", "--suite", "demo").returncode == 0


def test_view_keeps_every_page_of_two_runs_of_one_model(tmp_path):
    for name in ("a", "b"):
        assert egoeval("run", "--tasks", "demo/retail/1,demo/kitchen/4", "--quiet", "--log-dir",
                       str(tmp_path / name)).returncode == 0
    assert egoeval("view", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "v")).returncode == 0
    assert len(list((tmp_path / "v" / "episodes").glob("*.html"))) == 4


def test_a_run_where_nothing_could_be_evaluated_fails(tmp_path):
    out = egoeval("run", "--suite", "egobench", "--tasks", "egobench/retail6/1", "--quiet", "--log-dir",
                  str(tmp_path / "log"), "--video-dir", str(tmp_path))  # the video is not there
    assert out.returncode == 1 and "infra_error 1" in out.stdout and "no episode could be evaluated" in out.stderr


def test_files_written_beside_a_log_are_not_taken_for_logs(tmp_path):
    log_dir = tmp_path / "log"
    assert egoeval("run", "--tasks", "demo/retail/1", "--quiet", "--log-dir", str(log_dir)).returncode == 0
    assert egoeval("score", str(log_dir), "--out", str(log_dir / "verdicts.jsonl")).returncode == 0
    again = egoeval("score", str(log_dir))
    assert again.returncode == 0 and "joint 1" in again.stdout
    assert egoeval("report", str(log_dir)).returncode == 0
