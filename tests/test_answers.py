"""Communicated answers: facts derived from the ground truth, checked in the agent's words."""

import asyncio

import pytest

from egoeval.agents import NullAgent, OracleAgent
from egoeval.observation import ObservationConfig
from egoeval.runner import RunConfig, Runner
from egoeval.suites import get_task, load_tasks
from egoeval.users import ScriptedUser
from egoeval.verifiers.answers import Fact, check_answers, expected_facts, numbers_in


@pytest.mark.parametrize("task_id,expected", [
    # hand-checked against the seed data: retail1/1 asks for the cart's total calories
    ("egobench/retail1/1", [(766, "calories_kcal (compute_total_nutrition)")]),
    # kitchen1/1 asks for the total dietary fiber (its sugar condition is not a request)
    ("egobench/kitchen1/1", [(47.08, "fiber_g (compute_total_nutritions)")]),
    # restaurant1/1: the amount payable after discounts and the total tax
    ("egobench/restaurant1/1", [(394.33, "total (compute_total_payment)"), (41.52, "total_tax (compute_total_tax)")]),
    # order1/1: the total tax of the order
    ("egobench/order1/1", [(15.75, "total_tax (compute_total_tax)")]),
])
def test_expected_facts_per_scenario(task_id, expected):
    assert [(f.value, f.label) for f in expected_facts(get_task(task_id))] == expected


def test_every_task_that_asks_for_a_total_gets_a_fact():
    from egoeval.suites import get_suite

    ground_truth_results = get_suite("egobench").ground_truth_results
    untrusted = []
    for task in load_tasks("egobench"):
        if any(c["tool_name"].startswith("compute_total") for c in task.ground_truth):
            if expected_facts(task):
                continue
            untrusted.append(task.id)  # only where the ground truth's own total failed on the seed
            assert any(isinstance(v, dict) and v.get("status") == "partial_success"
                       for c, v, _ in ground_truth_results(task) if c["tool_name"].startswith("compute_total")), task.id
    assert untrusted == ["egobench/retail8/16"]


def test_numbers_in_any_format_and_tolerances():
    assert numbers_in("Total: $1,348.70 (tax 91.98), 3 items") == [1348.70, 91.98, 3.0]
    money = Fact("number", 394.33, "total", 0.01)
    assert check_answers([money], ["You pay $394.33 in total."])["passed"]
    assert not check_answers([money], ["You pay about $394."])["passed"]
    calories = Fact("number", 2693.9, "calories", 0.01, relative=True)
    assert check_answers([calories], ["Roughly 2,700 kcal."])["passed"]
    assert not check_answers([calories], ["Roughly 2,500 kcal."])["passed"]
    taste = Fact("name", "high_calcium", "nutritional_characteristics")
    result = check_answers([taste, money], ["These recipes are High Calcium."])
    assert result["stated"] == 1 and result["missing"][0]["value"] == 394.33


def test_answers_in_run_verdicts_are_apart_from_joint_success(tmp_path):
    task = [t for t in load_tasks("demo") if expected_facts(t)][:1]
    assert task, "a demo task asks for a value"
    for agent, ok in ((OracleAgent, True), (NullAgent, False)):
        runner = Runner(RunConfig(observation=ObservationConfig(no_video=True)), task, agent,
                        lambda: ScriptedUser("easy"), tmp_path / agent.name)
        [outcome] = asyncio.run(runner.run())
        assert outcome.verdict["answers"]["passed"] is ok
        assert outcome.verdict["joint_success"] is ok


def test_score_and_report_carry_the_answers_component(shared, tmp_path):
    """Recorded runs: every verdict of a task that asks for a value has its answers
    checked against the real dialogue; score and report count them alike, apart from Joint."""
    from egoeval.report import build, render
    from egoeval.scoring import score_paths

    folder = str(shared / "trajectories")
    report = score_paths([folder], "egobench")
    asked = [v for v in report.verdicts if v.answers and v.answers["expected"]]
    assert asked and all(v.answers["stated"] + len(v.answers["missing"]) == v.answers["expected"] for v in asked)
    # the component is independent of joint success: both disagreements occur in real runs
    assert any(v.joint_success and not v.answers["passed"] for v in asked)
    assert any(v.answers["passed"] and not v.joint_success for v in asked)
    overall = report.overall
    assert overall["answers_tasks"] == len(asked)
    assert overall["answers_passed"] == sum(v.answers["passed"] for v in asked)
    [model] = build([folder], "egobench")["models"].values()
    assert model["overall"]["Answers"] == round(100 * overall["answers_rate"], 2)
    assert model["overall"]["answers_tasks"] == len(asked)
    assert "| Answers |" in render(build([folder], "egobench"), "md")


def test_a_trajectory_that_states_the_total_passes_and_one_that_does_not_fails():
    from egoeval.suites import suite_of

    task = get_task("egobench/order1/1")
    said = lambda text: {"task_id": 1, "dialogue": [{"role": "user", "content": "hi"},  # noqa: E731
                                                    {"role": "agent", "content": text}], "tool_calls": []}
    ok = suite_of(task.id).score_episode(task.id, said("The total tax on your order is $15.75."), suite_of(task.id).profile("egobench"))
    assert ok.verdicts[0].answers["passed"] and not ok.verdicts[0].joint_success
    bad = suite_of(task.id).score_episode(task.id, said("The total tax on your order is $15.57."), suite_of(task.id).profile("egobench"))
    assert not bad.verdicts[0].answers["passed"]
    assert bad.verdicts[0].answers["missing"][0]["label"] == "total_tax (compute_total_tax)"


def test_a_malformed_dialogue_is_scored_not_fatal(shared, tmp_path):
    import json

    from egoeval.scoring import score_paths

    data = json.loads((shared / "trajectories" / "order2_easy.json").read_text())
    data[0]["dialogue"] = 5
    data[1]["dialogue"] = [None, 3, {"role": "agent", "content": 7}]
    (tmp_path / "order2_easy.json").write_text(json.dumps(data))
    report = score_paths([str(tmp_path / "order2_easy.json")], "egobench")
    assert len(report.verdicts) == len(data)
    assert report.verdicts[0].answers["stated"] == 0
