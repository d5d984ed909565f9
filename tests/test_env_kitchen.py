"""Kitchen environment (TOOLS.md sections 1, 2, 4 and 8), tested against the spec.

Expected values are worked out by hand from tasks/egobench/data/databases/kitchen_init_data.json
or from the small seed built here.
"""

import pytest

from egoeval.tasks import egobench as suite
from egoeval.tools.canonical import state_hash
from egoeval.tools.egobench import KitchenEnv

KITCHEN_NUTRITION_KEYS = ["basis", "serving_size_g", "calories_kcal", "protein_g", "fat_g", "carbs_g", "sugar_g",
                          "fiber_g", "sodium_mg"]

RECIPES = ["chicken & broccoli stir-fry", "salmon & quinoa bowl", "beef & black bean stew",
           "yogurt & berry parfait", "turkey & apple soup", "pork & red bell pepper skillet",
           "roasted chickpeas & vegetables", "oat & banana pancakes", "lamb & potato stew", "egg & spinach frittata",
           "shrimp & asparagus stir-fry", "mushroom & thyme roast chicken", "cod & lemon dill bake",
           "duck & cherry salad", "tofu soup", "potato & greens salad", "roasted tomato salmon",
           "pork & chive dumplings", "green pepper chicken", "custom seasoned noodles", "deep-fried meat platter"]

SMALL = {
    "ingredients": [
        {"name": "Whole Milk", "quantity": 3, "expiry_date": "2026-05-10", "storage_location": "Fridge",
         "category": "Dairy", "nutrition": {"calories_kcal": 60, "protein_g": 3.2, "sodium_mg": None, "fiber_g": 0}},
        {"name": "Old Jam", "expiry_date": "2026-5-1", "storage_location": None,
         "nutrition": {"basis": "PER_SERVING", "sugar_g": 50}},
        {"name": "", "quantity": 9},
        {"quantity": 1},
        {"name": "Salt", "expiry_date": "", "storage_location": "fridge", "category": "SEASONING"},
    ],
    "recipes": [
        {"name": "Milk Toast",
         "ingredients": [{"ingredient_name": "Whole MILK", "quantity": 0.5},
                         {"ingredient_name": "Bread", "quantity": 1}],
         "steps": [{"step_number": 1, "description": "warm", "ingredients": ["milk 50g"], "action": "heat",
                    "tip": "gently"}],
         "allergens": ["Dairy", "GLUTEN"], "taste": ["Sweet", ""], "nutritional_characteristics": ["High_Calcium"],
         "nutrition": {"calories_kcal": 1}},
        {"name": "Plain Water", "ingredients": []},
        {"name": "", "ingredients": []},
    ],
    "user_menus": [
        {"user_id": "a", "recipes": ["MILK TOAST", "Plain Water"]},
        {"recipes": ["milk toast"]},
        {"user_id": "b", "recipes": []},
    ],
    "user_shopping_lists": [
        {"user_id": "a", "items": [{"ingredient_name": "Zucchini", "quantity": 2}, {"ingredient_name": "Apple"}]},
        {"items": [{"ingredient_name": "x", "quantity": 1}]},
    ],
}


@pytest.fixture
def env():
    return KitchenEnv.from_seed(suite.seed("kitchen_init_data"))


@pytest.fixture
def small():
    return KitchenEnv.from_seed(SMALL)


# --- the tool set and dispatch ----------------------------------------------------------

def test_the_28_documented_tools_are_exactly_the_kitchen_tools():
    assert set(KitchenEnv.tools) == {
        "get_cooking_steps", "get_recipe_allergens", "get_recipe_taste", "get_recipe_ingredients",
        "get_recipe_nutritional_characteristics", "find_recipes_by_allergen", "find_recipes_by_taste",
        "find_recipes_by_nutritional_characteristics", "find_recipes_by_ingredient", "get_all_recipe_names",
        "get_all_ingredient_names", "get_ingredient_shelf_life", "find_ingredients_by_expiry_date",
        "get_ingredient_location", "find_ingredients_by_location", "get_ingredient_nutrition",
        "get_ingredient_quantity", "get_ingredients_by_category", "find_ingredient_category", "get_current_menu",
        "get_current_shopping_list", "tally_total_nutritional_characteristics", "tally_total_tastes",
        "compute_total_nutritions", "add_recipe_to_menu", "remove_recipe_from_menu", "add_to_shopping_list",
        "remove_from_shopping_list",
    }


def test_calls_with_unknown_or_missing_arguments_fail_without_state_change(env):
    before = env.snapshot()
    with pytest.raises(TypeError):
        env.invoke("add_to_shopping_list", {"user_id": "cook_001", "ingredient_name": "eggs", "quantity": 1,
                                            "unit": "pcs"})
    with pytest.raises(TypeError):
        env.invoke("add_recipe_to_menu", {"user_id": "cook_001"})
    assert env.snapshot() == before
    assert env.invoke("get_current_menu", {"user_id": "cook_002"}) == {
        "user_id": "cook_002", "recipes": ["salmon & quinoa bowl", "turkey & apple soup"]}



def test_seed_loader_and_constructor_are_callable_by_name(env, small):
    """TOOLS.md 1.3 / 8.12: any member can be called, the seed loader included."""
    env.invoke("init_from_json", {"data": SMALL})
    assert env.snapshot() == small.snapshot()
    env.invoke("__init__", {})
    assert env.snapshot() == {"ingredients": {}, "recipes": {}, "user_menus": {}, "user_shopping_lists": {}}


# --- seed loading (4.1, 2.2, 2.5) -------------------------------------------------------

def test_seed_ingredient_record(env):
    assert env.ingredients["broccoli"] == {
        "name": "broccoli", "quantity": 10, "expiry_date": "2026-05-09", "storage_location": "fridge",
        "category": "vegetable",
        "nutrition": {"basis": "PER_100G", "serving_size_g": 100.0, "calories_kcal": 34.0, "protein_g": 2.8,
                      "fat_g": 0.4, "carbs_g": 6.6, "sugar_g": 1.7, "fiber_g": 2.6, "sodium_mg": 33.0}}
    assert len(env.ingredients) == 61 and len(env.recipes) == 21


def test_small_seed_defaults_and_skips(small):
    assert list(small.ingredients) == ["whole milk", "old jam", "salt"]  # nameless entries skipped
    milk = small.ingredients["whole milk"]
    assert milk["storage_location"] == "Fridge" and milk["category"] == "dairy"  # location kept as given
    assert milk["nutrition"] == {"basis": "PER_100G", "serving_size_g": None, "calories_kcal": 60,
                                 "protein_g": 3.2, "fat_g": None, "carbs_g": None, "sugar_g": None,
                                 "fiber_g": 0, "sodium_mg": None}
    jam = small.ingredients["old jam"]
    assert (jam["quantity"], jam["category"], jam["storage_location"]) == (0, "", None)
    assert jam["nutrition"]["basis"] == "PER_SERVING"
    assert small.ingredients["salt"]["nutrition"] == {"basis": "PER_100G", **dict.fromkeys(
        KITCHEN_NUTRITION_KEYS[1:])}
    assert list(small.recipes) == ["milk toast", "plain water"]
    toast = small.recipes["milk toast"]
    assert toast["ingredients"] == [{"ingredient_name": "whole milk", "quantity": 0.5},
                                    {"ingredient_name": "bread", "quantity": 1}]
    assert (toast["allergens"], toast["taste"], toast["nutritional_characteristics"]) == (
        ["dairy", "gluten"], ["sweet", ""], ["high_calcium"])
    assert small.user_menus == {"a": ["milk toast", "plain water"], "b": []}
    assert small.user_shopping_lists == {"a": {"zucchini": {"ingredient_name": "zucchini", "quantity": 2},
                                               "apple": {"ingredient_name": "apple", "quantity": 0}}}


def test_seed_duplicates_replace_without_merging_or_summing():
    env = KitchenEnv.from_seed({
        "ingredients": [{"name": "Egg", "quantity": 1}, {"name": "Ham", "quantity": 2}, {"name": "EGG", "quantity": 5}],
        "user_menus": [{"user_id": "u", "recipes": ["A"]}, {"user_id": "u", "recipes": ["B"]}],
        "user_shopping_lists": [{"user_id": "u", "items": [{"ingredient_name": "Egg", "quantity": 2},
                                                           {"ingredient_name": "egg", "quantity": 3}]}],
    })
    assert list(env.ingredients) == ["egg", "ham"] and env.ingredients["egg"]["quantity"] == 5
    assert env.user_menus == {"u": ["b"]}
    assert env.user_shopping_lists == {"u": {"egg": {"ingredient_name": "egg", "quantity": 3}}}


def test_snapshot_is_the_hashed_state_document(small):
    snap = small.snapshot()
    assert set(snap) == {"ingredients", "recipes", "user_menus", "user_shopping_lists"}
    assert snap["ingredients"]["old jam"] == {"name": "old jam", "quantity": 0, "category": "",
                                              "storage_location": None, "expiry_date": "2026-5-1",
                                              "nutrition": small.ingredients["old jam"]["nutrition"]}
    # recipe steps and recipe nutrition are not hashed
    assert snap["recipes"]["milk toast"] == {
        "name": "milk toast", "ingredients": [{"ingredient_name": "whole milk", "quantity": 0.5},
                                              {"ingredient_name": "bread", "quantity": 1}],
        "allergens": ["dairy", "gluten"], "taste": ["sweet", ""], "nutritional_characteristics": ["high_calcium"]}
    assert snap["user_menus"] == {"a": ["milk toast", "plain water"], "b": []}
    # shopping lists sorted by ingredient_name
    assert snap["user_shopping_lists"] == {"a": [{"ingredient_name": "apple", "quantity": 0},
                                                 {"ingredient_name": "zucchini", "quantity": 2}]}


# --- single-recipe queries --------------------------------------------------------------

def test_get_cooking_steps(env):
    result = env.get_cooking_steps(recipe_name="CUSTOM SEASONED NOODLES")
    assert result["recipe_name"] == "CUSTOM SEASONED NOODLES"  # echoed as given
    assert result["steps"] == [
        {"step_number": 1, "description": "boil and drain noodles", "ingredients": ["instant noodles 100g"],
         "action": "boil the instant noodles in water until cooked, then completely drain the water and set the "
                   "dry noodles aside"},
        {"step_number": 2, "description": "prep seasoning", "ingredients": ["garlic powder 2g", "black pepper 1g",
                                                                            "salt 1g"],
         "action": "place all the custom seasoning ingredients into an empty serving bowl"},
        {"step_number": 3, "description": "assemble soup", "ingredients": ["instant noodles 100g"],
         "action": "pour hot water into the serving bowl to mix with the seasonings, then place the cooked and "
                   "drained noodles into the broth"}]


def test_get_cooking_steps_returns_the_four_step_fields(small):
    assert small.get_cooking_steps(recipe_name="milk toast") == {"recipe_name": "milk toast", "steps": [
        {"step_number": 1, "description": "warm", "ingredients": ["milk 50g"], "action": "heat"}]}


def test_get_recipe_allergens(env):
    assert env.get_recipe_allergens(recipe_name="Tofu Soup") == {"recipe_name": "Tofu Soup",
                                                                 "allergens": ["soy", "gluten"]}
    assert env.get_recipe_allergens(recipe_name="beef & black bean stew")["allergens"] == []


def test_get_recipe_taste(env):
    assert env.get_recipe_taste(recipe_name="Duck & Cherry Salad") == {
        "recipe_name": "Duck & Cherry Salad", "taste": ["savory", "sweet", "sour"]}


def test_get_recipe_ingredients(env):
    assert env.get_recipe_ingredients(recipe_name="green pepper chicken") == {
        "recipe_name": "green pepper chicken", "ingredients": [
            {"ingredient_name": "chicken", "quantity": 2.0}, {"ingredient_name": "green bell pepper", "quantity": 1.5},
            {"ingredient_name": "olive oil", "quantity": 0.15}, {"ingredient_name": "soy sauce", "quantity": 0.1},
            {"ingredient_name": "salt", "quantity": 0.02}, {"ingredient_name": "black pepper", "quantity": 0.01}]}


def test_get_recipe_nutritional_characteristics(env):
    assert env.get_recipe_nutritional_characteristics(recipe_name="LAMB & POTATO STEW") == {
        "recipe_name": "LAMB & POTATO STEW", "nutritional_characteristics": ["high_protein", "high_fat",
                                                                             "high_calories"]}


@pytest.mark.parametrize("tool", ["get_cooking_steps", "get_recipe_allergens", "get_recipe_taste",
                                  "get_recipe_ingredients", "get_recipe_nutritional_characteristics"])
@pytest.mark.parametrize("name", ["Tofu Soup ", "tofu", "Pizza"])  # exact lookup, no trimming, no fuzziness
def test_recipe_query_not_found(env, tool, name):
    assert env.invoke(tool, {"recipe_name": name}) == {"status": "error", "message": f"Recipe '{name}' not found."}


# --- recipe finders ---------------------------------------------------------------------

def test_find_recipes_by_allergen(env):
    assert env.find_recipes_by_allergen(allergen="Fish") == {"allergen": "Fish", "recipes": [
        "salmon & quinoa bowl", "shrimp & asparagus stir-fry", "cod & lemon dill bake", "roasted tomato salmon"]}
    assert env.find_recipes_by_allergen(allergen="nuts") == {"allergen": "nuts", "recipes": []}


def test_find_recipes_by_taste(env):
    assert env.find_recipes_by_taste(taste="SALTY") == {"taste": "SALTY", "recipes": [
        "green pepper chicken", "custom seasoned noodles", "deep-fried meat platter"]}
    assert env.find_recipes_by_taste(taste="salt")["recipes"] == []  # element equality, not substring


def test_find_recipes_by_nutritional_characteristics(env):
    assert env.find_recipes_by_nutritional_characteristics(characteristic="Vegan") == {
        "characteristic": "Vegan",
        "recipes": ["roasted chickpeas & vegetables", "tofu soup", "potato & greens salad"]}


def test_find_recipes_by_ingredient(env):
    assert env.find_recipes_by_ingredient(ingredient_name="Cod") == {"ingredient_name": "Cod",
                                                                     "recipes": ["cod & lemon dill bake"]}
    assert env.find_recipes_by_ingredient(ingredient_name="GARLIC CHIVES")["recipes"] == ["pork & chive dumplings"]
    assert env.find_recipes_by_ingredient(ingredient_name="garlic")["recipes"] == []
    assert env.find_recipes_by_ingredient(ingredient_name="tofu ")["recipes"] == []


def test_get_all_recipe_names(env, small):
    assert env.get_all_recipe_names() == {"recipes": RECIPES}
    assert small.get_all_recipe_names() == {"recipes": ["milk toast", "plain water"]}


def test_get_all_ingredient_names(env):
    names = env.get_all_ingredient_names()["ingredients"]
    assert len(names) == 61
    assert names[:4] == ["broccoli", "potatoes", "green bell pepper", "carrots"]
    assert names[-2:] == ["tea", "cocoa powder"]


# --- single-ingredient queries ----------------------------------------------------------

def test_get_ingredient_shelf_life(env):
    assert env.get_ingredient_shelf_life(ingredient_name="Broccoli") == {"ingredient_name": "Broccoli",
                                                                         "expiry_date": "2026-05-09"}
    assert env.get_ingredient_shelf_life(ingredient_name="MUSHROOMS") == {"ingredient_name": "MUSHROOMS",
                                                                          "expiry_date": None}


def test_get_ingredient_location(env, small):
    assert env.get_ingredient_location(ingredient_name="SALT") == {"ingredient_name": "SALT",
                                                                   "storage_location": "spice_rack"}
    assert env.get_ingredient_location(ingredient_name="cod")["storage_location"] is None
    assert small.get_ingredient_location(ingredient_name="whole milk")["storage_location"] == "Fridge"


def test_get_ingredient_nutrition_lists_fiber_before_sodium(env):
    result = env.get_ingredient_nutrition(ingredient_name="Beef")
    assert result == {"ingredient_name": "Beef", "nutrition": {
        "basis": "PER_100G", "serving_size_g": 100.0, "calories_kcal": 250.0, "protein_g": 26.0, "fat_g": 15.0,
        "carbs_g": 0.0, "sugar_g": 0.0, "fiber_g": 0.0, "sodium_mg": 72.0}}
    assert list(result["nutrition"]) == KITCHEN_NUTRITION_KEYS


def test_get_ingredient_quantity(env):
    assert env.get_ingredient_quantity(ingredient_name="Rice") == {"ingredient_name": "Rice", "quantity": 50}
    assert env.get_ingredient_quantity(ingredient_name="tofu") == {"ingredient_name": "tofu", "quantity": 0}


def test_find_ingredient_category(env):
    assert env.find_ingredient_category(ingredient_name="Cheese") == {"ingredient_name": "Cheese",
                                                                      "category": "dairy/egg/soy"}


@pytest.mark.parametrize("tool", ["get_ingredient_shelf_life", "get_ingredient_location", "get_ingredient_nutrition",
                                  "get_ingredient_quantity", "find_ingredient_category"])
@pytest.mark.parametrize("name", ["Unicorn", "rice ", "bell pepper"])
def test_ingredient_query_not_found(env, tool, name):
    assert env.invoke(tool, {"ingredient_name": name}) == {"status": "error",
                                                           "message": f"Ingredient '{name}' not found."}


# --- ingredient finders -----------------------------------------------------------------

def test_find_ingredients_by_expiry_date(env):
    assert env.find_ingredients_by_expiry_date(date="2027-12") == {"date": "2027-12", "ingredients": [
        "rice", "spaghetti", "black beans", "salt", "black pepper", "cinnamon", "balsamic vinegar", "tea"]}
    # plain string comparison: "2027-12-01" < "2028"
    assert env.find_ingredients_by_expiry_date(date="2028")["ingredients"] == [
        "spaghetti", "black beans", "salt", "black pepper", "cinnamon", "balsamic vinegar", "tea"]
    # the empty date is <= every string; null expiry dates never match
    every = env.find_ingredients_by_expiry_date(date="")["ingredients"]
    assert len(every) == 53
    assert not {"mushrooms", "shrimp", "cod", "duck", "tofu", "thyme", "dill", "cherries"} & set(every)


def test_find_ingredients_by_expiry_date_is_string_comparison(small):
    # "2026-5-1" (1 May) sorts after "2026-05-05" as a string; an empty expiry date never matches
    assert small.find_ingredients_by_expiry_date(date="2026-05-05") == {
        "date": "2026-05-05", "ingredients": ["whole milk", "old jam"]}
    assert small.find_ingredients_by_expiry_date(date="2026-05-11")["ingredients"] == ["old jam"]


def test_find_ingredients_by_location(env, small):
    assert env.find_ingredients_by_location(location="Spice_Rack") == {
        "location": "Spice_Rack", "ingredients": ["salt", "black pepper", "garlic powder", "cinnamon"]}
    assert env.find_ingredients_by_location(location="counter")["ingredients"] == []
    # the stored location is lower-cased for the comparison
    assert small.find_ingredients_by_location(location="FRIDGE")["ingredients"] == ["whole milk", "salt"]


def test_find_ingredients_by_location_never_matches_a_null_location(env, small):
    assert env.find_ingredients_by_location(location="none")["ingredients"] == []
    assert small.find_ingredients_by_location(location="None")["ingredients"] == []


def test_find_ingredients_by_location_empty_query_does_not_match_null_locations(env):
    assert env.find_ingredients_by_location(location="") == {"location": "", "ingredients": []}


def test_get_ingredients_by_category(env, small):
    assert env.get_ingredients_by_category(category="FRUITS") == {
        "category": "FRUITS", "ingredients": ["apple", "banana", "strawberry", "cherries"]}
    assert env.get_ingredients_by_category(category="fruit")["ingredients"] == []
    assert small.get_ingredients_by_category(category="Seasoning")["ingredients"] == ["salt"]
    assert small.get_ingredients_by_category(category="")["ingredients"] == ["old jam"]


# --- menus ------------------------------------------------------------------------------

def test_get_current_menu(env):
    assert env.get_current_menu(user_id="cook_001") == {"user_id": "cook_001", "recipes": [
        "chicken & broccoli stir-fry", "tofu soup", "oat & banana pancakes", "mushroom & thyme roast chicken"]}
    assert env.get_current_menu(user_id="COOK_001") == {"user_id": "COOK_001", "recipes": []}
    assert "COOK_001" not in env.user_menus and "COOK_001" not in env.snapshot()["user_menus"]


def test_add_recipe_to_menu_appends(env):
    result = env.add_recipe_to_menu(user_id="cook_002", recipe_name="TOFU SOUP")
    assert result == {"status": "success", "message": "Recipe 'TOFU SOUP' added to menu.",
                      "menu": ["salmon & quinoa bowl", "turkey & apple soup", "tofu soup"]}
    assert env.user_menus["cook_002"] == ["salmon & quinoa bowl", "turkey & apple soup", "tofu soup"]


def test_add_recipe_to_menu_ignores_duplicates(env):
    before = env.snapshot()
    result = env.add_recipe_to_menu(user_id="cook_002", recipe_name="Salmon & Quinoa Bowl")
    assert result == {"status": "success", "message": "Recipe 'Salmon & Quinoa Bowl' already in menu.",
                      "menu": ["salmon & quinoa bowl", "turkey & apple soup"]}
    assert env.snapshot() == before


def test_add_recipe_to_menu_creates_menu_for_new_user(env):
    result = env.add_recipe_to_menu(user_id="newcomer", recipe_name="tofu soup")
    assert result == {"status": "success", "message": "Recipe 'tofu soup' added to menu.", "menu": ["tofu soup"]}
    assert env.snapshot()["user_menus"]["newcomer"] == ["tofu soup"]


@pytest.mark.parametrize("user", ["newcomer", "cook_002"])
def test_add_recipe_to_menu_unknown_recipe(env, user):
    before = env.snapshot()
    assert env.add_recipe_to_menu(user_id=user, recipe_name="Tofu Soup ") == {
        "status": "error", "message": "Recipe 'Tofu Soup ' not found."}
    assert env.snapshot() == before and "newcomer" not in env.user_menus


def test_menu_order_is_part_of_the_state(env):
    other = KitchenEnv.from_seed(suite.seed("kitchen_init_data"))
    for name in ("tofu soup", "green pepper chicken"):
        env.add_recipe_to_menu(user_id="cook_010", recipe_name=name)
    for name in ("green pepper chicken", "tofu soup"):
        other.add_recipe_to_menu(user_id="cook_010", recipe_name=name)
    assert env.user_menus["cook_010"][2:] == ["tofu soup", "green pepper chicken"]
    assert other.user_menus["cook_010"][2:] == ["green pepper chicken", "tofu soup"]
    assert env.state_hash() != other.state_hash()


def test_remove_recipe_from_menu(env):
    result = env.remove_recipe_from_menu(user_id="cook_001", recipe_name="Tofu Soup")
    assert result == {"status": "success", "message": "Recipe 'Tofu Soup' removed from menu.", "menu": [
        "chicken & broccoli stir-fry", "oat & banana pancakes", "mushroom & thyme roast chicken"]}
    assert env.user_menus["cook_001"] == result["menu"]


def test_remove_recipe_from_menu_keeps_an_empty_menu(env):
    env.remove_recipe_from_menu(user_id="cook_002", recipe_name="salmon & quinoa bowl")
    result = env.remove_recipe_from_menu(user_id="cook_002", recipe_name="turkey & apple soup")
    assert result == {"status": "success", "message": "Recipe 'turkey & apple soup' removed from menu.", "menu": []}
    assert env.user_menus["cook_002"] == [] and env.snapshot()["user_menus"]["cook_002"] == []


def test_remove_recipe_from_menu_errors(env):
    before = env.snapshot()
    assert env.remove_recipe_from_menu(user_id="cook_002", recipe_name="Tofu Soup") == {
        "status": "error", "message": "Recipe 'Tofu Soup' not found in menu.",
        "menu": ["salmon & quinoa bowl", "turkey & apple soup"]}
    assert env.remove_recipe_from_menu(user_id="ghost", recipe_name="tofu soup") == {
        "status": "error", "message": "No menu found for user 'ghost'."}
    assert env.snapshot() == before


# --- shopping lists ---------------------------------------------------------------------

def test_get_current_shopping_list(env):
    assert env.get_current_shopping_list(user_id="cook_002") == {"user_id": "cook_002", "items": [
        {"ingredient_name": "potatoes", "quantity": 10}, {"ingredient_name": "carrots", "quantity": 5},
        {"ingredient_name": "chicken", "quantity": 8}]}
    assert env.get_current_shopping_list(user_id="ghost") == {"user_id": "ghost", "items": []}
    assert "ghost" not in env.user_shopping_lists


def test_add_to_shopping_list_existing_line_with_string_quantity(env):
    result = env.add_to_shopping_list(user_id="cook_001", ingredient_name="BROCCOLI", quantity="2.5")
    assert result == {"status": "success", "message": "Added 2.5 x BROCCOLI to shopping list."}
    assert env.user_shopping_lists["cook_001"]["broccoli"] == {"ingredient_name": "broccoli", "quantity": 7.5}
    assert list(env.user_shopping_lists["cook_001"]) == ["broccoli", "beef", "rice", "soy sauce"]


def test_add_to_shopping_list_accepts_names_outside_the_catalog(env):
    result = env.add_to_shopping_list(user_id="new_cook", ingredient_name="Dragon Fruit ", quantity=3)
    assert result == {"status": "success", "message": "Added 3 x Dragon Fruit  to shopping list."}
    assert env.snapshot()["user_shopping_lists"]["new_cook"] == [{"ingredient_name": "dragon fruit ", "quantity": 3}]
    assert "dragon fruit " not in env.ingredients and "dragon fruit" not in env.ingredients


def test_add_to_shopping_list_parses_string_quantity_for_new_line(env):
    env.add_to_shopping_list(user_id="cook_002", ingredient_name="Eggs", quantity="4")
    qty = env.user_shopping_lists["cook_002"]["eggs"]["quantity"]
    assert qty == 4.0 and type(qty) is float


@pytest.mark.parametrize("quantity, message", [
    ("two", "Quantity must be a valid number."),
    ("", "Quantity must be a valid number."),
    (0, "Quantity must be greater than 0."),
    (-1.5, "Quantity must be greater than 0."),
    ("-3", "Quantity must be greater than 0."),
    ("0", "Quantity must be greater than 0."),
])
def test_add_to_shopping_list_rejects_bad_quantities(env, quantity, message):
    before = env.snapshot()
    result = env.add_to_shopping_list(user_id="new_cook", ingredient_name="eggs", quantity=quantity)
    assert result == {"status": "error", "message": message}
    assert env.snapshot() == before and "new_cook" not in env.user_shopping_lists


def test_remove_from_shopping_list(env):
    result = env.remove_from_shopping_list(user_id="cook_002", ingredient_name="CARROTS")
    assert result == {"status": "success", "message": "Removed 'CARROTS' from shopping list."}
    assert list(env.user_shopping_lists["cook_002"]) == ["potatoes", "chicken"]


def test_remove_from_shopping_list_keeps_an_empty_entry(env):
    for name in ("potatoes", "carrots", "chicken"):
        assert env.remove_from_shopping_list(user_id="cook_002", ingredient_name=name)["status"] == "success"
    assert env.user_shopping_lists["cook_002"] == {}
    assert env.snapshot()["user_shopping_lists"]["cook_002"] == []


def test_remove_from_shopping_list_errors(env):
    before = env.snapshot()
    assert env.remove_from_shopping_list(user_id="cook_002", ingredient_name="carrots ") == {
        "status": "error", "message": "'carrots ' not found in shopping list."}
    assert env.remove_from_shopping_list(user_id="ghost", ingredient_name="carrots") == {
        "status": "error", "message": "No shopping list found for user 'ghost'."}
    assert env.snapshot() == before


# --- tallies ----------------------------------------------------------------------------

def test_tally_total_nutritional_characteristics(env):
    recipes = ["Tofu Soup", "custom seasoned noodles", "Unknown Dish"]
    assert env.tally_total_nutritional_characteristics(user_id="cook_001", recipes=recipes) == {
        "user_id": "cook_001", "recipes": ["Tofu Soup", "custom seasoned noodles", "Unknown Dish"],
        "nutritional_characteristics": ["high_calories", "high_protein", "high_sodium", "low_fat", "vegan"]}


def test_tally_total_tastes(env, small):
    assert env.tally_total_tastes(user_id="u", recipes=["Yogurt & Berry Parfait", "GREEN PEPPER CHICKEN"]) == {
        "user_id": "u", "recipes": ["Yogurt & Berry Parfait", "GREEN PEPPER CHICKEN"],
        "tastes": ["mild", "salty", "savory", "sweet"]}
    assert env.tally_total_tastes(user_id="u", recipes=[])["tastes"] == []
    # empty strings are dropped
    assert small.tally_total_tastes(user_id="u", recipes=["milk toast"])["tastes"] == ["sweet"]


# --- compute_total_nutritions -----------------------------------------------------------

def test_compute_total_nutritions_uses_100g_units(env):
    before = env.snapshot()
    items = [{"ingredient_name": "Broccoli", "quantity": 2},
             {"ingredient_name": "rice", "quantity": "1.5"},  # string quantities are parsed
             {"ingredient_name": "Unicorn", "quantity": 5},  # unknown names are ignored
             {"ingredient_name": "salt", "quantity": "lots"},  # unparsable: skipped
             {"quantity": 3}]  # no name
    assert env.compute_total_nutritions(user_id="cook_001", ingredients=items) == {
        "user_id": "cook_001", "total_nutrition": {
            "calories_kcal": 615.5, "protein_g": 16.25, "fat_g": 1.85, "carbs_g": 133.2, "sugar_g": 3.55,
            "fiber_g": 7.15, "sodium_mg": 73.5}}
    assert env.snapshot() == before


def test_compute_total_nutritions_nulls_count_as_zero_and_basis_is_ignored(small):
    result = small.compute_total_nutritions(user_id="u", ingredients=[
        {"ingredient_name": "whole milk", "quantity": 2}, {"ingredient_name": "OLD JAM", "quantity": 1}])
    assert result["total_nutrition"] == {"calories_kcal": 120, "protein_g": 6.4, "fat_g": 0.0, "carbs_g": 0.0,
                                         "sugar_g": 50, "fiber_g": 0, "sodium_mg": 0.0}


def test_compute_total_nutritions_negative_and_empty(env):
    result = env.compute_total_nutritions(user_id="u", ingredients=[{"ingredient_name": "Salt", "quantity": -1}])
    assert result["total_nutrition"]["sodium_mg"] == -38758.0
    zero = {"calories_kcal": 0.0, "protein_g": 0.0, "fat_g": 0.0, "carbs_g": 0.0, "sugar_g": 0.0, "fiber_g": 0.0,
            "sodium_mg": 0.0}
    assert env.compute_total_nutritions(user_id="u", ingredients=[]) == {"user_id": "u", "total_nutrition": zero}
    assert env.compute_total_nutritions(user_id="u", ingredients=[{"ingredient_name": "tofu"}])["total_nutrition"] \
        == zero


# --- state isolation --------------------------------------------------------------------

def test_clones_do_not_share_writes(env):
    before = env.snapshot()
    twin = env.clone()
    twin.add_recipe_to_menu(user_id="cook_001", recipe_name="green pepper chicken")
    twin.add_to_shopping_list(user_id="cook_001", ingredient_name="rice", quantity=1)
    twin.remove_from_shopping_list(user_id="cook_002", ingredient_name="carrots")
    twin.remove_recipe_from_menu(user_id="cook_003", recipe_name="duck & cherry salad")
    assert env.snapshot() == before
    assert twin.user_shopping_lists["cook_001"]["rice"]["quantity"] == 11
    assert env.user_shopping_lists["cook_001"]["rice"]["quantity"] == 10
    assert env.state_hash() != twin.state_hash()


def _ops(env):
    env.add_recipe_to_menu(user_id="cook_001", recipe_name="Green Pepper Chicken")
    env.remove_recipe_from_menu(user_id="cook_002", recipe_name="salmon & quinoa bowl")
    env.add_recipe_to_menu(user_id="new_cook", recipe_name="tofu soup")
    env.add_to_shopping_list(user_id="cook_001", ingredient_name="Rice", quantity="0.5")
    env.add_to_shopping_list(user_id="new_cook", ingredient_name="Eggs", quantity=2)
    env.remove_from_shopping_list(user_id="cook_004", ingredient_name="lemon")


def test_clone_ends_in_the_same_state_and_hash_as_a_fresh_environment(env):
    plain = KitchenEnv.from_seed(suite.seed("kitchen_init_data"))
    original_hash = env.state_hash()
    twin = env.clone()
    grandchild = twin.clone()
    assert twin.state_hash() == original_hash == state_hash(env.snapshot())
    for target in (plain, twin, grandchild):
        _ops(target)
    assert twin.snapshot() == plain.snapshot() == grandchild.snapshot()
    assert twin.state_hash() == plain.state_hash() == grandchild.state_hash() == state_hash(plain.snapshot())
    assert env.state_hash() == original_hash
    env.remove_recipe_from_menu(user_id="cook_001", recipe_name="tofu soup")
    assert "tofu soup" in twin.user_menus["cook_001"] and twin.state_hash() == plain.state_hash()
