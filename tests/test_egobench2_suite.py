"""The egobench2 suite as a user meets it: its tasks, videos laid out as the official
repository lays them out, a clone of the repository as the data source, bad input."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from egoeval.suites import get_suite, load_tasks
from egoeval.tasks.egobench2.source import Clone, content_hash, read_json
from egoeval.videos import VideoMissing, find_video, missing_videos, video_stem

REPO = Path(__file__).resolve().parent.parent
SHIPPED = REPO / "tasks" / "egobench2" / "data"


def egoeval(*args, env=None):
    return subprocess.run([sys.executable, "-m", "egoeval", *args], capture_output=True, text=True, timeout=300,
                          env=env)


def test_tasks_of_the_five_scenarios():
    counts = Counter(t.scenario for t in load_tasks("egobench2"))
    assert counts["kitchen"] == 175 and counts["restaurant"] == 316
    assert counts["warehouse"] == 375 and counts["household"] == 270
    assert counts["retail"] == 454 and sum(counts.values()) == 1590
    task = get_suite("egobench2").get_task("egobench2/restaurant6/1")
    assert task.scenario == "restaurant" and task.seed == "restaurant6_init_data"
    assert type(get_suite("egobench2").new_env(task)).__name__ == "Restaurant6Env"
    names = {(s.get("function") or s)["tool_name"]: (s.get("function") or s) for s in get_suite("egobench2").tool_schemas(task)}
    assert set(names) == set(type(get_suite("egobench2").new_env(task)).tools)  # every tool, and only tools
    assert all("restaurant_name" in f["parameters"]["properties"] for f in names.values())


def test_videos_by_url_name_and_extension(tmp_path):
    assert video_stem("http://host/leqi/restaurant5.MOV") == "restaurant5"
    assert video_stem("http://host/a%20b.mp4") == "a b"
    (tmp_path / "scenarios" / "final" / "video").mkdir(parents=True)
    clip = tmp_path / "scenarios" / "final" / "video" / "Restaurant5.mp4"
    clip.write_bytes(b"")
    assert find_video("http://host/leqi/restaurant5.MOV", tmp_path) == clip
    with pytest.raises(VideoMissing):
        find_video("retail6.mp4", tmp_path)
    tasks = [t for t in load_tasks("egobench2") if t.file in ("restaurant5", "retail6")]
    assert set(missing_videos(tasks, tmp_path)) == {"retail6.mp4"}


def _clone(tmp_path):
    """A clone of the repository's data: the shipped task files, one changed, and a seed
    file whose last statement would run a command if it were executed."""
    root = tmp_path / "EgoBench"
    (root / "scenarios" / "final").mkdir(parents=True)
    for f in (SHIPPED / "tasks").glob("*.json"):
        (root / "scenarios" / "final" / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    changed = json.loads((SHIPPED / "tasks" / "warehouse3.json").read_text(encoding="utf-8"))
    changed[0]["Instruction"] += " (a newer release)"
    (root / "scenarios" / "final" / "warehouse3.json").write_text(json.dumps(changed), encoding="utf-8")
    seeds = {n: read_json(SHIPPED / "databases" / f"{n}.json") for n in ("warehouse_init_data1", "warehouse_init_data2")}
    seeds = json.loads(json.dumps(seeds))
    seeds["warehouse_init_data2"]["equipment"][0]["brand"] = "Another Brand"
    marker = tmp_path / "executed"
    (root / "tools" / "warehouse").mkdir(parents=True)
    (root / "tools" / "warehouse" / "warehouse_init.py").write_text(
        "".join(f"{k} = {v!r}\n" for k, v in seeds.items())
        + f"import pathlib\nran = pathlib.Path({str(marker)!r}).write_text('x')\n", encoding="utf-8")
    return root, marker


def test_a_clone_is_read_as_literals_and_its_differences_named(tmp_path):
    root, marker = _clone(tmp_path)
    from egoeval.tasks.egobench2 import FILES, TOOL_SETS

    clone = Clone(root, list(FILES), TOOL_SETS)
    assert not marker.exists()  # the seed file was parsed, never executed
    assert "scenarios/final/warehouse3.json" in clone.note and "seed warehouse_init_data2" in clone.note
    assert "warehouse1.json" not in clone.note and "seed warehouse_init_data1," not in clone.note
    assert clone.tasks("warehouse3")[0]["Instruction"].endswith("(a newer release)")
    assert clone.seed("warehouse_init_data2")["equipment"][0]["brand"] == "Another Brand"
    assert clone.seed("household_init_data1") == read_json(SHIPPED / "databases" / "household_init_data1.json")
    assert content_hash({"b": 1, "a": [1.5]}) == content_hash({"a": [1.5], "b": 1})


def test_egobench_dir_from_the_cli(tmp_path):
    root, marker = _clone(tmp_path)
    out = egoeval("tasks", "list", "--suite", "egobench2", "--file", "warehouse3", "--json", "--egobench-dir", str(root))
    assert out.returncode == 0 and not marker.exists()
    assert "warehouse3.json" in out.stderr and len(out.stderr.splitlines()) == 1
    bad = egoeval("validate", "--suite", "egobench2", "--egobench-dir", str(tmp_path / "nothing"))
    assert bad.returncode == 2 and "not a clone" in bad.stderr
    other = egoeval("validate", "--suite", "egobench", "--egobench-dir", str(root))
    assert other.returncode == 2 and "reads no data" in other.stderr


@pytest.mark.parametrize("name,why", [("order1_easy.json", "no ground truth for 'order1'"),
                                      ("warehouse26_easy.json", "no ground truth for 'warehouse26'"),
                                      ("Retail1_easy.json", "cannot tell the task file")])
def test_results_files_of_no_egobench2_file_exit_2_in_one_line(tmp_path, name, why):
    (tmp_path / name).write_text("[]")
    out = egoeval("score", "--suite", "egobench2", str(tmp_path / name))
    assert out.returncode == 2 and why in out.stderr and len(out.stderr.splitlines()) == 1


def test_an_old_shape_results_file_pairs_by_position(tmp_path):
    """Trajectories with ``task_id`` and no ``scenario_id`` (the first release's shape)
    pair by position, as the newest evaluator's fallback does."""
    gts = get_suite("egobench2").raw_tasks("warehouse5")
    rows = [{"task_id": i + 1, "tool_calls": [{"calls": t["ground_truth"]}]} for i, t in enumerate(gts)]
    (tmp_path / "warehouse5_easy.json").write_text(json.dumps(rows))
    out = egoeval("score", "--suite", "egobench2", str(tmp_path / "warehouse5_easy.json"), "--json")
    assert out.returncode == 0
    overall = json.loads(out.stdout)["overall"]
    assert overall["tasks"] == len(gts) and overall["joint_success_rate"] == 1.0


def _oracle_rows(stem, reverse=False):
    gts = get_suite("egobench2").raw_tasks(stem)
    rows = [{"scenario_id": t.get("scenario_id", i + 1), "tool_calls": [{"turn": 0, "calls": t["ground_truth"]}]}
            for i, t in enumerate(gts)]
    return rows[::-1] if reverse else rows


def test_an_imported_results_file_keeps_its_scenario_ids(tmp_path):
    (tmp_path / "warehouse1_easy.json").write_text(json.dumps(_oracle_rows("warehouse1", reverse=True)))
    direct = json.loads(egoeval("score", "--suite", "egobench2", str(tmp_path / "warehouse1_easy.json"), "--json").stdout)
    assert egoeval("import", "--suite", "egobench2", str(tmp_path / "warehouse1_easy.json"), "--out",
                   str(tmp_path / "log.jsonl")).returncode == 0
    logged = json.loads(egoeval("score", str(tmp_path / "log.jsonl"), "--json").stdout)
    assert direct["overall"]["joint_success_rate"] == logged["overall"]["joint_success_rate"] == 1.0


def test_logged_tasks_of_a_file_without_scenario_ids_keep_their_own_ids(tmp_path):
    out = egoeval("run", "--suite", "egobench2", "--tasks", "egobench2/retail1/*", "--no-video", "--quiet",
                  "--log-dir", str(tmp_path / "run"))
    assert out.returncode == 0, out.stderr
    verdicts = [json.loads(line) for line in (tmp_path / "run" / "run.jsonl").read_text().splitlines()
                if '"event": "verdict"' in line]
    assert sorted(v["task_id"] for v in verdicts) == list(range(1, 33)) and all(v["joint_success"] for v in verdicts)


def test_leading_zeros_in_results_file_names(tmp_path):
    (tmp_path / "warehouse01_easy.json").write_text(json.dumps(_oracle_rows("warehouse1")))
    out = json.loads(egoeval("score", "--suite", "egobench2", str(tmp_path), "--json").stdout)
    assert list(out["files"]) == ["warehouse1"] and out["overall"]["joint_success_rate"] == 1.0


def test_a_number_too_big_to_merge_fails_that_call_not_the_run(tmp_path):
    rows = _oracle_rows("retail2")[:1]
    rows[0]["tool_calls"].append({"calls": [{"tool_name": "compute_total_payment", "parameters": {
        "user_id": "u", "products": [{"product_name": "a", "quantity": 10 ** 400}, {"product_name": "a", "quantity": 1}]}}]})
    (tmp_path / "retail2_easy.json").write_text(json.dumps(rows))
    out = egoeval("score", "--suite", "egobench2", "--include-partial", str(tmp_path), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["overall"]["tasks"] == 1


@pytest.mark.parametrize("broken", ["{not json", '{"a": 1}', '[{"scenario_id": "abc", "ground_truth": []}]'])
def test_a_broken_task_file_in_a_clone_is_one_line(tmp_path, broken):
    root, _ = _clone(tmp_path)
    (root / "scenarios" / "final" / "warehouse2.json").write_text(broken)
    out = egoeval("tasks", "list", "--suite", "egobench2", "--json", "--egobench-dir", str(root))
    assert out.returncode == 2 and "warehouse2.json" in out.stderr.splitlines()[-1]
    assert "Traceback" not in out.stderr
