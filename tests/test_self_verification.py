"""Self-verification kinds and failure categories of artifact episodes, and the artifact
suite played by the runner (oracle: verified and passing; null: never made the file)."""

import asyncio
import json
import shutil

import pytest

from egoeval.agents import AgentTurn, NullAgent, OracleAgent, ToolCall
from egoeval.observation import ObservationConfig
from egoeval.runner import RunConfig, Runner
from egoeval.scoring import score_paths
from egoeval.suites import load_tasks
from egoeval.users import ScriptedUser
from egoeval.verifiers.self_verification import failure_category, self_verification

F = "deck.pptx"


def entry(*steps):
    """tool_calls entries from (tool, file, wrote, failed) steps."""
    calls, results = [], []
    for tool, file_name, wrote, failed in steps:
        calls.append({"tool_name": tool, "parameters": {"file_name": file_name} if file_name else {}})
        content = {"error": "bad"} if failed else {"ok": 1}
        results.append({"content": json.dumps(content), **({"artifacts": [file_name]} if wrote else {})})
    return [{"turn": 0, "calls": calls, "results": results}]


@pytest.mark.parametrize("steps,kind", [
    ([("create_presentation", F, True, False), ("render_to_image", F, False, False)], "verified"),
    ([("create_presentation", F, True, False), ("render_to_image", F, False, False),
      ("add_text", F, True, False)], "incomplete"),
    ([("create_presentation", F, True, False), ("read_file", F, False, False)], "pseudo"),
    ([("create_presentation", F, True, False), ("render_to_image", F, False, True)], "none"),
    ([("create_presentation", F, True, False), ("render_to_image", "other.pptx", False, False)], "none"),
])
def test_self_verification_kinds(steps, kind):
    assert self_verification(entry(*steps), F) == kind


def crit(cid, ctype, passed=False, evidence=""):
    return {"id": cid, "type": ctype, "passed": passed, "evidence": evidence}


def test_failure_categories_in_order():
    made = entry(("create_presentation", F, True, False))
    assert failure_category({"passed": True}, made, F, []) is None
    assert failure_category({"passed": False, "criteria": [crit("f", "file_exists")]}, [], F, []) == "tool_choice"
    bad_args = entry(("create_presentation", F, True, False), ("add_text", F, False, True))
    assert failure_category({"passed": False, "criteria": [crit("t", "font_size")]}, bad_args, F, []) == \
        "tool_parameters"
    assert failure_category({"passed": False, "criteria": [crit("p", "picture")]}, made, F, []) == "multimodal"
    item = crit("i", "text_present", evidence="'Mouton Cadet' is not on the rendered page(s)")
    assert failure_category({"passed": False, "criteria": [item]}, made, F, ["Mouton Cadet"]) == "multimodal"
    size = {"passed": False, "criteria": [crit("t", "font_size")]}
    assert failure_category(size, made, F, []) == "self_verification_none"
    looked = entry(("create_presentation", F, True, False), ("render_to_image", F, False, False))
    assert failure_category(size, looked, F, []) == "artifact_quality"


pytestmark_lo = pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")


def play(tmp_path, agent, pattern):
    tasks = load_tasks("artifacts", pattern=pattern)
    runner = Runner(RunConfig(suite="artifacts", observation=ObservationConfig(frames=2)), tasks, agent,
                    lambda: ScriptedUser("easy"), tmp_path)
    return runner, asyncio.run(runner.run())


@pytestmark_lo
def test_the_runner_plays_artifact_tasks_and_score_re_judges_the_kept_files(tmp_path):
    runner, outcomes = play(tmp_path / "oracle", OracleAgent, "artifacts/kitchen/4,artifacts/retail/1")
    assert all(o.verdict["joint_success"] and o.verdict["self_verification"] == "verified" for o in outcomes), \
        [(o.task, o.reason, o.error, o.verdict) for o in outcomes]
    rescored = score_paths([str(runner.log_path)], "egobench")
    assert sorted(v["joint_success"] for v in rescored.artifacts) == [True, True]
    _, [null] = play(tmp_path / "null", NullAgent, "artifacts/retail/1")
    assert null.verdict["joint_success"] is False and null.verdict["error_category"] == "tool_choice"
    assert null.verdict["self_verification"] == "none"


@pytestmark_lo
def test_an_agent_that_never_looks_is_marked(tmp_path):
    class Blind:
        name = "blind"

        async def start(self, ctx):
            from egoeval.tasks.artifacts import solution_calls

            self.calls = [ToolCall(c["tool_name"], c["parameters"]) for c in
                          solution_calls(ctx.task, ctx.task.extra["broken"][0]["calls"])]  # small title

        async def act(self, messages, tools):
            if self.calls:
                calls, self.calls = self.calls, []
                return AgentTurn(tool_calls=calls)
            return AgentTurn(message="Done.")

    _, [outcome] = play(tmp_path, Blind, "artifacts/kitchen/4")
    assert outcome.verdict["joint_success"] is False
    assert outcome.verdict["self_verification"] == "none"
    assert outcome.verdict["error_category"] == "self_verification_none", outcome.verdict["criteria"]
