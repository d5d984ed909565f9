"""The artifact suite: 12 tasks, references pass, broken solutions fail exactly as intended."""

import json
import shutil

import pytest

from egoeval.cli import main
from egoeval.suites import load_tasks
from egoeval.tasks.artifacts import build, raw_tasks

pytestmark = pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")


def test_shipped_tasks_are_what_the_builder_makes():
    assert raw_tasks() == json.loads(json.dumps(build.build()))


def test_twelve_tasks_three_per_scenario_grounded_in_demo_clips():
    tasks = load_tasks("artifacts")
    assert len(tasks) == 12
    assert sorted({t.scenario for t in tasks}) == ["kitchen", "order", "restaurant", "retail"]
    assert all(sum(t.scenario == s for t in tasks) == 3 for s in ("retail", "kitchen", "restaurant", "order"))
    assert all(t.extra["demo_task"].startswith("demo/") and len(t.extra["broken"]) >= 2 for t in tasks)
    kinds = {c["type"] for t in tasks for c in t.extra["criteria"]["criteria"]}
    assert {"formula", "picture", "font_size", "heading_sequence", "no_overlap", "nothing_off_page"} <= kinds


def test_validate_artifacts(capsys):
    assert main(["validate", "--suite", "artifacts", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tasks"] == 12 and report["oracle_pass"] == 12
    assert report["broken"] >= 24 and report["broken_failed_as_intended"] == report["broken"]
    assert report["failures"] == [] and report["ok"] is True
