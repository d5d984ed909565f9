"""Restaurant environment (TOOLS.md sections 1, 2, 5, 7 and 8), tested against the spec.

Expected values are worked out by hand from the seed file
(tasks/egobench/data/databases/restaurant_init_data.json) or from the small seed built here.
"""

import json

import pytest

from egoeval.tasks import egobench as suite
from egoeval.tools.egobench import RestaurantEnv
from egoeval.tools.registry import ToolRegistry

NINE = ("basis", "serving_size_g", "calories_kcal", "protein_g", "fat_g", "carbs_g", "sugar_g",
        "sodium_mg", "fiber_g")
SEVEN = ["calories_kcal", "protein_g", "fat_g", "carbs_g", "sugar_g", "sodium_mg", "fiber_g"]

#: a small hand-made seed with the loader's corner cases
SMALL = {
    "dishes": [
        {"name": "Pizza Margherita", "category": "Pizza", "price": 10, "tax_rate": 0.1, "discount": 0.8,
         "nutritional_characteristics": ["High_Carbs"], "taste": ["Savory", "Mild"], "allergens": ["Gluten", "DAIRY"],
         "nutrition": {"basis": "PER_SERVING", "calories_kcal": 800, "protein_g": 30, "fat_g": 25.5}},
        {"name": "Pizza", "category": "PIZZA", "price": 8, "tax_rate": 0.25,
         "nutrition": {"basis": "PER_100G", "calories_kcal": 250, "sodium_mg": 500}},
        {"name": "Green Salad", "category": "Salads", "price": 6.5, "tax_rate": 0.0, "discount": 0.5,
         "nutritional_characteristics": ["low_fat"], "taste": ["Fresh"],
         "nutrition": {"basis": "PER_SERVING", "calories_kcal": 120, "fiber_g": 4}},
        {"name": "Water"},
    ],
    "set_meals": [
        {"name": "Lunch Set", "set_meal_discount": 0.9,
         "included_dishes": [{"dish_name": "PIZZA MARGHERITA", "quantity": 1},
                             {"dish_name": "Ghost Dish", "quantity": 3},
                             {"dish_name": "Green Salad"}]},
        {"name": "Fixed Set", "included_dishes": [{"dish_name": "pizza", "quantity": 2}],
         "set_meal_price": 20, "set_meal_discount": 0.5},
    ],
    "user_orders": [
        {"user_id": "u1", "items": [{"dish_name": "Pizza Margherita", "quantity": 2},
                                    {"dish_name": "Unknown", "quantity": 1},
                                    {"dish_name": "LUNCH SET"}]},
        {"user_id": "U1", "items": [{"dish_name": "water", "quantity": 3}]},
        {"items": [{"dish_name": "pizza", "quantity": 1}]},
    ],
}

REG = ToolRegistry()


@pytest.fixture
def env():
    return RestaurantEnv.from_seed(suite.seed("restaurant_init_data"))


@pytest.fixture
def small():
    return RestaurantEnv.from_seed(SMALL)


def new_dish(env, name="Panna Cotta", **over):
    args = dict(name=name, category="Dessert", price=12, tax_rate=0.1, discount=0.9,
                nutritional_characteristics=["High_Sugar"], taste=["Sweet", "Creamy"], allergens=["Dairy"],
                nutrition={"basis": "PER_SERVING", "calories_kcal": 450})
    args.update(over)
    return env.add_dish_to_catalog(**args)


def lines(env, user):
    return env.get_user_order_summary(user_id=user)["items"]


# --- the tool set, dispatch and schemas (1, 7) ------------------------------------------------

def test_the_27_schema_tools_are_exactly_the_restaurant_tools():
    names = {e.get("function", e)["tool_name"] for e in suite.tool_schemas("restaurant")}
    assert len(names) == 27
    assert set(RestaurantEnv.tools) == names


def test_schema_names_differ_from_implementation_only_for_the_catalog_tools():
    differing = {}
    for entry in suite.tool_schemas("restaurant"):
        fn = entry.get("function", entry)
        props = set(fn.get("parameters", {}).get("properties", {}))
        impl = set(RestaurantEnv.members[fn["tool_name"]])
        if props != impl:
            differing[fn["tool_name"]] = (props - impl, impl - props)
    assert differing == {t: ({"dish_name"}, {"name"}) for t in (
        "add_dish_to_catalog", "remove_dish_from_catalog", "update_dish_price", "update_dish_discount")}


def test_list_all_discounted_dishes_schema_has_no_required_list():
    schemas = {e.get("function", e)["tool_name"]: e.get("function", e) for e in suite.tool_schemas("restaurant")}
    assert "required" not in schemas["list_all_discounted_dishes"].get("parameters", {})
    assert schemas["add_dish_to_order"]["parameters"]["required"] == ["user_id", "dish_name", "quantity"]


@pytest.mark.parametrize("tool, params", [
    ("add_dish_to_catalog", {"dish_name": "Gelato", "category": "dessert", "price": 5, "tax_rate": 0.1,
                             "discount": 1, "nutritional_characteristics": [], "taste": [], "allergens": [],
                             "nutrition": {"basis": "PER_SERVING"}}),
    ("remove_dish_from_catalog", {"dish_name": "Margherita"}),
    ("update_dish_price", {"dish_name": "Margherita", "new_price": 1}),
    ("update_dish_discount", {"dish_name": "Margherita", "new_discount": 0.5}),
])
def test_schema_parameter_name_dish_name_fails_for_catalog_tools(env, tool, params):
    before = env.snapshot()
    result = REG.execute(env, {"tool_name": tool, "parameters": params})
    assert result.error == "tool_error"
    assert "dish_name" in json.loads(result.content)["error"]
    assert env.snapshot() == before


def test_undeclared_or_missing_arguments_fail_without_changes(env):
    before = env.snapshot()
    with pytest.raises(TypeError):
        env.invoke("get_user_order_summary", {"user_id": "customer_001", "restaurant_name": "x"})
    with pytest.raises(TypeError):
        env.invoke("add_dish_to_order", {"user_id": "customer_001", "dish_name": "Margherita"})
    with pytest.raises(TypeError):
        env.invoke("list_all_discounted_dishes", {"user_id": "customer_001"})
    assert env.snapshot() == before


def test_internal_helpers_are_callable_by_name(small):
    assert [d["name"] for d in small.invoke("_find_matching_dishes", {"query": "Pizza Margherita XL"})] == [
        "pizza margherita", "pizza"]
    assert [m["name"] for m in small.invoke("_find_matching_set_meals", {"query": "set"})] == [
        "lunch set", "fixed set"]
    small.invoke("init_from_json", {"data": {"dishes": [{"name": "Only Dish", "price": 1}]}})
    assert list(small.store.catalog) == ["only dish"]


def test_registry_logs_normalised_results(env):
    r = REG.execute(env, {"tool_name": "get_set_meal_details", "parameters": {"set_meal_name": "Steak Lovers Set"}})
    assert r.error is None
    content = json.loads(r.content)
    # 208*0.8 + 58*0.9 + 15*1.0 = 233.60000000000002 unrounded; the log rounds to 10 places
    assert content["price"] == 233.6 and content["discount"] == 0.85
    unknown = REG.execute(env, {"tool_name": "get_menu", "parameters": {}})
    assert json.loads(unknown.content) == {"error": "Tool 'get_menu' not found"}


# --- seed loading (5.1, 2.5) ------------------------------------------------------------------

def test_seed_dish_fields_are_lower_cased_and_defaulted(small):
    d = small.store.catalog["pizza margherita"]
    assert d == {"name": "pizza margherita", "category": "pizza", "price": 10, "tax_rate": 0.1, "discount": 0.8,
                 "nutritional_characteristics": ["high_carbs"], "taste": ["savory", "mild"],
                 "allergens": ["gluten", "dairy"],
                 "nutrition": {"basis": "PER_SERVING", "serving_size_g": None, "calories_kcal": 800,
                               "protein_g": 30, "fat_g": 25.5, "carbs_g": None, "sugar_g": None,
                               "sodium_mg": None, "fiber_g": None}}
    w = small.store.catalog["water"]
    assert (w["category"], w["price"], w["tax_rate"], w["discount"]) == (" ", 0.0, 0.0, 1.0)
    assert w["nutritional_characteristics"] == [] and w["taste"] == [] and w["allergens"] == []
    assert w["nutrition"] == dict.fromkeys(NINE)  # basis stays null outside kitchen
    assert list(small.store.catalog) == ["pizza margherita", "pizza", "green salad", "water"]


def test_seed_set_meals_drop_unknown_dishes_and_default_quantity(small):
    assert small.store.set_meals["lunch set"] == {
        "name": "lunch set",
        "included_dishes": [{"dish_name": "pizza margherita", "quantity": 1},
                            {"dish_name": "green salad", "quantity": 1.0}],
        "set_meal_price": 0.0, "set_meal_discount": 0.9}
    assert small.store.set_meals["fixed set"]["set_meal_price"] == 20
    no_discount = RestaurantEnv.from_seed({"dishes": [{"name": "A"}], "set_meals": [{"name": "S"}]})
    assert no_discount.store.set_meals["s"] == {"name": "s", "included_dishes": [], "set_meal_price": 0.0,
                                                "set_meal_discount": 1.0}


def test_seed_orders_drop_unknown_lines_and_default_quantity(small):
    assert set(small.store.user_orders) == {"u1", "U1"}  # case-sensitive ids; the id-less order is skipped
    assert small.store.user_orders["u1"] == {
        "pizza margherita": {"dish_name": "pizza margherita", "quantity": 2},
        "lunch set": {"dish_name": "lunch set", "quantity": 1.0}}
    assert small.store.user_orders["U1"] == {"water": {"dish_name": "water", "quantity": 3}}


def test_later_seed_entries_replace_earlier_ones():
    env = RestaurantEnv.from_seed({
        "dishes": [{"name": "Soup", "price": 5}, {"name": "Bread", "price": 2}, {"name": "SOUP", "price": 7}],
        "user_orders": [{"user_id": "u", "items": [{"dish_name": "soup", "quantity": 1},
                                                   {"dish_name": "Soup", "quantity": 4}]}],
    })
    assert list(env.store.catalog) == ["soup", "bread"]
    assert env.store.catalog["soup"]["price"] == 7 and env.store.catalog["soup"]["category"] == " "
    assert env.store.user_orders["u"] == {"soup": {"dish_name": "soup", "quantity": 4}}


def test_later_seed_order_of_the_same_user_replaces_the_earlier():
    env = RestaurantEnv.from_seed({"dishes": [{"name": "A"}, {"name": "B"}], "user_orders": [
        {"user_id": "u", "items": [{"dish_name": "a", "quantity": 1}]},
        {"user_id": "u", "items": [{"dish_name": "b", "quantity": 2}]}]})
    assert env.store.user_orders == {"u": {"b": {"dish_name": "b", "quantity": 2}}}


def test_restaurant_seed_contents(env):
    assert len(env.store.catalog) == 86
    assert list(env.store.set_meals) == ["italian classic set", "steak lovers set", "seafood delight set",
                                         "cold cuts & cheese platter", "annie's special set"]
    assert sorted(env.store.user_orders) == [f"customer_{i:03d}" for i in range(1, 11)]
    assert lines(env, "customer_001") == [
        {"dish_name": "margherita", "quantity": 1}, {"dish_name": "rigatoni all'arrabbiata", "quantity": 1},
        {"dish_name": "tiramisu'", "quantity": 1}, {"dish_name": "seafood delight set", "quantity": 1},
        {"dish_name": "annie's special set", "quantity": 1}]


def test_snapshot_is_the_hashed_state_document(small):
    snap = small.snapshot()
    assert set(snap) == {"catalog", "set_meals", "user_orders"}
    assert snap["catalog"]["water"] == small.store.catalog["water"]
    assert snap["set_meals"]["fixed set"] == {"name": "fixed set", "included_dishes": [
        {"dish_name": "pizza", "quantity": 2}], "set_meal_price": 20, "set_meal_discount": 0.5}
    # order lines sorted by dish_name
    assert snap["user_orders"] == {
        "u1": [{"dish_name": "lunch set", "quantity": 1.0}, {"dish_name": "pizza margherita", "quantity": 2}],
        "U1": [{"dish_name": "water", "quantity": 3}]}


# --- per-dish fuzzy queries (2.1, 5.2) --------------------------------------------------------

def test_get_dish_price_generic_word_matches_all_containing_names(env):
    assert env.get_dish_price(dish_name="SALAME") == {"status": "success", "matching_dishes": {
        "salame milano": 35, "salame napoli": 35, "salame soppressa": 35, "salametto": 69, "salame ciabatta": 48}}


def test_get_dish_price_longer_query_matches_the_names_it_contains(env):
    assert env.get_dish_price(dish_name="Salmon & Orange salad") == {
        "status": "success", "matching_dishes": {"salmon": 58, "salmon & orange": 88}}


def test_get_dish_price_empty_query_matches_every_dish(small):
    assert small.get_dish_price(dish_name="") == {"status": "success", "matching_dishes": {
        "pizza margherita": 10, "pizza": 8, "green salad": 6.5, "water": 0.0}}


def test_per_dish_queries_cover_dishes_only_not_set_meals(small):
    assert small.get_dish_price(dish_name="Lunch Set") == {
        "status": "error", "message": "No dishes found containing 'Lunch Set'."}


def test_get_tax_rate_in_catalog_order(env):
    assert env.get_tax_rate(dish_name="Margherita") == {"status": "success", "matching_dishes": {
        "buffalo mozzarella margherita pizza": 0.08, "margherita": 0.14}}


def test_get_dish_allergens(env, small):
    assert env.get_dish_allergens(dish_name="TIRAMISU'") == {
        "status": "success", "matching_dishes": {"tiramisu'": ["gluten", "dairy", "eggs"]}}
    assert small.get_dish_allergens(dish_name="water") == {"status": "success", "matching_dishes": {"water": []}}


def test_get_dish_taste_profile(env):
    # "salmon" is contained in the query, so it matches too (2.1)
    assert env.get_dish_taste_profile(dish_name="grilled Salmon") == {
        "status": "success", "matching_dishes": {"grilled salmon": ["savory", "smoky"], "salmon": ["savory", "rich"]}}


def test_get_dish_discount(env):
    assert env.get_dish_discount(dish_name="Focaccia") == {"status": "success", "matching_dishes": {"focaccia": 1.0}}
    assert env.get_dish_discount(dish_name="Cooked ham")["matching_dishes"] == {
        "cooked ham": 0.7, "cooked ham baguette": 0.7, "ham": 0.9}  # "ham" is contained in the query


def test_get_dish_nutrition_returns_the_nine_field_record(env):
    result = env.get_dish_nutrition(dish_name="Comte")
    assert result == {"status": "success", "matching_dishes": {"comte": {
        "basis": "PER_100G", "serving_size_g": 100.0, "calories_kcal": 400.0, "protein_g": 25.0, "fat_g": 32.0,
        "carbs_g": 0.0, "sugar_g": 0.0, "sodium_mg": 650.0, "fiber_g": 0.0}}}
    assert tuple(result["matching_dishes"]["comte"]) == NINE


@pytest.mark.parametrize("tool", ["get_dish_nutrition", "get_tax_rate", "get_dish_allergens",
                                  "get_dish_taste_profile", "get_dish_price", "get_dish_discount"])
def test_per_dish_query_without_match(env, tool):
    before = env.snapshot()
    assert env.invoke(tool, {"dish_name": "Sushi Platter"}) == {
        "status": "error", "message": "No dishes found containing 'Sushi Platter'."}
    assert env.snapshot() == before


def test_names_are_lower_cased_but_never_trimmed(env):
    # exact-key tools: a trailing space makes a different key
    assert env.add_dish_to_order(user_id="t", dish_name="Focaccia ", quantity=1) == {
        "status": "error", "message": "Dish 'Focaccia ' does not exist in catalog."}
    assert env.find_dishes_by_category(category="Pizza ") == {"dishes": []}
    assert env.get_set_meal_details(set_meal_name=" Steak Lovers Set")["status"] == "error"
    # the fuzzy lookup still finds "focaccia" inside the longer query
    assert env.get_dish_price(dish_name="  Focaccia ") == {"status": "success", "matching_dishes": {"focaccia": 15}}
    assert "t" not in env.store.user_orders


# --- finders ----------------------------------------------------------------------------------

def test_find_dishes_by_category_is_lower_cased_equality(env, small):
    assert env.find_dishes_by_category(category="SELECTED Steaks") == {"dishes": [
        "australian selected ribeye", "australian imported m7 wagyu sirloin",
        "australian imported m9+ grain-fed ribeye"]}
    assert env.find_dishes_by_category(category="Steaks") == {"dishes": []}
    assert small.find_dishes_by_category(category="pizza") == {"dishes": ["pizza margherita", "pizza"]}
    assert small.find_dishes_by_category(category=" ") == {"dishes": ["water"]}


def test_find_dishes_by_nutritional_tag_is_exact_element(env):
    assert env.find_dishes_by_nutritional_tag(tag="HIGH_OMEGA3") == {"dishes": [
        "salmone affumicato", "grilled salmon", "tuna panini", "anchovies", "salmon & cream",
        "salmon & asparagus", "salmon", "tuna salad", "salmon & orange", "australian imported m7 wagyu sirloin",
        "walnut bread"]}
    assert env.find_dishes_by_nutritional_tag(tag="omega3") == {"dishes": []}


def test_find_dishes_by_taste(env, small):
    assert env.find_dishes_by_taste(taste="Buttery") == {"dishes": [
        "australian imported m7 wagyu sirloin", "australian imported m9+ grain-fed ribeye"]}
    assert small.find_dishes_by_taste(taste="FRESH") == {"dishes": ["green salad"]}
    assert small.find_dishes_by_taste(taste="fres") == {"dishes": []}


def test_filter_dishes_by_price_range_is_inclusive_and_unvalidated(env, small):
    assert env.filter_dishes_by_price_range(min_price=100, max_price=128) == {"dishes": [
        "grilled salmon", "cold cuts & cheese plate", "wagyu & veggies skewers", "buratta with ham", "cheese plate",
        "black truffle", "buratta & parma ham", "apulian buratta cheese"]}
    assert env.filter_dishes_by_price_range(min_price=659, max_price=659) == {"dishes": [
        "australian imported m9+ grain-fed ribeye"]}
    # no validation: min > max is simply empty, negative bounds are accepted
    assert env.filter_dishes_by_price_range(min_price=100, max_price=50) == {"dishes": []}
    assert small.filter_dishes_by_price_range(min_price=-5, max_price=0) == {"dishes": ["water"]}


def test_filter_dishes_by_price_range_string_bound_fails(env):
    with pytest.raises(TypeError):  # 2.3: str vs number comparison
        env.filter_dishes_by_price_range(min_price="10", max_price=100)


def test_list_all_discounted_dishes(env, small):
    assert small.list_all_discounted_dishes() == {"discounted_dishes": ["pizza margherita", "green salad"]}
    result = env.list_all_discounted_dishes()["discounted_dishes"]
    assert len(result) == 75 and result[:3] == ["salame milano", "mortadella", "salame napoli"]
    assert "margherita" not in result and "focaccia" not in result
    assert RestaurantEnv().list_all_discounted_dishes() == {"discounted_dishes": []}


# --- set meals --------------------------------------------------------------------------------

def test_get_set_meal_details_computes_price_from_dishes_unrounded(env):
    result = env.get_set_meal_details(set_meal_name="ITALIAN classic SET")
    # 38*1.0*1 + 48*0.9*1 + 35*0.9*1
    assert result == {"name": "italian classic set", "included_dishes": [
        {"dish_name": "margherita", "quantity": 1}, {"dish_name": "rigatoni all'arrabbiata", "quantity": 1},
        {"dish_name": "tiramisu'", "quantity": 1}], "price": 38 * 1.0 * 1 + 48 * 0.9 * 1 + 35 * 0.9 * 1,
        "discount": 0.9}
    assert env.get_set_meal_details(set_meal_name="Cold Cuts & Cheese Platter")["price"] == 240.10000000000002


def test_get_set_meal_details_uses_a_positive_set_price(small):
    assert small.get_set_meal_details(set_meal_name="Fixed Set") == {
        "name": "fixed set", "included_dishes": [{"dish_name": "pizza", "quantity": 2}], "price": 20,
        "discount": 0.5}
    # 10*0.8*1 + 6.5*0.5*1.0 (the dropped ghost dish contributes nothing)
    assert small.get_set_meal_details(set_meal_name="lunch set")["price"] == 11.25


def test_get_set_meal_details_non_positive_price_falls_back_to_dish_sum(small):
    small.create_set_meal(set_meal_name="Neg", included_dishes=[{"dish_name": "Pizza", "quantity": 3}],
                          set_meal_price=-5, set_meal_discount=1.0)
    assert small.get_set_meal_details(set_meal_name="neg")["price"] == 24  # 8*1.0*3


def test_get_set_meal_details_unknown_and_fuzzy_names(env):
    for name in ("Italian Classic", "italian classic set ", "Sushi Set"):
        assert env.get_set_meal_details(set_meal_name=name) == {
            "status": "error", "message": f"Set meal '{name}' not found."}


def test_find_set_meals_containing_dish(env, small):
    assert env.find_set_meals_containing_dish(dish_name="FOCACCIA") == {"set_meals": ["steak lovers set"]}
    assert env.find_set_meals_containing_dish(dish_name="Focaccia bread") == {"set_meals": []}
    assert env.find_set_meals_containing_dish(dish_name="comte") == {"set_meals": ["cold cuts & cheese platter"]}
    assert small.find_set_meals_containing_dish(dish_name="ghost dish") == {"set_meals": []}  # dropped at load
    small.create_set_meal(set_meal_name="Big Lunch", included_dishes=[{"dish_name": "PIZZA", "quantity": 1}],
                          set_meal_price=0, set_meal_discount=1)
    assert small.find_set_meals_containing_dish(dish_name="pizza") == {"set_meals": ["fixed set", "big lunch"]}


# --- order summary ----------------------------------------------------------------------------

def test_get_user_order_summary(small):
    assert small.get_user_order_summary(user_id="u1") == {"user_id": "u1", "items": [
        {"dish_name": "pizza margherita", "quantity": 2}, {"dish_name": "lunch set", "quantity": 1.0}],
        "total_items": 2}


def test_get_user_order_summary_unknown_user_creates_nothing(small):
    before = small.snapshot()
    assert small.get_user_order_summary(user_id="nobody") == {"user_id": "nobody", "items": [], "total_items": 0}
    assert small.get_user_order_summary(user_id="U1")["total_items"] == 1  # ids are case-sensitive
    assert small.snapshot() == before


# --- add_dish_to_order / remove_dish_from_order -----------------------------------------------

def test_add_dish_to_order_new_line_and_new_user(env):
    assert env.add_dish_to_order(user_id="guest", dish_name="Grilled SALMON", quantity=2) == {
        "status": "success", "message": "Added 2 x Grilled SALMON to order for user guest."}
    assert env.snapshot()["user_orders"]["guest"] == [{"dish_name": "grilled salmon", "quantity": 2}]


def test_add_dish_to_order_existing_line_sums(env):
    env.add_dish_to_order(user_id="customer_002", dish_name="focaccia", quantity=2.5)
    assert lines(env, "customer_002")[-1] == {"dish_name": "focaccia", "quantity": 3.5}
    assert len(lines(env, "customer_002")) == 3


def test_add_dish_to_order_rejects_unknown_and_set_meal_names(env):
    before = env.snapshot()
    assert env.add_dish_to_order(user_id="new", dish_name="Italian Classic Set", quantity=1) == {
        "status": "error", "message": "Dish 'Italian Classic Set' does not exist in catalog."}
    assert env.add_dish_to_order(user_id="new", dish_name="Margherita Pizza", quantity=1) == {
        "status": "error", "message": "Dish 'Margherita Pizza' does not exist in catalog."}  # no fuzzy lookup
    assert env.snapshot() == before
    assert "new" not in env.store.user_orders


def test_add_dish_to_order_has_no_type_or_sign_check(env):
    env.add_dish_to_order(user_id="t", dish_name="Focaccia", quantity=-2)
    assert lines(env, "t") == [{"dish_name": "focaccia", "quantity": -2}]
    assert env.add_dish_to_order(user_id="t", dish_name="Baguette", quantity="2") == {
        "status": "success", "message": "Added 2 x Baguette to order for user t."}
    assert lines(env, "t")[1] == {"dish_name": "baguette", "quantity": "2"}  # the string is stored
    with pytest.raises(TypeError):  # and breaks a later addition to the same line
        env.add_dish_to_order(user_id="t", dish_name="Baguette", quantity=1)
    assert lines(env, "t")[1]["quantity"] == "2"
    assert env.add_dish_to_order(user_id="b", dish_name="Ciabatta", quantity=True)["message"] == (
        "Added True x Ciabatta to order for user b.")
    env.add_dish_to_order(user_id="b", dish_name="Ciabatta", quantity=True)
    assert lines(env, "b") == [{"dish_name": "ciabatta", "quantity": 2}]


def test_remove_dish_from_order_partial(env):
    env.add_dish_to_order(user_id="customer_002", dish_name="Focaccia", quantity=2)
    assert env.remove_dish_from_order(user_id="customer_002", dish_name="FOCACCIA", quantity=1) == {
        "status": "success", "message": "Removed  from order for user customer_002."}
    assert lines(env, "customer_002")[-1] == {"dish_name": "focaccia", "quantity": 2}


def test_remove_dish_from_order_exact_amount_deletes_line_keeps_user(small):
    assert small.remove_dish_from_order(user_id="U1", dish_name="Water", quantity=3) == {
        "status": "success", "message": "Removed  from order for user U1."}
    assert small.store.user_orders["U1"] == {}
    assert small.snapshot()["user_orders"]["U1"] == []


def test_remove_dish_from_order_more_than_available(small):
    assert small.remove_dish_from_order(user_id="u1", dish_name="pizza margherita", quantity=5) == {
        "status": "success",
        "message": "Removed entire item (requested more than available) from order for user u1."}
    assert lines(small, "u1") == [{"dish_name": "lunch set", "quantity": 1.0}]


def test_remove_dish_from_order_also_removes_set_meal_lines(small):
    result = small.remove_dish_from_order(user_id="u1", dish_name="Lunch Set", quantity=1)
    assert result == {"status": "success", "message": "Removed  from order for user u1."}
    assert lines(small, "u1") == [{"dish_name": "pizza margherita", "quantity": 2}]


def test_remove_dish_from_order_zero_or_negative_quantity(small):
    small.remove_dish_from_order(user_id="u1", dish_name="pizza margherita", quantity=0)
    assert lines(small, "u1")[0] == {"dish_name": "pizza margherita", "quantity": 2}
    small.remove_dish_from_order(user_id="u1", dish_name="pizza margherita", quantity=-1.5)
    assert lines(small, "u1")[0] == {"dish_name": "pizza margherita", "quantity": 3.5}


def test_remove_dish_from_order_not_found(small):
    before = small.snapshot()
    assert small.remove_dish_from_order(user_id="u1", dish_name="Water", quantity=1) == {
        "status": "error", "message": "Dish 'Water' not found in order for user u1."}
    assert small.remove_dish_from_order(user_id="ghost", dish_name="Water", quantity=1) == {
        "status": "error", "message": "Dish 'Water' not found in order for user ghost."}
    assert small.remove_dish_from_order(user_id="u1", dish_name="pizza margherita ", quantity=1)["status"] == "error"
    assert small.snapshot() == before


# --- clear_user_order -------------------------------------------------------------------------

def test_clear_user_order_keeps_an_empty_entry(env):
    assert env.clear_user_order(user_id="customer_003") == {
        "status": "success", "message": "Order cleared for user customer_003."}
    assert env.store.user_orders["customer_003"] == {}
    assert env.get_user_order_summary(user_id="customer_003") == {
        "user_id": "customer_003", "items": [], "total_items": 0}
    assert len(lines(env, "customer_004")) == 4  # other users untouched


def test_clear_user_order_never_creates(env):
    before = env.snapshot()
    assert env.clear_user_order(user_id="CUSTOMER_003") == {
        "status": "success", "message": "Order cleared for user CUSTOMER_003."}
    assert env.snapshot() == before


# --- set meals in orders (shared order table) -------------------------------------------------

def test_add_set_meal_to_order(env):
    assert env.add_set_meal_to_order(user_id="customer_002", set_meal_name="Seafood DELIGHT Set", quantity=2) == {
        "status": "success", "message": "Added 2 x Seafood DELIGHT Set set meal to order for user customer_002."}
    assert lines(env, "customer_002")[-1] == {"dish_name": "seafood delight set", "quantity": 2}
    env.add_set_meal_to_order(user_id="customer_002", set_meal_name="seafood delight set", quantity=1)
    assert lines(env, "customer_002")[-1] == {"dish_name": "seafood delight set", "quantity": 3}
    env.add_set_meal_to_order(user_id="solo", set_meal_name="Steak Lovers Set", quantity=1)
    assert env.snapshot()["user_orders"]["solo"] == [{"dish_name": "steak lovers set", "quantity": 1}]


def test_add_set_meal_to_order_rejects_dish_and_unknown_names(env):
    before = env.snapshot()
    assert env.add_set_meal_to_order(user_id="x", set_meal_name="Margherita", quantity=1) == {
        "status": "error", "message": "Set meal 'Margherita' does not exist."}
    assert env.add_set_meal_to_order(user_id="x", set_meal_name="Steak Lovers", quantity=1) == {
        "status": "error", "message": "Set meal 'Steak Lovers' does not exist."}
    assert env.snapshot() == before


def test_set_meal_and_dish_with_the_same_key_share_one_line():
    env = RestaurantEnv.from_seed({"dishes": [{"name": "Combo", "price": 5}],
                                   "set_meals": [{"name": "COMBO", "included_dishes": [{"dish_name": "combo"}]}]})
    env.add_dish_to_order(user_id="u", dish_name="combo", quantity=1)
    env.add_set_meal_to_order(user_id="u", set_meal_name="Combo", quantity=2)
    assert lines(env, "u") == [{"dish_name": "combo", "quantity": 3}]


def test_remove_set_meal_from_order(env):
    assert env.remove_set_meal_from_order(user_id="customer_003", set_meal_name="SEAFOOD delight set",
                                          quantity=1) == {
        "status": "success", "message": "Removed 1 x SEAFOOD delight set set meal from order for user customer_003."}
    assert [l["dish_name"] for l in lines(env, "customer_003")] == [
        "salmon & asparagus", "grilled salmon", "tuna salad"]


def test_remove_set_meal_from_order_removes_any_line_and_partial_amounts(small):
    # a dish line can be removed through the set-meal tool as well
    assert small.remove_set_meal_from_order(user_id="u1", set_meal_name="Pizza Margherita", quantity=0.5) == {
        "status": "success", "message": "Removed 0.5 x Pizza Margherita set meal from order for user u1."}
    assert lines(small, "u1")[0] == {"dish_name": "pizza margherita", "quantity": 1.5}
    # more than available: the line goes, the success message is the same shape
    assert small.remove_set_meal_from_order(user_id="u1", set_meal_name="lunch set", quantity=9)["message"] == (
        "Removed 9 x lunch set set meal from order for user u1.")
    assert lines(small, "u1") == [{"dish_name": "pizza margherita", "quantity": 1.5}]


def test_remove_set_meal_from_order_not_found(small):
    before = small.snapshot()
    assert small.remove_set_meal_from_order(user_id="U1", set_meal_name="Lunch Set", quantity=1) == {
        "status": "error", "message": "Set meal 'Lunch Set' not found in order for user U1."}
    assert small.remove_set_meal_from_order(user_id="zz", set_meal_name="Lunch Set", quantity=1)["message"] == (
        "Set meal 'Lunch Set' not found in order for user zz.")
    assert small.snapshot() == before


# --- compute tools (5.2, 2.4) -----------------------------------------------------------------

@pytest.mark.parametrize("dishes", [[], None])
def test_compute_tools_with_empty_dishes(small, dishes):
    assert small.compute_total_payment(user_id="u1", dishes=dishes) == {"user_id": "u1", "total": 0.0}
    assert small.compute_total_tax(user_id="u1", dishes=dishes) == {"user_id": "u1", "total_tax": 0.0}
    assert small.compute_total_nutrition(user_id="u1", dishes=dishes) == {"user_id": "u1", "total_nutrition": {}}


def test_compute_total_payment_dishes_and_set_meals(env):
    result = env.compute_total_payment(user_id="customer_001", dishes=[
        {"dish_name": "Margherita", "quantity": 1}, {"dish_name": "Seafood Delight Set", "quantity": 1}])
    # 38*1.0*1 + (79*0.8 + 128*0.8 + 45*0.9)*0.9*1 = 223.49000000000004
    assert result == {"user_id": "customer_001", "total": 223.49}


def test_compute_total_payment_set_meal_rules(small):
    # fixed price: 20 * 0.5 * 3
    assert small.compute_total_payment(user_id="u", dishes=[{"dish_name": "fixed set", "quantity": 3}])["total"] == 30
    # no price: (10*0.8*1 + 6.5*0.5*1.0) * 0.9 * 2
    assert small.compute_total_payment(user_id="u", dishes=[{"dish_name": "LUNCH SET", "quantity": 2}])["total"] == 20.25


def test_compute_total_payment_quantities_are_not_skipped_and_default_to_zero(small):
    result = small.compute_total_payment(user_id="u", dishes=[
        {"dish_name": "Pizza", "quantity": 2}, {"dish_name": "Pizza Margherita", "quantity": -1},
        {"dish_name": "green salad"}, {"quantity": 4}, {"dish_name": "Unknown", "quantity": 9}])
    # 8*1.0*2 + 10*0.8*(-1) + 0 ; the nameless and unknown items contribute nothing
    assert result == {"user_id": "u", "total": 8.0}


def test_compute_dish_key_wins_over_set_meal_key():
    env = RestaurantEnv.from_seed({"dishes": [{"name": "Combo", "price": 5}, {"name": "Side", "price": 100}],
                                   "set_meals": [{"name": "combo", "included_dishes": [{"dish_name": "side"}]}]})
    dishes = [{"dish_name": "COMBO", "quantity": 2}]
    assert env.compute_total_payment(user_id="u", dishes=dishes)["total"] == 10.0
    assert env.get_set_meal_details(set_meal_name="combo")["price"] == 100.0


def test_compute_item_without_dish_name_looks_up_a_single_space(small):
    new_dish(small, name=" ", price=7, discount=1.0, tax_rate=0.4,
             nutrition={"basis": "PER_SERVING", "calories_kcal": 10})
    assert small.compute_total_payment(user_id="u", dishes=[{"quantity": 2}])["total"] == 14.0
    assert small.compute_total_tax(user_id="u", dishes=[{"quantity": 2}])["total_tax"] == 4.0  # 7*0.4/1.4*1*2
    assert small.compute_total_nutrition(user_id="u", dishes=[{"quantity": 2}])["total_nutrition"][
        "calories_kcal"] == 20.0


def test_compute_total_payment_exact_keys_only(small):
    assert small.compute_total_payment(user_id="u", dishes=[{"dish_name": "Pizza ", "quantity": 1},
                                                            {"dish_name": "margherita", "quantity": 1}])["total"] == 0.0


def test_compute_total_payment_round2_on_binary_double(small):
    new_dish(small, name="Odd", price=2.675, discount=1.0)
    assert small.compute_total_payment(user_id="u", dishes=[{"dish_name": "odd", "quantity": 1}])["total"] == 2.67
    new_dish(small, name="Third", price=10, discount=1 / 3)
    assert small.compute_total_payment(user_id="u", dishes=[{"dish_name": "third", "quantity": 1}])["total"] == 3.33


def test_compute_total_payment_is_read_only(env):
    before = env.snapshot()
    env.compute_total_payment(user_id="customer_001", dishes=[{"dish_name": "margherita", "quantity": 5}])
    env.compute_total_tax(user_id="customer_001", dishes=[{"dish_name": "margherita", "quantity": 5}])
    env.compute_total_nutrition(user_id="brand_new", dishes=[{"dish_name": "margherita", "quantity": 5}])
    assert env.snapshot() == before


def test_compute_total_tax_dish_formula(env):
    # ((35*0.11)/1.11)*0.7*2 = 4.8558...
    assert env.compute_total_tax(user_id="c", dishes=[{"dish_name": "Salame Milano", "quantity": 2}]) == {
        "user_id": "c", "total_tax": 4.86}
    # ((38*0.14)/1.14)*1.0*3 = 13.999999999999998 -> 14.0
    assert env.compute_total_tax(user_id="c", dishes=[{"dish_name": "margherita", "quantity": 3}])["total_tax"] == 14.0


def test_compute_total_tax_set_meal_ignores_set_discount_and_price(env, small):
    # seafood delight set x2: sum over its dishes of price*t/(1+t)*discount*included*2
    assert env.compute_total_tax(user_id="c", dishes=[{"dish_name": "seafood delight set", "quantity": 2}]) == {
        "user_id": "c", "total_tax": 36.28}
    # fixed set (price 20, discount 0.5 are ignored): 8*0.25/1.25*1.0*2*1
    assert small.compute_total_tax(user_id="c", dishes=[{"dish_name": "Fixed Set", "quantity": 1}])["total_tax"] == 3.2
    # lunch set: 10*0.1/1.1*0.8*1 + 0 (salad has no tax) = 0.7272...
    assert small.compute_total_tax(user_id="c", dishes=[{"dish_name": "lunch set", "quantity": 1}])["total_tax"] == 0.73


def test_compute_total_tax_negative_quantity_counts(small):
    assert small.compute_total_tax(user_id="c", dishes=[{"dish_name": "pizza", "quantity": -1}])["total_tax"] == -1.6


def test_compute_total_nutrition_dishes_and_per_100g(env):
    result = env.compute_total_nutrition(user_id="c", dishes=[
        {"dish_name": "comte", "quantity": 250}, {"dish_name": "Lasagne", "quantity": 2}])
    # comte is PER_100G: 250/100 = 2.5 units; lasagne PER_SERVING: 2 units
    assert result == {"user_id": "c", "total_nutrition": {
        "calories_kcal": 2600.0, "protein_g": 122.5, "fat_g": 130.0, "carbs_g": 180.0, "sugar_g": 8.0,
        "sodium_mg": 3625.0, "fiber_g": 10.0}}
    assert list(result["total_nutrition"]) == SEVEN


def test_compute_total_nutrition_set_meal(env):
    result = env.compute_total_nutrition(user_id="c", dishes=[
        {"dish_name": "cold cuts & cheese platter", "quantity": 2}])
    # plank x2 + plate x2 + comte (PER_100G) x 1*2/100
    assert result["total_nutrition"] == {"calories_kcal": 2608.0, "protein_g": 190.5, "fat_g": 170.64,
                                         "carbs_g": 14.0, "sugar_g": 6.0, "sodium_mg": 8413.0, "fiber_g": 0.0}


def test_compute_total_nutrition_nulls_count_as_zero_and_unknowns_give_zeros(small):
    result = small.compute_total_nutrition(user_id="u", dishes=[{"dish_name": "pizza margherita", "quantity": 1},
                                                                {"dish_name": "water", "quantity": 7}])
    assert result["total_nutrition"] == {"calories_kcal": 800.0, "protein_g": 30.0, "fat_g": 25.5, "carbs_g": 0.0,
                                         "sugar_g": 0.0, "sodium_mg": 0.0, "fiber_g": 0.0}
    assert small.compute_total_nutrition(user_id="u", dishes=[{"dish_name": "nope", "quantity": 1}]) == {
        "user_id": "u", "total_nutrition": dict.fromkeys(SEVEN, 0.0)}


def test_compute_total_nutrition_basis_must_be_exactly_per_100g(small):
    new_dish(small, name="Lower Basis", nutrition={"basis": "per_100g", "calories_kcal": 100})
    new_dish(small, name="Upper Basis", nutrition={"basis": "PER_100G", "calories_kcal": 100})
    lower = small.compute_total_nutrition(user_id="u", dishes=[{"dish_name": "lower basis", "quantity": 50}])
    upper = small.compute_total_nutrition(user_id="u", dishes=[{"dish_name": "upper basis", "quantity": 50}])
    assert lower["total_nutrition"]["calories_kcal"] == 5000.0
    assert upper["total_nutrition"]["calories_kcal"] == 50.0


def test_compute_total_nutrition_negative_and_set_meal_per_100g(small):
    result = small.compute_total_nutrition(user_id="u", dishes=[{"dish_name": "Fixed Set", "quantity": 1},
                                                                {"dish_name": "green salad", "quantity": -1}])
    # pizza (PER_100G) 2*1/100 -> 250*0.02 = 5, sodium 10; salad x -1
    assert result["total_nutrition"] == {"calories_kcal": -115.0, "protein_g": 0.0, "fat_g": 0.0, "carbs_g": 0.0,
                                         "sugar_g": 0.0, "sodium_mg": 10.0, "fiber_g": -4.0}


# --- catalog tools ----------------------------------------------------------------------------

def test_add_dish_to_catalog_creates_lower_cased_entry(small):
    assert new_dish(small, name="Panna COTTA") == {
        "status": "success", "message": "Dish 'Panna COTTA' added/updated successfully."}
    assert small.store.catalog["panna cotta"] == {
        "name": "panna cotta", "category": "dessert", "price": 12, "tax_rate": 0.1, "discount": 0.9,
        "nutritional_characteristics": ["high_sugar"], "taste": ["sweet", "creamy"], "allergens": ["dairy"],
        "nutrition": {"basis": "PER_SERVING", "serving_size_g": None, "calories_kcal": 450, "protein_g": None,
                      "fat_g": None, "carbs_g": None, "sugar_g": None, "sodium_mg": None, "fiber_g": None}}
    assert list(small.store.catalog)[-1] == "panna cotta"
    assert small.add_dish_to_order(user_id="u", dish_name="panna cotta", quantity=1)["status"] == "success"


def test_add_dish_to_catalog_replaces_in_place(small):
    new_dish(small, name="PIZZA", price=9, category="Flatbread", discount=0.5)
    assert list(small.store.catalog) == ["pizza margherita", "pizza", "green salad", "water"]
    assert small.store.catalog["pizza"]["price"] == 9 and small.store.catalog["pizza"]["category"] == "flatbread"
    assert small.list_all_discounted_dishes() == {"discounted_dishes": ["pizza margherita", "pizza", "green salad"]}


@pytest.mark.parametrize("over", [
    {"nutrition": {"basis": "PER_SERVING", "vitamin_c_mg": 3}},
    {"nutrition": {"calories_kcal": 3}},
    {"category": 5},
    {"taste": [1, 2]},
])
def test_add_dish_to_catalog_failures(small, over):
    before = small.snapshot()
    result = new_dish(small, name="Broken", **over)
    assert result["status"] == "error"
    assert result["message"].startswith("Failed to add/update dish: ")
    assert small.snapshot() == before


def test_remove_dish_from_catalog_removes_from_orders_not_set_meals(env):
    assert env.remove_dish_from_catalog(name="MARGHERITA") == {
        "status": "success", "message": "Dish 'MARGHERITA' removed from catalog."}
    assert "margherita" not in env.store.catalog
    assert [l["dish_name"] for l in lines(env, "customer_001")] == [
        "rigatoni all'arrabbiata", "tiramisu'", "seafood delight set", "annie's special set"]
    # still listed in the set meal, but it no longer counts in the price
    details = env.get_set_meal_details(set_meal_name="italian classic set")
    assert details["included_dishes"][0] == {"dish_name": "margherita", "quantity": 1}
    assert details["price"] == 48 * 0.9 * 1 + 35 * 0.9 * 1
    assert env.compute_total_payment(user_id="c", dishes=[{"dish_name": "italian classic set", "quantity": 1}])[
        "total"] == round((48 * 0.9 + 35 * 0.9) * 0.9, 2)


def test_remove_dish_from_catalog_leaves_empty_orders(small):
    small.remove_dish_from_catalog(name="water")
    assert small.store.user_orders["U1"] == {}
    assert small.snapshot()["user_orders"]["U1"] == []


def test_remove_dish_from_catalog_not_found(env):
    before = env.snapshot()
    assert env.remove_dish_from_catalog(name="Margherita pizza") == {
        "status": "error", "message": "Dish 'Margherita pizza' not found in catalog."}
    assert env.remove_dish_from_catalog(name="Italian Classic Set") == {
        "status": "error", "message": "Dish 'Italian Classic Set' not found in catalog."}
    assert env.snapshot() == before


def test_update_dish_price(env):
    assert env.update_dish_price(name="Focaccia", new_price=17.5) == {
        "status": "success", "message": "Price of dish 'Focaccia' updated to 17.5."}
    assert env.store.catalog["focaccia"]["price"] == 17.5
    assert env.get_dish_price(dish_name="focaccia") == {"status": "success", "matching_dishes": {"focaccia": 17.5}}
    # the set meal price follows: 208*0.8 + 58*0.9 + 17.5*1.0
    assert env.get_set_meal_details(set_meal_name="steak lovers set")["price"] == 208 * 0.8 + 58 * 0.9 + 17.5
    assert env.update_dish_price(name="Focaccia", new_price=20)["message"] == "Price of dish 'Focaccia' updated to 20."
    assert env.update_dish_price(name="Foccacia", new_price=20) == {
        "status": "error", "message": "Dish 'Foccacia' not found in catalog."}


def test_update_dish_discount(env):
    assert env.update_dish_discount(name="MARGHERITA", new_discount=0.5) == {
        "status": "success", "message": "Discount of dish 'MARGHERITA' updated to 0.5."}
    assert env.store.catalog["margherita"]["discount"] == 0.5
    assert "margherita" in env.list_all_discounted_dishes()["discounted_dishes"]
    assert list(env.store.catalog).index("margherita") == 57  # position kept
    before = env.snapshot()
    assert env.update_dish_discount(name="Pizza", new_discount=0.5) == {
        "status": "error", "message": "Dish 'Pizza' not found in catalog."}
    assert env.snapshot() == before


def test_create_set_meal_stores_included_dishes_exactly_as_passed(small):
    included = [{"dish_name": "PIZZA", "quantity": 2}, {"dish_name": "Green Salad", "quantity": 1, "note": "x"}]
    assert small.create_set_meal(set_meal_name="Dinner SET", included_dishes=included, set_meal_price=0,
                                 set_meal_discount=0.8) == {
        "status": "success", "message": "Set meal 'Dinner SET' created successfully."}
    assert small.snapshot()["set_meals"]["dinner set"] == {
        "name": "dinner set", "included_dishes": [{"dish_name": "PIZZA", "quantity": 2},
                                                  {"dish_name": "Green Salad", "quantity": 1, "note": "x"}],
        "set_meal_price": 0, "set_meal_discount": 0.8}
    # price from dishes: 8*1.0*2 + 6.5*0.5*1; payment applies the set discount
    assert small.get_set_meal_details(set_meal_name="dinner set")["price"] == 19.25
    assert small.compute_total_payment(user_id="u", dishes=[{"dish_name": "Dinner Set", "quantity": 1}])[
        "total"] == 15.4
    assert small.add_set_meal_to_order(user_id="u", set_meal_name="DINNER set", quantity=1)["status"] == "success"


def test_create_set_meal_replaces_existing(small):
    small.create_set_meal(set_meal_name="LUNCH SET", included_dishes=[], set_meal_price=3, set_meal_discount=1)
    assert list(small.store.set_meals) == ["lunch set", "fixed set"]
    assert small.get_set_meal_details(set_meal_name="lunch set") == {
        "name": "lunch set", "included_dishes": [], "price": 3, "discount": 1}


def test_create_set_meal_unknown_dish(small):
    before = small.snapshot()
    assert small.create_set_meal(set_meal_name="Bad", included_dishes=[
        {"dish_name": "pizza", "quantity": 1}, {"dish_name": "Ghost DISH", "quantity": 1}],
        set_meal_price=5, set_meal_discount=1) == {
        "status": "error", "message": "Dish 'Ghost DISH' not found in catalog."}
    # set meals are not dishes
    assert small.create_set_meal(set_meal_name="Bad", included_dishes=[{"dish_name": "Lunch Set", "quantity": 1}],
                                 set_meal_price=5, set_meal_discount=1)["message"] == (
        "Dish 'Lunch Set' not found in catalog.")
    assert small.snapshot() == before


def test_create_set_meal_item_without_dish_name(small):
    before = small.snapshot()
    result = small.create_set_meal(set_meal_name="Bad", included_dishes=[{"quantity": 1}], set_meal_price=5,
                                   set_meal_discount=1)
    assert result["status"] == "error" and result["message"].startswith("Failed to create set meal: ")
    assert small.snapshot() == before


# --- a fresh database per task ---------------------------------------------------------------------

def test_clones_do_not_share_writes(env):
    original = env.state_hash()
    clone = env.clone()
    clone.add_dish_to_order(user_id="customer_002", dish_name="focaccia", quantity=1)
    clone.remove_dish_from_order(user_id="customer_001", dish_name="margherita", quantity=0.5)
    clone.update_dish_discount(name="focaccia", new_discount=0.1)
    clone.create_set_meal(set_meal_name="New Set", included_dishes=[], set_meal_price=1, set_meal_discount=1)
    assert env.state_hash() == original
    assert lines(env, "customer_002")[-1] == {"dish_name": "focaccia", "quantity": 1}
    assert lines(env, "customer_001")[0] == {"dish_name": "margherita", "quantity": 1}
    assert env.store.catalog["focaccia"]["discount"] == 1.0 and "new set" not in env.store.set_meals
    assert lines(clone, "customer_002")[-1] == {"dish_name": "focaccia", "quantity": 2}
    assert lines(clone, "customer_001")[0] == {"dish_name": "margherita", "quantity": 0.5}
    assert clone.state_hash() != original
