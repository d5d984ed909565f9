"""Scoring whole run files: pairing, invalid entries, categories, metrics (A1, A7)."""

import json

import pytest

from egoeval.metrics import file_summary, overall_summary
from egoeval.tasks import egobench as suite
from egoeval.suites import get_suite
from egoeval.verifiers.egobench import score_file as _score_file
from egoeval.verifiers.egobench import user_id_mismatch
from egoeval.verifiers.profiles import EGOBENCH, STRICT

from conftest import traj

EB = get_suite("egobench")


def score_file(stem, trajectories, profile, gt_tasks=None):
    """A file scored against its pinned ground truth (or ``gt_tasks``) in its context."""
    return _score_file(stem, trajectories, profile, gt_tasks or EB.raw_tasks(stem), EB.scoring_context(stem))

GT6 = suite.raw_tasks("retail6")


def oracle(i, task_id=None):
    return traj(*json.loads(json.dumps(GT6[i]["ground_truth"])), task_id=task_id or GT6[i]["task_id"])


def test_pairing_is_positional_and_verdicts_carry_the_gt_task_id():  # Q1
    # trajectory ids are wrong, but the evaluator pairs by position
    fs = score_file("retail6", [oracle(0, task_id=99), oracle(1, task_id=98)], EGOBENCH)
    assert [v.task_id for v in fs.verdicts] == [1, 2]
    assert all(v.joint_success for v in fs.verdicts)


def test_strict_pairs_by_task_id():
    fs = score_file("retail6", [oracle(1), oracle(0)], STRICT)
    assert all(v.joint_success for v in fs.verdicts[:2])
    faithful = score_file("retail6", [oracle(1), oracle(0)], EGOBENCH)
    assert not any(v.joint_success for v in faithful.verdicts[:2])


def test_unpaired_gt_tasks_are_invalid_and_extra_trajectories_ignored():
    fs = score_file("retail6", [oracle(0)], EGOBENCH)
    assert len(fs.verdicts) == 1 and len(fs.invalid) == len(GT6) - 1
    assert fs.invalid[0].reason == "Missing interaction data"
    many = score_file("retail6", [oracle(i) for i in range(len(GT6))] + [oracle(0)] * 3, EGOBENCH)
    assert len(many.verdicts) == len(GT6) and not many.invalid


def test_malformed_trajectories_get_verdicts_or_are_invalid_never_crash():
    bad = [
        {"task_id": 1},  # missing tool_calls: an empty list, valid
        {"task_id": 2, "tool_calls": "oops"},  # not a list: invalid
        "not an object",  # invalid
        {"task_id": 4, "tool_calls": [{"calls": [None, 5, "x"]}]},  # non-object calls: comparison failure
        {"task_id": 5, "tool_calls": [{"calls": [{"tool_name": "get_price", "parameters": "x"}]}, 7, None]},
        {"task_id": 6, "tool_calls": [{"calls": [{"tool_name": "nope", "parameters": {"qty": [1]}}]}]},
        {"task_id": 7, "tool_calls": [{"call": {"tool_name": "add_to_cart", "parameters": {"qty": None}}}]},
    ]
    fs = score_file("retail6", bad, EGOBENCH)
    by_id = {v.task_id: v for v in fs.verdicts}
    assert {i.task_id for i in fs.invalid} >= {2, 3}
    assert by_id[1].error_category == "syntax_error" and by_id[1].agent_calls == 0
    assert (by_id[4].matched_calls, by_id[4].gt_calls, by_id[4].agent_calls) == (0, 0, 0)
    assert by_id[4].agent_hash is None and by_id[4].error_category == "syntax_error"
    assert by_id[5].agent_calls == 1 and not by_id[5].joint_success
    assert by_id[6].agent_calls == 1 and by_id[7].agent_calls == 1  # old "call" format read
    assert all(not v.joint_success for v in fs.verdicts)


def test_a_gt_task_without_ground_truth_key_has_no_calls():
    gt = [{k: v for k, v in GT6[0].items() if k != "ground_truth"}, dict(GT6[1], ground_truth="bad")]
    fs = score_file("retail6", [traj(), traj()], EGOBENCH, gt_tasks=gt)
    assert [(v.task_id, v.gt_calls, v.tool_success) for v in fs.verdicts] == [(1, 0, False)]
    assert [(i.task_id, i.reason) for i in fs.invalid] == [(2, "ground_truth is not a list")]


def test_error_analysis_pairs_by_the_trajectory_task_id():
    # position 0 holds the oracle of task 2 but claims task 2; position 1 is empty and claims task 1
    fs = score_file("retail6", [oracle(1), {"task_id": 1, "tool_calls": []}], EGOBENCH)
    v1, v2 = fs.verdicts  # scored by position: GT1 vs oracle-2 calls, GT2 vs no calls
    assert not v1.joint_success and not v2.joint_success
    # the analysis classifies the empty trajectory (task_id 1) against task 1's verdict
    assert v1.error_category == "syntax_error"
    assert v2.error_category != "syntax_error"


def test_user_issue_flag_and_filtered_metrics():
    t = oracle(0)
    t["corrected_scores"] = {"role_consistency": 1, "resilience": 0}
    fs = score_file("retail6", [t, oracle(1)], EGOBENCH)
    assert [v.user_has_issue for v in fs.verdicts] == [True, False]
    summary = file_summary(fs.verdicts)
    assert summary["tasks"] == 2 and summary["filtered"]["tasks"] == 1 and summary["user_issue_tasks"] == 1


def test_strict_excludes_tasks_whose_gt_contradicts_the_user_id():  # Q14
    gt8 = suite.raw_tasks("retail8")
    assert user_id_mismatch(gt8[6 - 1]) and user_id_mismatch(gt8[0]) is None
    fs = score_file("retail8", [{"task_id": t["task_id"], "tool_calls": []} for t in gt8], STRICT)
    assert sum(1 for v in fs.verdicts if v.excluded) == 18
    assert file_summary(fs.verdicts)["tasks"] == len(gt8) - 18


def test_strict_drops_gt_calls_to_missing_tools():  # Q13
    gt4 = suite.raw_tasks("retail4")
    task8 = gt4[7]
    real = [c for c in task8["ground_truth"] if c["tool_name"] != "get_country_of_origin"]
    agent = {"task_id": 8, "tool_calls": [{"calls": real}]}
    trajs = [{"task_id": i + 1, "tool_calls": []} for i in range(7)] + [agent]
    faithful = score_file("retail4", trajs, EGOBENCH).verdicts[7]
    strict = score_file("retail4", trajs, STRICT).verdicts[7]
    assert faithful.gt_calls == len(task8["ground_truth"]) and not faithful.tool_success
    assert strict.gt_calls == len(real) and strict.tool_success


def _v(**kw):
    from egoeval.verifiers.verdict import Verdict

    base = dict(scenario="x", task_id=1, tool_success=True, result_success=True, joint_success=True,
                matched_calls=1, gt_calls=1, agent_calls=1, gt_hash=None, agent_hash=None)
    base.update(kw)
    return Verdict(**base)


def test_micro_acc_across_files_is_task_weighted_unless_pooled():  # Q17
    a = [_v(matched_calls=1, gt_calls=1)]  # one task, Micro 1.0
    b = [_v(matched_calls=0, gt_calls=9, tool_success=False, joint_success=False)] * 3  # three tasks, Micro 0
    files = {"a": file_summary(a), "b": file_summary(b)}
    weighted = overall_summary(files, a + b)
    pooled = overall_summary(files, a + b, pooled_micro=True)
    assert weighted["micro_acc"] == pytest.approx(0.25)  # (1.0 * 1 + 0.0 * 3) / 4
    assert pooled["micro_acc"] == pytest.approx(1 / 28)
    assert weighted["joint_success_rate"] == pytest.approx(0.25)
    assert weighted["avg_task_accuracy"] == pytest.approx(0.25)


def test_user_id_mismatches_are_the_33_known_tasks():
    found = [(f, t["task_id"]) for f in suite.FILES for t in suite.raw_tasks(f) if user_id_mismatch(t)]
    assert len(found) == 33
    assert ("restaurant4", 5) in found and ("retail1", 5) in found and ("retail9", 44) in found
    assert sum(1 for f, _ in found if f == "retail8") == 18


def test_first_release_records_name_tasks_by_task_id_only():
    record = score_file("retail6", [oracle(0)], EGOBENCH).verdicts[0].to_dict()
    assert record["task_id"] == 1 and "scenario_id" not in record and "profile_pairs_by" not in record
