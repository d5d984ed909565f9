"""The error taxonomy cascade (SCORING.md A8) and its rates."""

import pytest

from egoeval.suites import get_suite
from egoeval.taxonomy import classify, error_rates, has_syntax_error

from conftest import call, traj

GT = {"task_id": 1, "Instruction": "You are a shopper (User ID: alice). Buy wine.", "key": "product_name",
      "value": ["Souda Red Wine"]}


def cat(trajectory, gt=GT, scenario="retail", variant=1, tool=False, result=False, matched=0, gt_calls=2, **kw):
    """Classify in the scoring context EgoBench gives file ``<scenario><variant>``."""
    ctx = get_suite("egobench").scoring_context(f"{scenario}{variant}")
    return classify(gt, trajectory, tool_success=tool, result_success=result, matched_calls=matched,
                    gt_calls=gt_calls, query_tools=ctx.query_tools, expected_restaurant=ctx.expected_restaurant, **kw)


def seen_wine(**extra):
    return call("get_price", product_name="souda red wine", **extra)


def test_correct_needs_both_checks():
    assert cat(traj(seen_wine()), tool=True, result=True, matched=2) == "correct"


@pytest.mark.parametrize("tool_calls", [
    [], ["x"], [{"calls": "x"}], [{"calls": ["x"]}], [{"calls": [{"parameters": {}}]}],
    [{"calls": [{"tool_name": "get_price"}]}], [{"call": "x"}], [{"call": {"name": "x"}}], [{"turn": 0}],
])
def test_syntax_errors(tool_calls):
    assert has_syntax_error(tool_calls)
    assert cat({"task_id": 1, "tool_calls": tool_calls}) == "syntax_error"


def test_well_formed_calls_are_not_syntax_errors():
    assert not has_syntax_error([{"calls": [{"name": "x", "parameters": {}}]}, {"call": {"tool_name": "y", "parameters": 1}}])


def test_multimodal_when_an_expected_entity_was_never_queried():
    assert cat(traj(call("get_price", product_name="Riumi Moscato"))) == "multimodal_error"
    # recognised by word overlap, containment, or equality
    assert cat(traj(call("get_price", product_name="red"))) == "logic_error"
    # only query tools count: add_to_cart does not recognise
    assert cat(traj(call("add_to_cart", product_name="Souda Red Wine"))) == "multimodal_error"


def test_order_restaurant_name_of_the_last_call_must_match_exactly():  # Q18
    gt = {"task_id": 1, "Instruction": "", "key": "", "value": []}
    t = traj(call("get_dish_price", restaurant_name="Annie Italian Restaurant", dish_name="x"),
             call("get_dish_price", restaurant_name="annie italian restaurant", dish_name="x"))
    assert cat(t, gt, scenario="order", variant=1) == "multimodal_error"
    assert cat(t, gt, scenario="order", variant=1, case_insensitive_restaurant=True) == "logic_error"
    assert cat(t, gt, scenario="order", variant=2, case_insensitive_restaurant=True) == "multimodal_error"


def test_hallucination_when_a_call_uses_another_user_id():  # Q14 consequence
    assert cat(traj(seen_wine(), call("get_cart", user_id="bob"))) == "hallucination_error"
    assert cat(traj(seen_wine(), call("get_cart", user_id="alice"))) == "logic_error"


def test_instructions_phrased_otherwise_never_trigger_hallucination():
    gt = dict(GT, Instruction="Your user ID is alice.")
    assert cat(traj(seen_wine(), call("get_cart", user_id="bob")), gt) == "logic_error"


@pytest.mark.parametrize("matched,gt_calls,category", [(0, 2, "logic_error"), (1, 2, "memory_error"),
                                                        (2, 2, "over_operation_error"), (0, 0, "unknown")])
def test_by_missing_calls(matched, gt_calls, category):
    assert cat(traj(seen_wine()), matched=matched, gt_calls=gt_calls, result=gt_calls == 0) == category


def test_strict_folds_unknown_into_over_operation():  # Q16
    assert cat(traj(seen_wine()), matched=0, gt_calls=0, result=True, fold_unknown=True) == "over_operation_error"


def test_rates_use_successive_denominators():
    rates = error_rates({"correct": 259, "logic_error": 31, "memory_error": 10, "multimodal_error": 6,
                         "over_operation_error": 3})
    assert rates["multimodal_error_rate"] == 6 / 309
    assert rates["logic_reasoning_error_rate"] == 31 / 303
    assert rates["memory_common_sense_error_rate"] == 10 / 272
    assert rates["over_operation_error_rate"] == 3 / 262
    assert rates["denominators"]["no_multimodal_error"] == 303
    assert error_rates({})["syntax_error_rate"] == 0.0
