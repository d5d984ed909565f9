"""Order environment (TOOLS.md sections 1, 2, 5, 6, 7 and 8), tested against the spec.

Expected values are worked out by hand from the seed file
(tasks/egobench/data/databases/order_init_data.json) or from the small seed built here.
"""

import json

import pytest

from egoeval.tasks import egobench as suite
from egoeval.tools.egobench import OrderEnv
from egoeval.tools.registry import ToolRegistry

A = "Annie Italian Restaurant"
G = "Mediterranean Greek Restaurant"
SEVEN = ["calories_kcal", "protein_g", "fat_g", "carbs_g", "sugar_g", "sodium_mg", "fiber_g"]
COMPUTE = {"compute_total_payment", "compute_total_tax", "compute_total_nutrition"}
EMPTY_STORE = {"catalog": {}, "set_meals": {}, "user_orders": {}}

#: a small multi-restaurant seed with the loader's corner cases
SMALL = {
    "dishes": [
        {"restaurant_name": "Cafe", "name": "Espresso", "category": "Coffee", "price": 3, "tax_rate": 0.2,
         "discount": 0.5, "nutritional_characteristics": ["Low_Calories"], "taste": ["Bitter"],
         "nutrition": {"basis": "PER_SERVING", "calories_kcal": 5}},
        {"restaurant_name": "Cafe", "name": "Croissant", "category": "Bakery", "price": 4, "tax_rate": 0.1,
         "allergens": ["Gluten"], "nutrition": {"basis": "PER_100G", "calories_kcal": 400, "fat_g": 21}},
        {"restaurant_name": "cafe", "name": "Tea", "price": 2},  # a different store: names are case-sensitive
        {"restaurant_name": "Bistro", "name": "Espresso", "price": 5},
        {"name": "Orphan Dish", "price": 1},  # no restaurant: skipped
    ],
    "set_meals": [
        {"restaurant_name": "Cafe", "name": "Breakfast", "set_meal_discount": 0.8,
         "included_dishes": [{"dish_name": "ESPRESSO", "quantity": 2}, {"dish_name": "Tea", "quantity": 1},
                             {"dish_name": "croissant"}]},
        {"name": "Homeless Set", "included_dishes": []},  # no restaurant: skipped
    ],
    "user_orders": [
        {"user_id": "u1", "restaurant_name": "Cafe",
         "items": [{"dish_name": "Espresso", "quantity": 2}, {"dish_name": "Mystery", "quantity": 1},
                   {"dish_name": "BREAKFAST"}]},
        # no restaurant: inferred from the first item found in some catalog ("tea" is only in "cafe")
        {"user_id": "u2", "items": [{"dish_name": "nothing"}, {"dish_name": "Tea", "quantity": 4}]},
        # no item in any catalog: the first restaurant
        {"user_id": "u3", "items": [{"dish_name": "zzz", "quantity": 1}]},
        {"restaurant_name": "Cafe", "items": [{"dish_name": "espresso", "quantity": 1}]},  # no user id: skipped
    ],
}

REG = ToolRegistry()


@pytest.fixture
def env():
    return OrderEnv.from_seed(suite.seed("order_init_data"))


@pytest.fixture
def small():
    return OrderEnv.from_seed(SMALL)


def lines(env, restaurant, user):
    return env.get_user_order_summary(restaurant_name=restaurant, user_id=user)["items"]


def seed_stores(env):
    snap = env.snapshot()["restaurants"]
    return {name: snap[name] for name in (A, G)}


# --- the tool set, dispatch and schemas (1, 6.3, 7) ---------------------------------------------

def test_the_27_schema_tools_are_exactly_the_order_tools():
    names = {e.get("function", e)["tool_name"] for e in suite.tool_schemas("order")}
    assert len(names) == 27
    assert set(OrderEnv.tools) == names


def test_every_tool_takes_restaurant_name_first():
    for name in OrderEnv.tools:
        assert OrderEnv.members[name][0] == "restaurant_name", name


def test_schema_names_differ_from_implementation_only_for_the_catalog_tools():
    differing = {}
    for entry in suite.tool_schemas("order"):
        fn = entry.get("function", entry)
        props = set(fn["parameters"]["properties"])
        impl = set(OrderEnv.members[fn["tool_name"]])
        if props != impl:
            differing[fn["tool_name"]] = (props - impl, impl - props)
    assert differing == {t: ({"dish_name"}, {"name"}) for t in (
        "add_dish_to_catalog", "remove_dish_from_catalog", "update_dish_price", "update_dish_discount")}


def test_schema_parameter_name_fails_before_any_store_is_created(env):
    before = env.snapshot()
    result = REG.execute(env, {"tool_name": "update_dish_price", "parameters": {
        "restaurant_name": "New Place", "dish_name": "Margherita", "new_price": 1}})
    assert result.error == "tool_error" and "dish_name" in json.loads(result.content)["error"]
    with pytest.raises(TypeError):  # missing argument: the call never starts, no store either
        env.invoke("add_dish_to_order", {"restaurant_name": "Other Place", "user_id": "u", "dish_name": "x"})
    assert env.snapshot() == before


def test_internal_helpers_are_callable_by_name(env):
    found = env.invoke("_find_matching_dishes", {"restaurant_name": G, "query": "Octopus"})
    assert [d["name"] for d in found] == ["grilled octopus", "octopus spaghetti"]
    found = env.invoke("_find_matching_set_meals", {"restaurant_name": A, "query": "lovers"})
    assert [m["name"] for m in found] == ["steak lovers set"]


def test_registry_logs_normalised_results(env):
    r = REG.execute(env, {"tool_name": "get_set_meal_details", "parameters": {
        "restaurant_name": G, "set_meal_name": "Mediterranean Feast Set"}})
    assert r.error is None
    content = json.loads(r.content)
    # 158*0.8 + 148*0.7 + 58*0.9 + 48*0.7 = 315.79999999999995 unrounded; the log rounds to 10 places
    assert content["price"] == 315.8 and content["discount"] == 0.85


# --- seed loading (6.1) ---------------------------------------------------------------------------

def test_order_seed_contents(env):
    assert list(env.restaurants) == [A, G]
    assert len(env.restaurants[A].catalog) == 86 and len(env.restaurants[G].catalog) == 31
    assert list(env.restaurants[G].set_meals) == ["seafood lover's set", "pasta lovers set", "greek classic set",
                                                  "dessert pairing set", "mediterranean feast set"]
    assert len(env.restaurants[A].set_meals) == 5
    users = [f"customer_{i:03d}" for i in range(1, 11)]
    assert sorted(env.restaurants[A].user_orders) == users and sorted(env.restaurants[G].user_orders) == users
    assert lines(env, G, "customer_001") == [
        {"dish_name": "greek lamb chops", "quantity": 1}, {"dish_name": "moussaka", "quantity": 2},
        {"dish_name": "spanakopita", "quantity": 1}, {"dish_name": "greek salad", "quantity": 1},
        {"dish_name": "dessert pairing set", "quantity": 2}]


def test_same_dish_name_has_independent_values_per_restaurant(env):
    assert env.restaurants[A].catalog["margherita"]["tax_rate"] == 0.09
    assert env.get_dish_price(restaurant_name=A, dish_name="Margherita") == {"status": "success", "matching_dishes": {
        "buffalo mozzarella margherita pizza": 59, "margherita": 38}}


def test_small_seed_stores_are_case_sensitive_and_skip_nameless_entries(small):
    assert list(small.restaurants) == ["Cafe", "cafe", "Bistro"]
    assert list(small.restaurants["Cafe"].catalog) == ["espresso", "croissant"]
    assert list(small.restaurants["cafe"].catalog) == ["tea"]
    assert small.restaurants["Bistro"].catalog["espresso"]["price"] == 5
    assert all("orphan dish" not in s.catalog and "homeless set" not in s.set_meals
               for s in small.restaurants.values())


def test_seed_dish_fields_follow_the_restaurant_layout(small):
    assert small.restaurants["Cafe"].catalog["croissant"] == {
        "name": "croissant", "category": "bakery", "price": 4, "tax_rate": 0.1, "discount": 1.0,
        "nutritional_characteristics": [], "taste": [], "allergens": ["gluten"],
        "nutrition": {"basis": "PER_100G", "serving_size_g": None, "calories_kcal": 400, "protein_g": None,
                      "fat_g": 21, "carbs_g": None, "sugar_g": None, "sodium_mg": None, "fiber_g": None}}
    tea = small.restaurants["cafe"].catalog["tea"]
    assert (tea["category"], tea["tax_rate"], tea["discount"]) == (" ", 0.0, 1.0)


def test_seed_set_meal_keeps_only_dishes_of_its_own_restaurant(small):
    assert small.restaurants["Cafe"].set_meals == {"breakfast": {
        "name": "breakfast", "included_dishes": [{"dish_name": "espresso", "quantity": 2},
                                                 {"dish_name": "croissant", "quantity": 1.0}],
        "set_meal_price": 0.0, "set_meal_discount": 0.8}}


def test_seed_order_lines_are_kept_even_when_unknown(small):
    assert small.restaurants["Cafe"].user_orders["u1"] == {
        "espresso": {"dish_name": "espresso", "quantity": 2},
        "mystery": {"dish_name": "mystery", "quantity": 1},
        "breakfast": {"dish_name": "breakfast", "quantity": 1.0}}


def test_seed_order_without_restaurant_is_inferred(small):
    assert small.restaurants["cafe"].user_orders == {"u2": {
        "nothing": {"dish_name": "nothing", "quantity": 1.0}, "tea": {"dish_name": "tea", "quantity": 4}}}
    assert small.restaurants["Cafe"].user_orders["u3"] == {"zzz": {"dish_name": "zzz", "quantity": 1}}
    assert set(small.restaurants["Cafe"].user_orders) == {"u1", "u3"}
    assert small.restaurants["Bistro"].user_orders == {}


def test_seed_order_inference_looks_at_catalogs_not_set_meals():
    env = OrderEnv.from_seed({
        "dishes": [{"restaurant_name": "R1", "name": "X"}, {"restaurant_name": "R2", "name": "Y"}],
        "set_meals": [{"restaurant_name": "R2", "name": "Combo", "included_dishes": [{"dish_name": "y"}]}],
        "user_orders": [{"user_id": "a", "items": [{"dish_name": "combo", "quantity": 1}]},
                        {"user_id": "b", "items": [{"dish_name": "Combo"}, {"dish_name": "Y", "quantity": 2}]}]})
    assert env.restaurants["R1"].user_orders == {"a": {"combo": {"dish_name": "combo", "quantity": 1}}}
    assert env.restaurants["R2"].user_orders == {"b": {"combo": {"dish_name": "combo", "quantity": 1.0},
                                                       "y": {"dish_name": "y", "quantity": 2}}}


def test_later_seed_entries_replace_earlier_ones_per_restaurant():
    env = OrderEnv.from_seed({
        "dishes": [{"restaurant_name": "R", "name": "Soup", "price": 5}, {"restaurant_name": "R", "name": "Bread"},
                   {"restaurant_name": "R", "name": "SOUP", "price": 7}, {"restaurant_name": "S", "name": "Soup"}],
        "user_orders": [{"user_id": "u", "restaurant_name": "R", "items": [{"dish_name": "soup", "quantity": 1}]},
                        {"user_id": "u", "restaurant_name": "R", "items": [{"dish_name": "bread", "quantity": 2}]},
                        {"user_id": "u", "restaurant_name": "S", "items": [{"dish_name": "soup", "quantity": 3}]}]})
    assert list(env.restaurants["R"].catalog) == ["soup", "bread"]
    assert env.restaurants["R"].catalog["soup"]["price"] == 7
    assert env.restaurants["S"].catalog["soup"]["price"] == 0.0
    assert env.restaurants["R"].user_orders == {"u": {"bread": {"dish_name": "bread", "quantity": 2}}}
    assert env.restaurants["S"].user_orders == {"u": {"soup": {"dish_name": "soup", "quantity": 3}}}


def test_snapshot_layout(small):
    snap = small.snapshot()
    assert list(snap) == ["restaurants"]
    assert set(snap["restaurants"]) == {"Cafe", "cafe", "Bistro"}
    cafe = snap["restaurants"]["Cafe"]
    assert set(cafe) == {"catalog", "set_meals", "user_orders"}
    assert cafe["user_orders"]["u1"] == [  # sorted by dish_name
        {"dish_name": "breakfast", "quantity": 1.0}, {"dish_name": "espresso", "quantity": 2},
        {"dish_name": "mystery", "quantity": 1}]


# --- store creation on every non-compute tool (6.2) ---------------------------------------------

CREATING_CALLS = {
    "get_dish_nutrition": ({"dish_name": "Margherita"},
                           {"status": "error", "message": "No dishes found containing 'Margherita'."}),
    "get_tax_rate": ({"dish_name": "Margherita"},
                     {"status": "error", "message": "No dishes found containing 'Margherita'."}),
    "get_dish_allergens": ({"dish_name": "Margherita"},
                           {"status": "error", "message": "No dishes found containing 'Margherita'."}),
    "get_dish_taste_profile": ({"dish_name": "Margherita"},
                               {"status": "error", "message": "No dishes found containing 'Margherita'."}),
    "get_dish_price": ({"dish_name": "Margherita"},
                       {"status": "error", "message": "No dishes found containing 'Margherita'."}),
    "get_dish_discount": ({"dish_name": ""},
                          {"status": "error", "message": "No dishes found containing ''."}),
    "find_dishes_by_category": ({"category": "Pizza"}, {"dishes": []}),
    "find_dishes_by_nutritional_tag": ({"tag": "high_protein"}, {"dishes": []}),
    "find_dishes_by_taste": ({"taste": "savory"}, {"dishes": []}),
    "filter_dishes_by_price_range": ({"min_price": 0, "max_price": 1000}, {"dishes": []}),
    "list_all_discounted_dishes": ({}, {"discounted_dishes": []}),
    "get_set_meal_details": ({"set_meal_name": "Italian Classic Set"},
                             {"status": "error", "message": "Set meal 'Italian Classic Set' not found."}),
    "find_set_meals_containing_dish": ({"dish_name": "margherita"}, {"set_meals": []}),
    "get_user_order_summary": ({"user_id": "customer_001"},
                               {"user_id": "customer_001", "items": [], "total_items": 0}),
    "add_dish_to_order": ({"user_id": "customer_001", "dish_name": "Margherita", "quantity": 1},
                          {"status": "error", "message": "Dish 'Margherita' does not exist in catalog."}),
    "remove_dish_from_order": ({"user_id": "customer_001", "dish_name": "Margherita", "quantity": 1},
                               {"status": "error",
                                "message": "Dish 'Margherita' not found in order for user customer_001."}),
    "clear_user_order": ({"user_id": "customer_001"},
                         {"status": "success", "message": "Order cleared for user customer_001."}),
    "add_set_meal_to_order": ({"user_id": "customer_001", "set_meal_name": "Italian Classic Set", "quantity": 1},
                              {"status": "error", "message": "Set meal 'Italian Classic Set' does not exist."}),
    "remove_set_meal_from_order": (
        {"user_id": "customer_001", "set_meal_name": "Italian Classic Set", "quantity": 1},
        {"status": "error", "message": "Set meal 'Italian Classic Set' not found in order for user customer_001."}),
    "remove_dish_from_catalog": ({"name": "Margherita"},
                                 {"status": "error", "message": "Dish 'Margherita' not found in catalog."}),
    "update_dish_price": ({"name": "Margherita", "new_price": 1},
                          {"status": "error", "message": "Dish 'Margherita' not found in catalog."}),
    "update_dish_discount": ({"name": "Margherita", "new_discount": 0.5},
                             {"status": "error", "message": "Dish 'Margherita' not found in catalog."}),
    "create_set_meal": ({"set_meal_name": "S", "included_dishes": [{"dish_name": "Margherita", "quantity": 1}],
                         "set_meal_price": 0, "set_meal_discount": 1},
                        {"status": "error", "message": "Dish 'Margherita' not found in catalog."}),
}


def test_creating_calls_cover_every_tool_but_compute_and_add_dish_to_catalog():
    assert set(CREATING_CALLS) == set(OrderEnv.tools) - COMPUTE - {"add_dish_to_catalog"}


@pytest.mark.parametrize("tool", sorted(CREATING_CALLS))
def test_unknown_restaurant_name_creates_an_empty_store(env, tool):
    params, expected = CREATING_CALLS[tool]
    seeded, hash_before = seed_stores(env), env.state_hash()
    assert env.invoke(tool, {"restaurant_name": "annie italian restaurant", **params}) == expected
    assert list(env.restaurants) == [A, G, "annie italian restaurant"]
    assert env.snapshot()["restaurants"]["annie italian restaurant"] == EMPTY_STORE
    assert seed_stores(env) == seeded
    assert env.state_hash() != hash_before


def test_add_dish_to_catalog_on_an_unknown_restaurant_creates_it_with_the_dish(env):
    result = env.add_dish_to_catalog(restaurant_name="Sushi Bar", name="Maki", category="Rolls", price=9,
                                     tax_rate=0.1, discount=1.0, nutritional_characteristics=[], taste=["Umami"],
                                     allergens=["Fish"], nutrition={"basis": "PER_SERVING"})
    assert result == {"status": "success", "message": "Dish 'Maki' added/updated successfully."}
    assert list(env.restaurants) == [A, G, "Sushi Bar"]
    assert list(env.restaurants["Sushi Bar"].catalog) == ["maki"]
    assert env.get_dish_taste_profile(restaurant_name="Sushi Bar", dish_name="maki") == {
        "status": "success", "matching_dishes": {"maki": ["umami"]}}


def test_store_is_created_even_when_the_call_then_fails(env):
    assert env.add_dish_to_catalog(restaurant_name="Broken", name="X", category="c", price=1, tax_rate=0,
                                   discount=1, nutritional_characteristics=[], taste=[], allergens=[],
                                   nutrition={"kcal": 1})["status"] == "error"
    assert env.snapshot()["restaurants"]["Broken"] == EMPTY_STORE
    with pytest.raises(AttributeError):  # a failing lookup (None.lower()) after the store was fetched
        env.find_dishes_by_category(restaurant_name="Raising", category=None)
    assert env.snapshot()["restaurants"]["Raising"] == EMPTY_STORE


def test_restaurant_names_are_not_trimmed_or_case_folded(env):
    for name in ("Annie Italian Restaurant ", "ANNIE ITALIAN RESTAURANT", "Annie"):
        assert env.get_dish_price(restaurant_name=name, dish_name="Margherita")["status"] == "error"
    assert list(env.restaurants) == [A, G, "Annie Italian Restaurant ", "ANNIE ITALIAN RESTAURANT", "Annie"]


def test_reads_on_known_restaurants_change_nothing(env):
    before = env.state_hash()
    env.get_dish_price(restaurant_name=A, dish_name="Margherita")
    env.list_all_discounted_dishes(restaurant_name=G)
    env.get_user_order_summary(restaurant_name=G, user_id="nobody")
    assert env.state_hash() == before and list(env.restaurants) == [A, G]


# --- compute tools: lookup without creation (6.2) ------------------------------------------------

def test_compute_tools_never_create_stores_and_return_zeros(env):
    before = env.snapshot()
    dishes = [{"dish_name": "Margherita", "quantity": 2}]
    assert env.compute_total_payment(restaurant_name="Pizza Hut", user_id="u", dishes=dishes) == {
        "restaurant_name": "Pizza Hut", "user_id": "u", "total_payment": 0.0}
    assert env.compute_total_tax(restaurant_name="Pizza Hut", user_id="u", dishes=dishes) == {
        "restaurant_name": "Pizza Hut", "user_id": "u", "total_tax": 0.0}
    assert env.compute_total_nutrition(restaurant_name="Pizza Hut", user_id="u", dishes=dishes) == {
        "restaurant_name": "Pizza Hut", "user_id": "u", "total_nutrition": dict.fromkeys(SEVEN, 0.0)}
    assert env.snapshot() == before


def test_compute_tools_match_restaurant_case_insensitively(env):
    dishes = [{"dish_name": "Margherita", "quantity": 2}]
    before = env.snapshot()
    result = env.compute_total_payment(restaurant_name="annie ITALIAN restaurant", user_id="c", dishes=dishes)
    assert result == {"restaurant_name": "annie ITALIAN restaurant", "user_id": "c", "total_payment": 60.8}
    assert list(result) == ["restaurant_name", "user_id", "total_payment"]
    assert env.snapshot() == before
    # but not with other spacing
    assert env.compute_total_payment(restaurant_name="Annie Italian Restaurant ", user_id="c",
                                     dishes=dishes)["total_payment"] == 0.0


def test_compute_tools_prefer_exact_name_then_first_case_insensitive_match(env):
    env.get_dish_price(restaurant_name="annie italian restaurant", dish_name="x")  # creates an empty store
    dishes = [{"dish_name": "margherita", "quantity": 1}]
    assert env.compute_total_payment(restaurant_name="annie italian restaurant", user_id="c",
                                     dishes=dishes)["total_payment"] == 0.0  # the exact (empty) store
    assert env.compute_total_payment(restaurant_name="ANNIE Italian Restaurant", user_id="c",
                                     dishes=dishes)["total_payment"] == 30.4  # first match: the seeded store


def test_compute_tools_with_empty_dishes(env):
    assert env.compute_total_payment(restaurant_name=A, user_id="c", dishes=[]) == {
        "restaurant_name": A, "user_id": "c", "total_payment": 0.0}
    assert env.compute_total_tax(restaurant_name=A, user_id="c", dishes=[]) == {
        "restaurant_name": A, "user_id": "c", "total_tax": 0.0}
    result = env.compute_total_nutrition(restaurant_name=A, user_id="c", dishes=[])
    assert result == {"restaurant_name": A, "user_id": "c", "total_nutrition": dict.fromkeys(SEVEN, 0.0)}
    assert list(result["total_nutrition"]) == SEVEN


# --- compute formulas (5.2, 6.3, 2.4) --------------------------------------------------------------

def test_compute_total_payment_dishes_and_set_meals(env):
    result = env.compute_total_payment(restaurant_name=A, user_id="customer_001", dishes=[
        {"dish_name": "Margherita", "quantity": 2}, {"dish_name": "Italian Classic Set", "quantity": 1}])
    # 38*0.8*2 + (38*0.8 + 48*1.0 + 35*0.9)*0.9*1
    assert result == {"restaurant_name": A, "user_id": "customer_001", "total_payment": 159.71}


def test_compute_total_payment_uses_only_the_given_store(env):
    dishes = [{"dish_name": "moussaka", "quantity": 1}, {"dish_name": "margherita", "quantity": 1}]
    assert env.compute_total_payment(restaurant_name=G, user_id="c", dishes=dishes)["total_payment"] == 78.4
    assert env.compute_total_payment(restaurant_name=A, user_id="c", dishes=dishes)["total_payment"] == 30.4


def test_compute_skips_non_positive_and_missing_quantities(small):
    dishes = [{"dish_name": "espresso", "quantity": 2}, {"dish_name": "croissant", "quantity": 0},
              {"dish_name": "Croissant", "quantity": -3}, {"dish_name": "croissant"},
              {"quantity": 5}, {"dish_name": "Mystery", "quantity": 1}]
    assert small.compute_total_payment(restaurant_name="Cafe", user_id="u", dishes=dishes)["total_payment"] == 3.0
    assert small.compute_total_tax(restaurant_name="Cafe", user_id="u", dishes=dishes)["total_tax"] == 0.5
    assert small.compute_total_nutrition(restaurant_name="Cafe", user_id="u", dishes=dishes)[
        "total_nutrition"] == {**dict.fromkeys(SEVEN, 0.0), "calories_kcal": 10.0}


def test_compute_item_without_dish_name_looks_up_a_single_space(small):
    small.add_dish_to_catalog(restaurant_name="Cafe", name=" ", category="x", price=7, tax_rate=0, discount=1.0,
                              nutritional_characteristics=[], taste=[], allergens=[], nutrition={"basis": None})
    assert small.compute_total_payment(restaurant_name="Cafe", user_id="u", dishes=[{"quantity": 2}])[
        "total_payment"] == 14.0


def test_compute_true_quantity_counts_as_one(small):
    assert small.compute_total_payment(restaurant_name="Cafe", user_id="u", dishes=[
        {"dish_name": "croissant", "quantity": True}, {"dish_name": "espresso", "quantity": False}])[
        "total_payment"] == 4.0


def test_compute_string_quantity_fails(small):
    with pytest.raises(TypeError):  # 2.3: "2" <= 0 compares a string with a number
        small.compute_total_payment(restaurant_name="Cafe", user_id="u",
                                    dishes=[{"dish_name": "espresso", "quantity": "2"}])


def test_compute_total_payment_set_meal_rules(small):
    # no set price: (3*0.5*2 + 4*1.0*1.0) * 0.8 * 1
    assert small.compute_total_payment(restaurant_name="Cafe", user_id="u", dishes=[
        {"dish_name": "BREAKFAST", "quantity": 1}])["total_payment"] == 5.6
    small.create_set_meal(restaurant_name="Cafe", set_meal_name="Fixed", set_meal_price=10, set_meal_discount=0.75,
                          included_dishes=[{"dish_name": "croissant", "quantity": 5}])
    # a positive set price wins: 10 * 0.75 * 3
    assert small.compute_total_payment(restaurant_name="Cafe", user_id="u", dishes=[
        {"dish_name": "fixed", "quantity": 3}])["total_payment"] == 22.5


def test_compute_total_tax_dish_formula(env):
    # ((38*0.09)/1.09)*0.8*2 = 5.0201...
    assert env.compute_total_tax(restaurant_name=A, user_id="c", dishes=[
        {"dish_name": "margherita", "quantity": 2}]) == {"restaurant_name": A, "user_id": "c", "total_tax": 5.02}
    # ((98*0.15)/1.15)*0.8*3 = 30.678...
    assert env.compute_total_tax(restaurant_name=G, user_id="c", dishes=[
        {"dish_name": "Moussaka", "quantity": 3}])["total_tax"] == 30.68


def test_compute_total_tax_set_meal_ignores_set_discount_and_price(env, small):
    # seafood lover's set: the four dishes' tax (each with its own discount); the set's 0.9 is ignored
    assert env.compute_total_tax(restaurant_name=G, user_id="c", dishes=[
        {"dish_name": "seafood lover's set", "quantity": 1}])["total_tax"] == 46.61
    # breakfast: 3*0.2/1.2*0.5*2 + 4*0.1/1.1*1.0*1.0 = 0.8636...
    assert small.compute_total_tax(restaurant_name="Cafe", user_id="u", dishes=[
        {"dish_name": "breakfast", "quantity": 1}])["total_tax"] == 0.86
    small.create_set_meal(restaurant_name="Cafe", set_meal_name="Fixed", set_meal_price=100, set_meal_discount=0.1,
                          included_dishes=[{"dish_name": "Espresso", "quantity": 3}])
    # 3*0.2/1.2*0.5*3*2
    assert small.compute_total_tax(restaurant_name="Cafe", user_id="u", dishes=[
        {"dish_name": "fixed", "quantity": 2}])["total_tax"] == 1.5


def test_compute_total_nutrition_dishes(env):
    result = env.compute_total_nutrition(restaurant_name=G, user_id="c", dishes=[
        {"dish_name": "moussaka", "quantity": 2}, {"dish_name": "GREEK SALAD", "quantity": 1}])
    assert result == {"restaurant_name": G, "user_id": "c", "total_nutrition": {
        "calories_kcal": 1220.0, "protein_g": 39.0, "fat_g": 62.0, "carbs_g": 125.0, "sugar_g": 21.0,
        "sodium_mg": 1900.0, "fiber_g": 10.0}}
    assert list(result) == ["restaurant_name", "user_id", "total_nutrition"]
    assert list(result["total_nutrition"]) == SEVEN


def test_compute_total_nutrition_per_100g(env, small):
    # comte is PER_100G: 150 -> 1.5 units
    assert env.compute_total_nutrition(restaurant_name=A, user_id="c", dishes=[
        {"dish_name": "comte", "quantity": 150}])["total_nutrition"] == {
        "calories_kcal": 600.0, "protein_g": 37.5, "fat_g": 48.0, "carbs_g": 0.0, "sugar_g": 0.0,
        "sodium_mg": 975.0, "fiber_g": 0.0}
    # breakfast: espresso (per serving) 2*1, croissant (PER_100G) 1.0*1/100
    assert small.compute_total_nutrition(restaurant_name="Cafe", user_id="u", dishes=[
        {"dish_name": "breakfast", "quantity": 1}])["total_nutrition"] == {
        **dict.fromkeys(SEVEN, 0.0), "calories_kcal": 14.0, "fat_g": 0.21}


def test_compute_rounding_is_round2_on_binary_double(small):
    small.add_dish_to_catalog(restaurant_name="Cafe", name="Odd", category="x", price=2.675, tax_rate=0,
                              discount=1.0, nutritional_characteristics=[], taste=[], allergens=[],
                              nutrition={"basis": "PER_SERVING", "protein_g": 1.005})
    assert small.compute_total_payment(restaurant_name="Cafe", user_id="u", dishes=[
        {"dish_name": "odd", "quantity": 1}])["total_payment"] == 2.67
    assert small.compute_total_nutrition(restaurant_name="Cafe", user_id="u", dishes=[
        {"dish_name": "odd", "quantity": 1}])["total_nutrition"]["protein_g"] == 1.0  # 1.005 is 1.00499...


def test_compute_tools_are_read_only(env):
    before = env.snapshot()
    for tool in sorted(COMPUTE):
        env.invoke(tool, {"restaurant_name": G, "user_id": "fresh", "dishes": [{"dish_name": "baklava",
                                                                                 "quantity": 1}]})
    assert env.snapshot() == before


# --- per-dish queries and finders -------------------------------------------------------------------

def test_per_dish_queries_are_per_restaurant(env):
    assert env.get_dish_price(restaurant_name=G, dish_name="Spaghetti") == {"status": "success", "matching_dishes": {
        "feta & tomato spaghetti": 68, "octopus spaghetti": 88, "spaghetti bolognese": 88}}
    assert env.get_dish_price(restaurant_name=A, dish_name="Spaghetti") == {
        "status": "error", "message": "No dishes found containing 'Spaghetti'."}


def test_get_tax_rate_and_discount(env):
    assert env.get_tax_rate(restaurant_name=G, dish_name="BAKLAVA") == {
        "status": "success", "matching_dishes": {"baklava": 0.13}}
    assert env.get_dish_discount(restaurant_name=G, dish_name="pita bread") == {
        "status": "success", "matching_dishes": {"pita bread": 1.0}}


def test_get_dish_allergens_and_taste(env):
    assert env.get_dish_allergens(restaurant_name=G, dish_name="Baklava") == {
        "status": "success", "matching_dishes": {"baklava": ["nuts", "gluten"]}}
    assert env.get_dish_taste_profile(restaurant_name=G, dish_name="Greek") == {
        "status": "success", "matching_dishes": {
            "greek village roast chicken leg": ["savory"], "greek lamb chops": ["savory"],
            "greek yogurt with honey & nuts": ["sweet"], "greek salad": ["sour", "mild"],
            "greek lemon potatoes": ["sour", "salty"]}}


def test_get_dish_nutrition(env):
    assert env.get_dish_nutrition(restaurant_name=G, dish_name="baklava") == {
        "status": "success", "matching_dishes": {"baklava": {
            "basis": "PER_SERVING", "serving_size_g": 120, "calories_kcal": 480, "protein_g": 6, "fat_g": 28,
            "carbs_g": 55, "sugar_g": 35, "sodium_mg": 150, "fiber_g": 2}}}


def test_finders(env):
    assert env.find_dishes_by_category(restaurant_name=G, category="DESSERTS") == {"dishes": [
        "greek yogurt with honey & nuts", "vanilla pudding", "baklava", "loukoumades"]}
    assert env.find_dishes_by_nutritional_tag(restaurant_name=G, tag="Vegan") == {"dishes": [
        "greek salad", "falafel wrap", "dolmades", "greek lemon potatoes", "pita bread", "hummus dip",
        "lentil soup", "stuffed bell peppers", "melitzanosalata"]}
    assert env.find_dishes_by_nutritional_tag(restaurant_name=A, tag="vegan") == {"dishes": []}
    assert env.find_dishes_by_taste(restaurant_name=G, taste="Sweet") == {"dishes": [
        "mediterranean grilled prawns", "greek yogurt with honey & nuts", "vanilla pudding", "baklava",
        "stuffed bell peppers", "loukoumades"]}


def test_filter_dishes_by_price_range(env):
    assert env.filter_dishes_by_price_range(restaurant_name=G, min_price=150, max_price=198) == {"dishes": [
        "greek lamb chops", "grilled octopus", "mediterranean grilled prawns", "mediterranean seafood stew"]}
    assert env.filter_dishes_by_price_range(restaurant_name=G, min_price=200, max_price=100) == {"dishes": []}


def test_list_all_discounted_dishes(env, small):
    discounted = env.list_all_discounted_dishes(restaurant_name=G)["discounted_dishes"]
    assert len(discounted) == 30 and "pita bread" not in discounted and discounted[0] == "greek village roast chicken leg"
    assert small.list_all_discounted_dishes(restaurant_name="Cafe") == {"discounted_dishes": ["espresso"]}


def test_get_set_meal_details(env):
    assert env.get_set_meal_details(restaurant_name=G, set_meal_name="dessert PAIRING set") == {
        "name": "dessert pairing set", "included_dishes": [
            {"dish_name": "greek yogurt with honey & nuts", "quantity": 1},
            {"dish_name": "vanilla pudding", "quantity": 1}],
        "price": 58 * 0.7 * 1 + 58 * 0.9 * 1, "discount": 0.95}
    assert env.get_set_meal_details(restaurant_name=A, set_meal_name="Dessert Pairing Set") == {
        "status": "error", "message": "Set meal 'Dessert Pairing Set' not found."}


def test_find_set_meals_containing_dish(env):
    assert env.find_set_meals_containing_dish(restaurant_name=G, dish_name="Spanakopita") == {
        "set_meals": ["mediterranean feast set"]}
    assert env.find_set_meals_containing_dish(restaurant_name=A, dish_name="Spanakopita") == {"set_meals": []}


# --- orders (shared order table per store) ----------------------------------------------------------

def test_get_user_order_summary_is_per_restaurant(env):
    assert env.get_user_order_summary(restaurant_name=A, user_id="customer_002") == {
        "user_id": "customer_002", "items": [
            {"dish_name": "australian selected ribeye", "quantity": 1},
            {"dish_name": "grilled chicken salad", "quantity": 2}, {"dish_name": "focaccia", "quantity": 1}],
        "total_items": 3}
    assert env.get_user_order_summary(restaurant_name=G, user_id="customer_002")["total_items"] == 4


def test_add_dish_to_order(env):
    assert env.add_dish_to_order(restaurant_name=G, user_id="customer_002", dish_name="Baklava", quantity=2) == {
        "status": "success", "message": "Added 2 x Baklava to order for user customer_002."}
    assert lines(env, G, "customer_002")[-1] == {"dish_name": "baklava", "quantity": 2}
    env.add_dish_to_order(restaurant_name=G, user_id="customer_002", dish_name="GRILLED OCTOPUS", quantity=1)
    assert lines(env, G, "customer_002")[0] == {"dish_name": "grilled octopus", "quantity": 3}
    assert len(lines(env, A, "customer_002")) == 3  # the other restaurant is untouched


def test_add_dish_to_order_checks_the_store_catalog_only(env):
    before = env.snapshot()
    assert env.add_dish_to_order(restaurant_name=A, user_id="u", dish_name="Baklava", quantity=1) == {
        "status": "error", "message": "Dish 'Baklava' does not exist in catalog."}
    assert env.add_dish_to_order(restaurant_name=G, user_id="u", dish_name="Greek Classic Set", quantity=1) == {
        "status": "error", "message": "Dish 'Greek Classic Set' does not exist in catalog."}
    assert env.snapshot() == before


def test_add_dish_to_order_new_user_and_string_quantity(env):
    env.add_dish_to_order(restaurant_name=G, user_id="new", dish_name="pita bread", quantity="2")
    assert env.snapshot()["restaurants"][G]["user_orders"]["new"] == [{"dish_name": "pita bread", "quantity": "2"}]
    assert "new" not in env.restaurants[A].user_orders
    with pytest.raises(TypeError):
        env.add_dish_to_order(restaurant_name=G, user_id="new", dish_name="pita bread", quantity=1)


def test_unknown_seed_lines_can_be_removed_but_not_added(small):
    assert small.add_dish_to_order(restaurant_name="Cafe", user_id="u1", dish_name="Mystery", quantity=1)[
        "status"] == "error"
    assert small.remove_dish_from_order(restaurant_name="Cafe", user_id="u1", dish_name="MYSTERY", quantity=1) == {
        "status": "success", "message": "Removed  from order for user u1."}
    assert [l["dish_name"] for l in lines(small, "Cafe", "u1")] == ["espresso", "breakfast"]


def test_remove_dish_from_order(env):
    assert env.remove_dish_from_order(restaurant_name=G, user_id="customer_001", dish_name="Moussaka",
                                      quantity=1) == {
        "status": "success", "message": "Removed  from order for user customer_001."}
    assert lines(env, G, "customer_001")[1] == {"dish_name": "moussaka", "quantity": 1}
    assert env.remove_dish_from_order(restaurant_name=G, user_id="customer_001", dish_name="moussaka",
                                      quantity=4) == {
        "status": "success",
        "message": "Removed entire item (requested more than available) from order for user customer_001."}
    assert "moussaka" not in [l["dish_name"] for l in lines(env, G, "customer_001")]
    # set-meal lines go through this tool too
    env.remove_dish_from_order(restaurant_name=G, user_id="customer_001", dish_name="Dessert Pairing Set", quantity=2)
    assert [l["dish_name"] for l in lines(env, G, "customer_001")] == ["greek lamb chops", "spanakopita",
                                                                        "greek salad"]


def test_remove_dish_from_order_keeps_empty_user_and_reports_missing(small):
    assert small.remove_dish_from_order(restaurant_name="Cafe", user_id="u3", dish_name="zzz", quantity=1)[
        "message"] == "Removed  from order for user u3."
    assert small.snapshot()["restaurants"]["Cafe"]["user_orders"]["u3"] == []
    assert small.remove_dish_from_order(restaurant_name="Cafe", user_id="u3", dish_name="zzz", quantity=1) == {
        "status": "error", "message": "Dish 'zzz' not found in order for user u3."}
    # u2's order is in "cafe", not in "Cafe"
    assert small.remove_dish_from_order(restaurant_name="Cafe", user_id="u2", dish_name="tea", quantity=1)[
        "status"] == "error"


def test_clear_user_order(env):
    assert env.clear_user_order(restaurant_name=G, user_id="customer_005") == {
        "status": "success", "message": "Order cleared for user customer_005."}
    snap = env.snapshot()["restaurants"]
    assert snap[G]["user_orders"]["customer_005"] == []
    assert len(snap[A]["user_orders"]["customer_005"]) == 5
    before = env.snapshot()
    assert env.clear_user_order(restaurant_name=G, user_id="nobody")["status"] == "success"
    assert env.snapshot() == before  # no user entry is created


def test_add_set_meal_to_order(env):
    assert env.add_set_meal_to_order(restaurant_name=G, user_id="customer_001", set_meal_name="DESSERT pairing Set",
                                     quantity=1) == {
        "status": "success", "message": "Added 1 x DESSERT pairing Set set meal to order for user customer_001."}
    assert lines(env, G, "customer_001")[-1] == {"dish_name": "dessert pairing set", "quantity": 3}
    assert env.add_set_meal_to_order(restaurant_name=A, user_id="customer_001", set_meal_name="Dessert Pairing Set",
                                     quantity=1) == {
        "status": "error", "message": "Set meal 'Dessert Pairing Set' does not exist."}
    assert env.add_set_meal_to_order(restaurant_name=G, user_id="customer_001", set_meal_name="moussaka",
                                     quantity=1)["status"] == "error"


def test_remove_set_meal_from_order(env):
    assert env.remove_set_meal_from_order(restaurant_name=G, user_id="customer_001",
                                          set_meal_name="Dessert Pairing Set", quantity=1) == {
        "status": "success",
        "message": "Removed 1 x Dessert Pairing Set set meal from order for user customer_001."}
    assert lines(env, G, "customer_001")[-1] == {"dish_name": "dessert pairing set", "quantity": 1}
    # any line, dishes included
    env.remove_set_meal_from_order(restaurant_name=G, user_id="customer_001", set_meal_name="Greek Salad",
                                   quantity=1)
    assert "greek salad" not in [l["dish_name"] for l in lines(env, G, "customer_001")]
    assert env.remove_set_meal_from_order(restaurant_name=A, user_id="customer_001",
                                          set_meal_name="Dessert Pairing Set", quantity=1) == {
        "status": "error", "message": "Set meal 'Dessert Pairing Set' not found in order for user customer_001."}


# --- catalog tools ----------------------------------------------------------------------------------

def test_add_dish_to_catalog_replaces_in_place(env):
    position = list(env.restaurants[G].catalog).index("baklava")
    assert position == 23
    assert env.add_dish_to_catalog(restaurant_name=G, name="BAKLAVA", category="Sweets", price=70, tax_rate=0.1,
                                   discount=1.0, nutritional_characteristics=["High_Sugar"], taste=["Sweet"],
                                   allergens=["Nuts"], nutrition={"basis": "PER_SERVING", "calories_kcal": 500}) == {
        "status": "success", "message": "Dish 'BAKLAVA' added/updated successfully."}
    catalog = env.restaurants[G].catalog
    assert list(catalog).index("baklava") == position and len(catalog) == 31
    assert catalog["baklava"]["category"] == "sweets" and catalog["baklava"]["price"] == 70
    assert catalog["baklava"]["nutrition"]["protein_g"] is None
    assert env.restaurants[A].catalog.get("baklava") is None


def test_add_dish_to_catalog_failure(env):
    before = env.snapshot()
    result = env.add_dish_to_catalog(restaurant_name=A, name="Bad", category="x", price=1, tax_rate=0, discount=1,
                                     nutritional_characteristics=[], taste=[], allergens=[],
                                     nutrition={"basis": "PER_SERVING", "iron_mg": 2})
    assert result["status"] == "error" and result["message"].startswith("Failed to add/update dish: ")
    assert env.snapshot() == before


def test_remove_dish_from_catalog_only_touches_its_store(env):
    assert env.remove_dish_from_catalog(restaurant_name=G, name="Spanakopita") == {
        "status": "success", "message": "Dish 'Spanakopita' removed from catalog."}
    store = env.restaurants[G]
    assert "spanakopita" not in store.catalog
    assert all("spanakopita" not in order for order in store.user_orders.values())
    assert [l["dish_name"] for l in lines(env, G, "customer_001")] == [
        "greek lamb chops", "moussaka", "greek salad", "dessert pairing set"]
    assert len(lines(env, G, "customer_004")) == 4  # its spanakopita line is gone too
    # still in the set meal, but no longer priced: 158*0.8 + 148*0.7 + 48*0.7
    feast = env.get_set_meal_details(restaurant_name=G, set_meal_name="mediterranean feast set")
    assert {"dish_name": "spanakopita", "quantity": 1} in feast["included_dishes"]
    assert feast["price"] == 158 * 0.8 + 148 * 0.7 + 48 * 0.7
    assert env.remove_dish_from_catalog(restaurant_name=A, name="Spanakopita") == {
        "status": "error", "message": "Dish 'Spanakopita' not found in catalog."}


def test_update_dish_price_and_discount(env):
    assert env.update_dish_price(restaurant_name=A, name="MARGHERITA", new_price=40) == {
        "status": "success", "message": "Price of dish 'MARGHERITA' updated to 40."}
    assert env.update_dish_discount(restaurant_name=A, name="margherita", new_discount=1.0) == {
        "status": "success", "message": "Discount of dish 'margherita' updated to 1.0."}
    assert env.compute_total_payment(restaurant_name=A, user_id="c", dishes=[
        {"dish_name": "margherita", "quantity": 2}])["total_payment"] == 80
    assert "margherita" not in env.list_all_discounted_dishes(restaurant_name=A)["discounted_dishes"]
    assert env.update_dish_price(restaurant_name=G, name="Margherita", new_price=1) == {
        "status": "error", "message": "Dish 'Margherita' not found in catalog."}


def test_create_set_meal_stores_included_dishes_as_passed(env):
    included = [{"dish_name": "Pita Bread", "quantity": 2}, {"dish_name": "HUMMUS DIP", "quantity": 1}]
    assert env.create_set_meal(restaurant_name=G, set_meal_name="Meze Set", included_dishes=included,
                               set_meal_price=0, set_meal_discount=0.9) == {
        "status": "success", "message": "Set meal 'Meze Set' created successfully."}
    assert env.snapshot()["restaurants"][G]["set_meals"]["meze set"] == {
        "name": "meze set", "included_dishes": [{"dish_name": "Pita Bread", "quantity": 2},
                                                {"dish_name": "HUMMUS DIP", "quantity": 1}],
        "set_meal_price": 0, "set_meal_discount": 0.9}
    # 28*1.0*2 + 58*0.8*1 = 102.4, times 0.9
    assert env.compute_total_payment(restaurant_name=G, user_id="c", dishes=[
        {"dish_name": "meze set", "quantity": 1}])["total_payment"] == 92.16
    assert env.find_set_meals_containing_dish(restaurant_name=G, dish_name="hummus dip") == {"set_meals": ["meze set"]}


def test_create_set_meal_errors(env):
    before = env.snapshot()
    assert env.create_set_meal(restaurant_name=A, set_meal_name="Greek in Annie",
                               included_dishes=[{"dish_name": "Moussaka", "quantity": 1}], set_meal_price=0,
                               set_meal_discount=1) == {
        "status": "error", "message": "Dish 'Moussaka' not found in catalog."}
    result = env.create_set_meal(restaurant_name=A, set_meal_name="No Name", included_dishes=[{"quantity": 1}],
                                 set_meal_price=0, set_meal_discount=1)
    assert result["status"] == "error" and result["message"].startswith("Failed to create set meal: ")
    assert env.snapshot() == before


# --- a fresh database per task ---------------------------------------------------------------------

def test_clones_do_not_share_writes(env):
    original = env.state_hash()
    clone = env.clone()
    clone.add_dish_to_order(restaurant_name=G, user_id="customer_001", dish_name="moussaka", quantity=1)
    clone.remove_dish_from_order(restaurant_name=A, user_id="customer_001", dish_name="margherita", quantity=0.5)
    clone.update_dish_price(restaurant_name=A, name="focaccia", new_price=99)
    clone.get_dish_price(restaurant_name="New", dish_name="x")
    assert env.state_hash() == original
    assert lines(env, G, "customer_001")[1] == {"dish_name": "moussaka", "quantity": 2}
    assert lines(env, A, "customer_001")[0] == {"dish_name": "margherita", "quantity": 1}
    assert env.restaurants[A].catalog["focaccia"]["price"] == 15 and "New" not in env.restaurants
    assert lines(clone, G, "customer_001")[1] == {"dish_name": "moussaka", "quantity": 3}
    assert lines(clone, A, "customer_001")[0] == {"dish_name": "margherita", "quantity": 0.5}
