"""Result check: replays, final-state hashes, explanations (SCORING.md A5, A6) and the
quirks Q2, Q9-Q12 with their strict fixes."""

from egoeval.suites import get_suite
from egoeval.verifiers.result import check_result, final_state, state_diff
from egoeval.verifiers.profiles import EGOBENCH, STRICT

from conftest import call

RETAIL = get_suite("egobench").scoring_context("retail1")
KITCHEN = get_suite("egobench").scoring_context("kitchen1")
ORDER = get_suite("egobench").scoring_context("order1")
RESTAURANT = get_suite("egobench").scoring_context("restaurant1")
SEED_RETAIL1 = "d26104f389c157a7fe7d8340f649b9a3940f2ac8c6c7fca7eb6027e75723568a"


def add(name="Souda Red Wine", qty=1, user="alice", **over):
    params = dict(user_id=user, product_name=name, qty=qty, category="wine", price=45, tax_rate=0.11, discount=0.9)
    params.update(over)
    return call("add_to_cart", **params)


def test_read_calls_and_failing_calls_leave_the_seed_hash():
    calls = [call("get_price", product_name="wine"), call("no_such_tool"), add(qty=0), add(qty="2"),
             {"tool_name": "add_to_cart"}]
    assert final_state(calls, RETAIL, EGOBENCH).hash == SEED_RETAIL1


def test_same_final_state_by_another_route_is_a_result_success():
    gt = [add(qty=2)]
    agent = [add(qty=1), add(qty=1), call("get_cart", user_id="alice")]
    res = check_result(gt, agent, RETAIL, EGOBENCH)
    assert res.success and res.gt_hash == res.agent_hash and res.diff == []


def test_diff_names_the_cart_line_and_the_quantities():
    res = check_result([add(qty=1), add("Zonin Chianti")], [add(qty=2)], RETAIL, EGOBENCH)
    assert not res.success and res.gt_hash != res.agent_hash
    assert "cart of user alice: 'souda red wine' quantity 2, expected 1" in res.diff
    assert any(line.startswith("cart of user alice: missing 'zonin chianti'") for line in res.diff)


def test_diff_reports_a_store_created_by_a_read():
    res = check_result([], [call("get_dish_price", restaurant_name="annie", dish_name="x")], ORDER, EGOBENCH)
    assert not res.success
    assert res.diff == ["restaurants: unexpected 'annie'"]


def test_extra_arguments_are_dropped_in_replay_but_fail_live():  # Q2
    agent = [call("add_dish_to_order", user_id="customer_001", dish_name="Margherita", quantity=1, note="no basil")]
    gt = [call("add_dish_to_order", user_id="customer_001", dish_name="Margherita", quantity=1)]
    assert check_result(gt, agent, RESTAURANT, EGOBENCH).success
    assert not check_result(gt, agent, RESTAURANT, STRICT).success


def test_a_call_that_is_not_an_object_fails_the_replay_with_null_hashes():
    res = check_result([], [add(), "add_to_cart"], RETAIL, EGOBENCH)
    assert not res.success and res.gt_hash is None and res.agent_hash is None and "replay failed" in res.error


def test_order_reads_create_stores_unless_strict():  # Q9
    read = [call("get_dish_price", restaurant_name="annie italian restaurant", dish_name="margherita")]
    assert not check_result([], read, ORDER, EGOBENCH).success
    assert check_result([], read, ORDER, STRICT).success
    # a write with an unknown name still creates the store in strict
    write = [call("add_dish_to_order", restaurant_name="Nowhere", user_id="c1", dish_name="x", quantity=1)]
    assert not check_result([], write, ORDER, STRICT).success


def test_float_noise_fails_faithfully_and_passes_strict():  # Q10
    gt = [add(qty=0.3)]
    agent = [add(qty=0.1), add(qty=0.2)]
    assert not check_result(gt, agent, RETAIL, EGOBENCH).success
    assert check_result(gt, agent, RETAIL, STRICT).success


def test_empty_and_absent_user_entries_differ_unless_strict():  # Q11
    # restaurant: removing the only line keeps an empty order; clearing keeps it too
    gt = []
    agent = [call("add_dish_to_order", user_id="newbie", dish_name="Margherita", quantity=1),
             call("remove_dish_from_order", user_id="newbie", dish_name="Margherita", quantity=1)]
    assert not check_result(gt, agent, RESTAURANT, EGOBENCH).success
    assert check_result(gt, agent, RESTAURANT, STRICT).success


def test_kitchen_menu_order_matters_unless_strict():  # Q12
    gt = [call("add_recipe_to_menu", user_id="new_cook", recipe_name="Tofu Soup"),
          call("add_recipe_to_menu", user_id="new_cook", recipe_name="Lamb & Potato Stew")]
    agent = list(reversed(gt))
    faithful = check_result(gt, agent, KITCHEN, EGOBENCH)
    assert not faithful.success
    assert faithful.diff[0].startswith("menu of user new_cook: same items in another order")
    assert check_result(gt, agent, KITCHEN, STRICT).success


def test_state_diff_limits_its_output():
    exp = {"user_orders": {f"u{i}": [{"dish_name": "a", "quantity": 1}] for i in range(80)}}
    out = state_diff(exp, {"user_orders": {}}, limit=10)
    assert len(out) == 11 and out[-1] == "... and 70 more differences"


# --- members that are not documented tools (Q15) -------------------------------------------

def test_constructor_called_by_name_wipes_the_state_in_replay():
    wiped = final_state([call("__init__", junk=1)], RETAIL, EGOBENCH)
    assert wiped.env.snapshot() == {"catalog": {}, "user_carts": {}, "user_shopping_lists": {}}
    assert final_state([call("__init__")], RETAIL, STRICT).hash == final_state([], RETAIL, STRICT).hash


def test_init_from_json_replaces_only_the_sections_it_is_given():
    env = final_state([call("init_from_json", data={"user_carts": []})], RETAIL, EGOBENCH).env
    assert env.user_carts == {} and len(env.products) == 64
    # a malformed section is cleared first, then loading fails part-way
    env = final_state([call("init_from_json", data={"user_shopping_lists": [{"user_id": "a"}, 5]})],
                      RETAIL, EGOBENCH).env
    assert list(env.user_shopping_lists) == ["a"]
    # not an object: nothing changes
    assert final_state([call("init_from_json", data=[1, 2])], RETAIL, EGOBENCH).hash == SEED_RETAIL1
    # kitchen and order wipe everything first
    assert final_state([call("init_from_json", data={})], KITCHEN, EGOBENCH).env.snapshot()["recipes"] == {}
    assert final_state([call("init_from_json", data=None)], ORDER, EGOBENCH).env.restaurants == {}


def test_a_malformed_seed_element_keeps_what_was_loaded_before_it():
    """Entries are filled in place, element by element, as the reference loader does."""
    good = {"product_name": "Souda Red Wine", "quantity": 2}
    env = final_state([call("init_from_json", data={"user_carts": [{"user_id": "u", "items": [good, 7]}]})],
                      RETAIL, EGOBENCH).env
    assert list(env.user_carts["u"]) == ["souda red wine"]
    env = final_state([call("init_from_json", data={"user_shopping_lists": [
        {"user_id": "u", "items": [{"ingredient_name": "Egg", "quantity": 1}, None]}]})], KITCHEN, EGOBENCH).env
    assert list(env.user_shopping_lists["u"]) == ["egg"]
    env = final_state([call("init_from_json", data={"user_orders": [
        {"user_id": "u", "items": [{"dish_name": "Mortadella"}, "x"]}]})], RESTAURANT, EGOBENCH).env
    assert list(env.store.user_orders["u"]) == ["mortadella"]
    env = final_state([call("init_from_json", data={"dishes": [
        {"restaurant_name": "R", "name": "A"}, {"restaurant_name": "S", "name": 5}]})], ORDER, EGOBENCH).env
    assert list(env.restaurants) == ["R", "S"] and list(env.restaurants["R"].catalog) == ["a"]


def test_order_helpers_create_stores_like_the_tools_do():
    for helper in ("_get_store", "_find_matching_dishes"):
        params = {"restaurant_name": "Nowhere", "query": "x"} if helper != "_get_store" else {"restaurant_name": "Nowhere"}
        env = final_state([call(helper, **params)], ORDER, EGOBENCH).env
        assert "Nowhere" in env.restaurants
    env = final_state([call("_find_matching_products", query=5)], RETAIL, EGOBENCH).env
    assert env.state_hash() == SEED_RETAIL1


def test_a_store_named_null_beside_named_stores_cannot_be_hashed():
    res = check_result([], [call("get_dish_price", restaurant_name=None, dish_name="x")], ORDER, EGOBENCH)
    assert not res.success and res.gt_hash is None and res.agent_hash is None
