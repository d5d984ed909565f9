"""Process check: signature filtering, parameter comparison, greedy call matching
(SCORING.md A3, A4) and the quirks Q4-Q8, Q13, Q15 with their strict fixes."""

import pytest

from egoeval.suites import get_suite
from egoeval.verifiers.process import Comparator, ComparisonError, assign, check_calls, prepare
from egoeval.verifiers.profiles import EGOBENCH, STRICT

from conftest import call

RETAIL = get_suite("egobench").scoring_context("retail1")
KITCHEN = get_suite("egobench").scoring_context("kitchen1")
ORDER = get_suite("egobench").scoring_context("order1")
RESTAURANT = get_suite("egobench").scoring_context("restaurant1")


def eq(g, a, ctx=RETAIL, profile=EGOBENCH, key=None):
    return Comparator(ctx, profile).equal(g, a, key)


def cart_call(name="Souda Red Wine", **over):
    params = dict(user_id="u1", product_name=name, qty=1, category="wine", price=45, tax_rate=0.11, discount=0.9)
    params.update(over)
    return call("add_to_cart", **params)


# --- A3 signature filtering --------------------------------------------------------------

def test_parameters_the_implementation_does_not_take_are_dropped_before_matching():
    gt = call("add_dish_to_order", restaurant_name="Annie Italian Restaurant", user_id="c1",
              dish_name="Margherita", quantity=1, category="Pizza", price=12, tax_rate=0.1, discount=1)
    agent = call("add_dish_to_order", restaurant_name="Annie Italian Restaurant", user_id="c1",
                 dish_name="Margherita", quantity=1)
    assert check_calls([gt], [agent], ORDER, EGOBENCH).matched == 1


def test_add_product_keeps_name_and_drops_the_schema_product_name():
    p = prepare(call("add_product", product_name="X", name="Y", category="wine"), 0, RETAIL, EGOBENCH)
    assert p.params == {"name": "Y", "category": "wine"}


def test_unknown_tool_keeps_its_parameters_unfiltered():
    p = prepare(call("get_discount ", product_name="X", extra=1), 0, RETAIL, EGOBENCH)
    assert p.params == {"product_name": "X", "extra": 1}


def test_internal_helper_is_a_member_in_egobench_but_not_in_strict():  # Q15
    assert prepare(call("init_from_json", data={}, junk=1), 0, RETAIL, EGOBENCH).params == {"data": {}}
    assert prepare(call("init_from_json", data={}, junk=1), 0, RETAIL, STRICT).params == {"data": {}, "junk": 1}


# --- A4 parameter comparison -------------------------------------------------------------

@pytest.mark.parametrize("g,a", [(2, "2"), (2, 2.0), (1, True), (0, False), ("1e3", 1000), (" 7 ", 7), ("1_0", 10)])
def test_numbers_and_numeric_strings_compare_as_doubles(g, a):  # Q7
    assert eq(g, a)


@pytest.mark.parametrize("g,a", [("nan", float("nan")), ("two", 2), (None, "x"), ([1], {"a": 1}), ("1", None)])
def test_other_type_differences_are_unequal(g, a):
    assert not eq(g, a)


def test_lists_are_unordered_but_lengths_must_match():
    assert eq([1, 2, 3], [3, 1, 2])
    assert not eq([1, 2], [1, 2, 2])


def test_objects_need_the_same_keys():
    assert not eq({"a": 1}, {"a": 1, "b": 2})
    assert eq({"a": 1, "b": "x"}, {"b": "x", "a": "1"})


def test_non_fuzzy_strings_are_case_sensitive_category_included():  # Q6
    assert not eq({"category": "wine"}, {"category": "Wine"})
    assert eq({"category": "wine"}, {"category": "Wine"}, profile=STRICT)
    assert not eq({"user_id": "u1"}, {"user_id": "U1"}, profile=STRICT)


def test_fuzzy_key_strings_in_lists_compare_trimmed_and_lower_cased():
    assert eq({"recipes": ["Tofu Soup", "Lamb & Potato Stew"]}, {"recipes": [" lamb & potato stew", "TOFU SOUP "]},
              ctx=KITCHEN)
    assert not eq({"recipes": ["Tofu Soup"]}, {"recipes": ["Tofu"]}, ctx=KITCHEN)


# --- the fuzzy name test ---------------------------------------------------------------------

@pytest.mark.parametrize("agent", ["souda red wine", "Red Wine", "Souda Red Wine 750ml", "wine", ""])
def test_catalog_test_accepts_overlapping_names(agent):  # Q5
    assert eq({"product_name": "Souda Red Wine"}, {"product_name": agent})


def test_catalog_test_rejects_a_different_entry():
    assert not eq({"product_name": "Souda Red Wine"}, {"product_name": "Riumi Moscato"})


def test_strict_names_must_denote_the_same_entry():  # Q5 fixed
    assert eq({"product_name": "Souda Red Wine"}, {"product_name": " souda red wine "}, profile=STRICT)
    assert not eq({"product_name": "Souda Red Wine"}, {"product_name": "wine"}, profile=STRICT)
    assert not eq({"product_name": "Souda Red Wine"}, {"product_name": ""}, profile=STRICT)


def test_containment_fallback_when_no_catalog_entry_matches():
    # restaurant_name never matches a dish: plain containment decides
    assert eq({"restaurant_name": "Annie Italian Restaurant"}, {"restaurant_name": "annie"}, ctx=ORDER)
    assert not eq({"restaurant_name": "Annie Italian Restaurant"}, {"restaurant_name": "Greek"}, ctx=ORDER)
    assert not eq({"restaurant_name": "Annie Italian Restaurant"}, {"restaurant_name": ""}, ctx=ORDER)


def test_kitchen_names_compare_trimmed_and_lower_cased_without_catalog():
    assert eq({"recipe_name": "Tofu Soup"}, {"recipe_name": " tofu soup"}, ctx=KITCHEN)
    assert not eq({"recipe_name": "Tofu Soup"}, {"recipe_name": "Tofu"}, ctx=KITCHEN)


@pytest.mark.parametrize("value", [None, 0, False, [], {}])
def test_empty_non_strings_under_a_fuzzy_key_just_fail(value):
    assert not eq({"product_name": "Souda Red Wine"}, {"product_name": value})


@pytest.mark.parametrize("value", [5, ["Souda"], {"x": 1}, True])
def test_other_non_strings_under_a_fuzzy_key_break_the_comparison(value):  # Q8 trigger
    with pytest.raises(ComparisonError):
        eq({"product_name": "Souda Red Wine"}, {"product_name": value})


def test_any_non_string_breaks_the_kitchen_comparison():
    with pytest.raises(ComparisonError):
        eq({"recipe_name": "Tofu Soup"}, {"recipe_name": None}, ctx=KITCHEN)


# --- matching ------------------------------------------------------------------------------------

def test_first_fit_matching_can_lose_a_pair_that_maximum_matching_keeps():  # Q4
    # GT 1 accepts both agent items, GT 2 only the first: first-fit gives 1, maximum 2.
    gts = [{"product_name": "red wine"}, {"product_name": "souda red wine"}]
    agents = [{"product_name": "souda red wine"}, {"product_name": "red wine blend xyz"}]
    cmp = Comparator(RETAIL, EGOBENCH)
    strict_pairs = assign(gts, agents, lambda g, a: cmp.equal(g, a), maximum=True)
    first_fit = assign(gts, agents, lambda g, a: cmp.equal(g, a), maximum=False)
    assert first_fit == [0, None] and None not in strict_pairs


def test_each_agent_call_matches_one_gt_call_only():
    gt = [cart_call(), cart_call()]
    assert check_calls(gt, [cart_call()], RETAIL, EGOBENCH).matched == 1
    result = check_calls(gt, [cart_call(), cart_call(), cart_call()], RETAIL, EGOBENCH)
    assert (result.matched, result.gt_calls, result.agent_calls) == (2, 2, 3)


def test_tool_names_are_compared_exactly():
    result = check_calls([call("get_price", product_name="Souda Red Wine")],
                         [call("Get_Price", product_name="Souda Red Wine"), call("get_price ", product_name="x")],
                         RETAIL, EGOBENCH)
    assert result.matched == 0 and result.missing == [0]


def test_name_is_used_when_tool_name_is_missing_or_empty():
    agent = {"tool_name": "", "name": "get_price", "parameters": {"product_name": "souda"}}
    assert check_calls([call("get_price", product_name="Souda Red Wine")], [agent], RETAIL, EGOBENCH).matched == 1


def test_arguments_key_is_ignored_by_the_faithful_scorer_and_accepted_by_strict():  # Q3
    gt = [call("get_price", product_name="Souda Red Wine")]
    agent = [{"tool_name": "get_price", "arguments": {"product_name": "Souda Red Wine"}}]
    assert check_calls(gt, agent, RETAIL, EGOBENCH).matched == 0
    assert check_calls(gt, agent, RETAIL, STRICT).matched == 1


@pytest.mark.parametrize("bad", [{"parameters": {}}, {"tool_name": 7, "parameters": {}}, "get_price", None])
def test_a_call_without_identifier_or_not_an_object_zeroes_the_task(bad):  # Q8
    gt = [call("get_price", product_name="Souda Red Wine")]
    agent = [call("get_price", product_name="Souda Red Wine"), bad]
    result = check_calls(gt, agent, RETAIL, EGOBENCH)
    assert (result.matched, result.gt_calls, result.agent_calls) == (0, 0, 0)
    assert result.error
    strict = check_calls(gt, agent, RETAIL, STRICT)
    assert (strict.matched, strict.gt_calls, strict.agent_calls) == (1, 1, 2)


def test_non_string_fuzzy_value_zeroes_the_task_only_when_compared():
    gt = [cart_call()]
    broken = cart_call(name=42)
    assert check_calls(gt, [broken], RETAIL, EGOBENCH).gt_calls == 0
    # once the GT call is matched, later calls are not compared, so nothing breaks
    assert check_calls(gt, [cart_call(), broken], RETAIL, EGOBENCH).matched == 1


def test_gt_calls_to_missing_tools_count_unless_strict_drops_them():  # Q13
    gt = [call("get_taste", product_name="Souda Red Wine"), call("get_price", product_name="Souda Red Wine")]
    agent = [call("get_price", product_name="Souda Red Wine")]
    assert check_calls(gt, agent, RETAIL, EGOBENCH).gt_calls == 2
    # the same missing tool called by the agent matches it (that is how the oracle passes)
    assert check_calls(gt, gt, RETAIL, EGOBENCH).matched == 2
