"""Suites dispatch through one registry: a third-party suite installed as a package
(entry point group ``egoeval.suites``) runs end to end from the CLI, and no layer
outside tasks/ branches on a suite's name."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PLUGIN = REPO / "tests" / "plugins" / "tiny_suite"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The tiny suite package installed into a private folder (not the test machine's
    site-packages); returns the environment that puts it on the path."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", str(target), str(PLUGIN)], check=True, capture_output=True, timeout=300)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(target), os.environ.get("PYTHONPATH", "")]))
    return env


def egoeval(env, *args):
    return subprocess.run([sys.executable, "-m", "egoeval", *args], capture_output=True, text=True, env=env,
                          timeout=300)


def test_an_installed_suite_runs_end_to_end_from_the_cli(installed, tmp_path):
    listed = egoeval(installed, "suites")
    assert listed.returncode == 0 and "tiny: two retail tasks from a plugin package" in listed.stdout
    tasks = egoeval(installed, "tasks", "list", "--suite", "tiny", "--json")
    assert [json.loads(line)["id"] for line in tasks.stdout.splitlines()] == ["tiny/retail1/1", "tiny/retail1/2"]
    log = tmp_path / "run"
    run = egoeval(installed, "run", "--suite", "tiny", "--no-video", "--quiet", "--log-dir", str(log))
    assert run.returncode == 0, run.stderr
    scored = json.loads(egoeval(installed, "score", str(log), "--json").stdout)
    assert scored["overall"]["joint_success_rate"] == 1.0 and scored["overall"]["tasks"] == 2
    null = egoeval(installed, "run", "--suite", "tiny", "--agent", "null", "--no-video", "--quiet",
                   "--log-dir", str(tmp_path / "null"))
    assert null.returncode == 0
    nothing = json.loads(egoeval(installed, "score", str(tmp_path / "null"), "--json").stdout)["overall"]
    assert nothing["tasks"] == 2 and nothing["joint_success_rate"] == 0.0


def test_without_the_package_the_suite_is_unknown_in_one_line(tmp_path):
    out = egoeval(dict(os.environ), "run", "--suite", "tiny", "--log-dir", str(tmp_path / "x"))
    assert out.returncode == 2 and "unknown suite 'tiny'" in out.stderr and len(out.stderr.splitlines()) == 1


def test_a_suite_needing_videos_stops_before_the_first_episode(tmp_path):
    out = egoeval(dict(os.environ, EGOEVAL_VIDEO_DIR=""), "run", "--suite", "egobench2", "--tasks",
                  "warehouse1/1", "--log-dir", str(tmp_path / "x"))
    assert out.returncode == 2 and "--video-dir" in out.stderr and not (tmp_path / "x" / "run.jsonl").exists()


def test_no_layer_outside_tasks_branches_on_a_suite_name():
    pattern = re.compile(r"(suite|suite_name|name)\s*(==|!=|in)\s*[\(\[\{]?\s*['\"](egobench|egobench2|demo|artifacts)['\"]")
    hits = [f"{p}:{n}" for folder in ("egoeval", "verifiers", "media", "renderers", "tools")
            for p in (REPO / folder).rglob("*.py") for n, line in enumerate(p.read_text().splitlines(), 1)
            if pattern.search(line)]
    assert hits == []


def test_a_suite_that_fails_to_load_does_not_break_the_others(monkeypatch):
    from egoeval import suites

    class Broken:
        name = "broken"

        def load(self):
            raise ImportError("its package is half installed")

    monkeypatch.setattr(suites, "_ENTRY_POINTS", {"broken": Broken()})
    with pytest.warns(UserWarning, match="suite broken cannot be loaded"):
        assert suites.get_task("retail1/7").id == "egobench/retail1/7"
    with pytest.raises(ImportError):
        suites.get_suite("broken")  # asked for by name, its failure is the answer
