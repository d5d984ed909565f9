"""Retail of the 2026 release (docs/egobench2/retail.md): every change since the first
release, the unchanged rest (compared with the first-release environment on the same
inputs), and a replay of the 2026 ground truth of retail1 ... retail10 on their seeds.

Expected values are worked out by hand from the reference's rules (docs/egobench2/retail.md,
TOOLS.md section 3) on the small seed built here.

Seeds: ``retail<N>`` uses ``retail_init_data<N>``. The 2026 seeds are looked for in the
package data (tasks/egobench2/data/databases/), then in the copy being made beside the
repository (../scratch/retail_a/json/); while neither has them, the first release's seeds
(tasks/egobench/data/databases/) stand in, and ``test_the_2026_retail_seeds_are_in_use``
is skipped with a note saying so. Task files: the package copy, else ../shared/egobench2.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from egoeval.tools.egobench import RetailEnv as FirstReleaseRetailEnv
from egoeval.tools.egobench2.retail import RetailEnv
from egoeval.tools.registry import ToolRegistry

REPO = Path(__file__).resolve().parents[1]
REG = ToolRegistry()

#: where a retail seed may be, best first, with what it is
SEED_DIRS = (
    (REPO / "tasks" / "egobench2" / "data" / "databases", "2026"),
    (REPO.parent / "scratch" / "retail_a" / "json", "2026"),
    (REPO / "tasks" / "egobench" / "data" / "databases", "first release (stand-in for the 2026 seed)"),
)
TASK_DIRS = (REPO / "tasks" / "egobench2" / "data" / "tasks", REPO.parent / "shared" / "egobench2" / "scenarios" / "final")
SCHEMA_FILES = (REPO / "tasks" / "egobench2" / "data" / "tools" / "retail.json",
                REPO.parent / "shared" / "egobench2" / "tools" / "retail" / "retail_tools.json")

#: tool names the 2026 ground truth calls that exist in neither release (skipped in replay)
UNKNOWN_GT_TOOLS = {"get_country_of_origin", "get_taste", "get_allergens", "get_nutritional_characteristics",
                    "get_discount "}

TOOLS_2026 = {
    "add_product", "delete_product", "find_products_by_nutritional_characteristic", "find_products_by_taste",
    "find_products_by_country_of_origin", "get_price", "find_products_by_price_range", "get_tax_rate",
    "get_category", "get_discount", "get_nutrition", "list_discounted_products", "add_to_cart", "get_cart",
    "remove_from_cart", "clear_cart", "compute_total_payment", "compute_total_tax", "compute_total_nutrition",
    "get_shopping_list",
}

#: every member callable by name, with its parameters (the scorer filters by these)
MEMBERS_2026 = {
    "add_product": ("product_name", "category", "price", "tax_rate", "discount", "nutritional_characteristics",
                    "taste", "country_of_origin", "nutrition", "allergens", "sell_type"),
    "delete_product": ("product_name",),
    "find_products_by_nutritional_characteristic": ("characteristic",),
    "find_products_by_taste": ("taste",),
    "find_products_by_country_of_origin": ("country",),
    "get_price": ("product_name",), "get_tax_rate": ("product_name",), "get_category": ("product_name",),
    "get_discount": ("product_name",), "get_nutrition": ("product_name",),
    "find_products_by_price_range": ("min_price", "max_price"),
    "list_discounted_products": (),
    "add_to_cart": ("user_id", "product_name", "qty", "category", "price", "tax_rate", "discount"),
    "get_cart": ("user_id",), "clear_cart": ("user_id",), "get_shopping_list": ("user_id",),
    "remove_from_cart": ("user_id", "product_name", "qty"),
    "compute_total_payment": ("user_id", "products"), "compute_total_tax": ("user_id", "products"),
    "compute_total_nutrition": ("user_id", "products"),
    "init_from_json": ("data",), "_find_matching_products": ("query",), "__init__": (),
}

SMALL = {
    "products": [
        {"name": "Red Wine", "category": "Wine", "price": 10, "tax_rate": 0.1, "discount": 0.5,
         "nutritional_characteristics": ["Low_Fat"], "taste": ["Sweet"], "country_of_origin": "France",
         "nutrition": {"basis": "PER_100G", "calories_kcal": 80}, "allergens": ["Grapes"], "sell_type": "BOTTLE"},
        {"name": "Red Wine Reserve", "category": "Wine", "price": 30, "tax_rate": 0.1, "discount": 1.0,
         "nutritional_characteristics": [], "taste": ["Dry"], "country_of_origin": "Spain",
         "nutrition": {"basis": "PER_100G", "calories_kcal": 85}, "allergens": ["grapes"]},
        {"name": "Cheddar", "category": "Cheese", "price": 5.5, "tax_rate": 0.2, "discount": 0.9,
         "nutritional_characteristics": ["high_protein"], "taste": ["Salty"], "country_of_origin": "UK",
         "nutrition": {"basis": "PER_SERVING", "calories_kcal": 400, "protein_g": 25}, "allergens": ["MILK"]},
    ],
    "user_carts": [
        {"user_id": "u1", "items": [{"product_name": "Red Wine", "quantity": 2}, {"product_name": "Cheddar", "quantity": 1}]},
        {"user_id": "u2", "items": [{"product_name": "red wine reserve", "quantity": 1}]},
    ],
    "user_shopping_lists": [{"user_id": "u1", "items": [{"product_name": "Cheddar", "quantity": 3}]}],
}

GIN = dict(category="Liquor", price=50, tax_rate=0.1, discount=0.9, nutritional_characteristics=["Low_Sugar"],
           taste=["Bitter", "DRY"], country_of_origin="Japan", nutrition={"basis": "PER_100G", "calories_kcal": 250})


def _read(path: Path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def seed_source(n: int) -> tuple[Path, str]:
    for folder, what in SEED_DIRS:
        path = folder / f"retail_init_data{n}.json"
        if path.exists():
            return path, what
    pytest.skip(f"no retail_init_data{n}.json at hand")


def task_file(n: int) -> list:
    for folder in TASK_DIRS:
        path = folder / f"retail{n}.json"
        if path.exists():
            return _read(path)
    pytest.skip(f"the 2026 task file retail{n}.json is not at hand")


def schema() -> list:
    for path in SCHEMA_FILES:
        if path.exists():
            return _read(path)
    pytest.skip("the 2026 retail schema is not at hand")


@pytest.fixture
def env():
    return RetailEnv.from_seed(SMALL)


@pytest.fixture
def old():
    return FirstReleaseRetailEnv.from_seed(SMALL)


# --- the tool set and signatures -----------------------------------------------------------

def test_the_20_tools_of_2026():
    assert set(RetailEnv.tools) == TOOLS_2026
    assert set(FirstReleaseRetailEnv.tools) - set(RetailEnv.tools) == {"find_products_by_allergen"}


def test_members_and_parameters_equal_the_reference():
    assert RetailEnv.members == MEMBERS_2026


def test_add_product_defaults_equal_the_reference():
    import inspect
    params = inspect.signature(RetailEnv.add_product).parameters
    assert params["allergens"].default is None and params["sell_type"].default == "single_item"
    assert all(params[p].default is inspect.Parameter.empty for p in MEMBERS_2026["add_product"][:9])


def test_schema_matches_the_implementation():
    tools = {t.get("function", t)["tool_name"]: t.get("function", t)["parameters"] for t in schema()}
    assert set(tools) == TOOLS_2026
    for name, spec in tools.items():
        declared = set(RetailEnv.members[name])
        props = set(spec.get("properties", {}))
        assert props <= declared, name
        assert declared - props == ({"sell_type"} if name == "add_product" else set()), name
        assert set(spec.get("required", [])) <= props, name
    # the 4ed7ec2 schema lists nutrition as required (the implementation has no default for it)
    assert "nutrition" in tools["add_product"]["required"] and "allergens" not in tools["add_product"]["required"]


# --- find_products_by_allergen is gone -------------------------------------------------------

def test_find_products_by_allergen_is_not_callable(env):
    assert not hasattr(RetailEnv, "find_products_by_allergen")
    assert not hasattr(env, "find_products_by_allergen")
    assert "find_products_by_allergen" not in RetailEnv.members
    assert RetailEnv.params_of("find_products_by_allergen") is None  # the scorer: an unknown tool
    with pytest.raises(KeyError):
        env.invoke("find_products_by_allergen", {"allergen": "milk"})
    # the first release still has it
    assert FirstReleaseRetailEnv.from_seed(SMALL).find_products_by_allergen(allergen="milk") == \
        {"product_names": ["cheddar"]}


def test_find_products_by_allergen_live_answer(env):
    before = env.state_hash()
    r = REG.execute(env, {"tool_name": "find_products_by_allergen", "parameters": {"allergen": "milk"}})
    assert json.loads(r.content) == {"error": "Tool 'find_products_by_allergen' not found"}
    assert r.error == "unknown_tool" and env.state_hash() == before


# --- add_product takes product_name ----------------------------------------------------------

def test_add_product_with_product_name(env):
    r = env.add_product(product_name="Test GIN", **GIN)
    assert r == {"status": "success", "message": "Product 'Test GIN' added/updated successfully."}
    p = env.products["test gin"]
    assert p == {"name": "test gin", "category": "liquor", "sell_type": "single_item", "price": 50, "tax_rate": 0.1,
                 "discount": 0.9, "nutritional_characteristics": ["low_sugar"], "taste": ["bitter", "dry"],
                 "country_of_origin": "japan",
                 "nutrition": {"basis": "PER_100G", "serving_size_g": None, "calories_kcal": 250, "protein_g": None,
                               "fat_g": None, "carbs_g": None, "sugar_g": None, "sodium_mg": None, "fiber_g": None},
                 "allergens": []}
    assert list(env.products)[-1] == "test gin"


def test_add_product_replaces_in_place_and_leaves_carts_alone(env):
    cart_before = env.snapshot()["user_carts"]
    r = env.add_product(product_name="RED WINE", category="Wine", price=12, tax_rate=0.1, discount=1.0,
                        nutritional_characteristics=[], taste=[], country_of_origin="Italy",
                        nutrition={"basis": "PER_SERVING"}, sell_type="Glass")
    assert r["message"] == "Product 'RED WINE' added/updated successfully."
    assert list(env.products) == ["red wine", "red wine reserve", "cheddar"]  # position kept
    assert env.products["red wine"]["price"] == 12 and env.products["red wine"]["sell_type"] == "glass"
    assert env.snapshot()["user_carts"] == cart_before  # cart lines keep their own copies


def test_add_product_same_state_as_the_first_release_with_name(env, old):
    env.add_product(product_name="Test Gin", allergens=["Juniper"], sell_type="Bottle", **GIN)
    old.add_product(name="Test Gin", allergens=["Juniper"], sell_type="Bottle", **GIN)
    assert env.products == old.products and env.state_hash() == old.state_hash()
    assert env.products["test gin"]["allergens"] == ["Juniper"]  # as given, not lower-cased


def test_add_product_with_the_old_name_key_fails(env):
    before = env.state_hash()
    with pytest.raises(TypeError):  # live: unexpected argument
        env.invoke("add_product", {"name": "Gin", **GIN})
    # the scorer drops `name` (not a declared parameter); the call then misses product_name
    params = {k: v for k, v in {"name": "Gin", **GIN}.items() if k in RetailEnv.params_of("add_product")}
    with pytest.raises(TypeError):
        env.invoke("add_product", params)
    assert env.state_hash() == before


def test_add_product_needs_nutrition(env):
    with pytest.raises(TypeError):
        env.invoke("add_product", {"product_name": "Gin", **{k: v for k, v in GIN.items() if k != "nutrition"}})


@pytest.mark.parametrize("nutrition", [
    {"calories_kcal": 1},                      # basis is required
    {"basis": "PER_100G", "vitamin_c": 3},     # unknown field
    "PER_100G",                                # not an object
    None,
])
def test_add_product_bad_nutrition_is_reported_and_changes_nothing(env, nutrition):
    before = env.state_hash()
    r = env.add_product(product_name="Gin", **{**GIN, "nutrition": nutrition})
    assert r["status"] == "error" and r["message"].startswith("Failed to add/update product: ")
    assert set(r) == {"status", "message"} and "gin" not in env.products and env.state_hash() == before


def test_add_product_non_string_name_is_reported(env):
    before = env.state_hash()
    r = env.add_product(product_name=7, **GIN)
    assert r["status"] == "error" and r["message"].startswith("Failed to add/update product: ")
    assert env.state_hash() == before


@pytest.mark.parametrize("allergens,stored", [
    (None, []), ([], []), ("", []), (0, []), (False, []), ({}, []),
    (["Milk", "soy"], ["Milk", "soy"]), ("nuts", "nuts"),
])
def test_add_product_keeps_allergens_only_when_truthy(env, allergens, stored):
    env.add_product(product_name="Gin", allergens=allergens, **GIN)
    assert env.products["gin"]["allergens"] == stored


def test_allergens_and_sell_type_are_not_hashed(env):
    a, b = env.clone(), env.clone()
    a.add_product(product_name="Gin", allergens=["milk"], sell_type="bottle", **GIN)
    b.add_product(product_name="Gin", **GIN)
    assert a.state_hash() == b.state_hash()
    assert set(a.snapshot()["catalog"]["gin"]) == {"name", "category", "price", "tax_rate", "discount",
                                                    "nutritional_characteristics", "taste", "country_of_origin",
                                                    "nutrition"}


def test_registry_add_product_with_schema_names(env):
    call = {"tool_name": "add_product", "parameters": {"product_name": "Gin", **GIN}}
    r = REG.execute(env, call)
    assert json.loads(r.content) == {"status": "success", "message": "Product 'Gin' added/updated successfully."}
    assert r.error is None and "gin" in env.products


# --- delete_product takes product_name -------------------------------------------------------

def test_delete_product_with_product_name_deletes_every_match(env):
    r = env.delete_product(product_name="RED WINE")
    assert r == {"status": "success", "message": "Deleted 2 product(s): red wine, red wine reserve",
                 "deleted_products": ["red wine", "red wine reserve"]}
    assert list(env.products) == ["cheddar"]
    carts = env.snapshot()["user_carts"]
    assert [line["product_name"] for line in carts["u1"]] == ["cheddar"]
    assert carts["u2"] == []  # an emptied cart stays, empty
    assert env.get_cart(user_id="u2") == {"cart_items": []}


def test_delete_product_longer_query_matches_the_contained_name(env):
    r = env.delete_product(product_name="Cheddar 200g block")
    assert r["deleted_products"] == ["cheddar"] and r["message"] == "Deleted 1 product(s): cheddar"


def test_delete_product_no_match(env):
    before = env.state_hash()
    assert env.delete_product(product_name="Gouda") == {"status": "error",
                                                        "message": "No matching products found for 'Gouda'."}
    assert env.state_hash() == before


def test_delete_product_same_state_as_the_first_release_with_name(env, old):
    assert env.delete_product(product_name="wine") == old.delete_product(name="wine")
    assert env.snapshot() == old.snapshot() and env.state_hash() == old.state_hash()


def test_delete_product_with_the_old_name_key_fails(env):
    before = env.state_hash()
    with pytest.raises(TypeError):
        env.invoke("delete_product", {"name": "cheddar"})
    with pytest.raises(TypeError):  # after the scorer's filter: no arguments left
        env.invoke("delete_product", {})
    assert env.state_hash() == before


def test_delete_product_non_string_query_raises(env):
    with pytest.raises(AttributeError):
        env.invoke("delete_product", {"product_name": 5})


def test_writes_on_a_clone_leave_the_original_alone(env):
    original = env.state_hash()
    twin = env.clone()
    twin.delete_product(product_name="red wine")
    twin.add_product(product_name="Gin", **GIN)
    assert env.state_hash() == original and RetailEnv.from_seed(SMALL).state_hash() == original
    assert twin.state_hash() != original


# --- everything else is the first release's -----------------------------------------------------

UNCHANGED_CALLS = [
    ("get_price", {"product_name": "red"}), ("get_price", {"product_name": "Gouda"}),
    ("get_tax_rate", {"product_name": "Cheddar"}), ("get_category", {"product_name": "wine"}),
    ("get_discount", {"product_name": "RED WINE RESERVE 75cl"}), ("get_nutrition", {"product_name": "cheddar"}),
    ("find_products_by_nutritional_characteristic", {"characteristic": "LOW_FAT"}),
    ("find_products_by_taste", {"taste": "dry"}), ("find_products_by_country_of_origin", {"country": "uk"}),
    ("find_products_by_price_range", {"min_price": 5, "max_price": 10}),
    ("find_products_by_price_range", {"min_price": 9, "max_price": 1}),
    ("find_products_by_price_range", {"min_price": -1, "max_price": 1}),
    ("list_discounted_products", {}),
    ("get_cart", {"user_id": "u1"}), ("get_cart", {"user_id": "nobody"}),
    ("get_shopping_list", {"user_id": "u1"}), ("get_shopping_list", {"user_id": "nobody"}),
    ("add_to_cart", {"user_id": "u3", "product_name": "Cheddar", "qty": 2, "category": "Cheese", "price": 5.5,
                     "tax_rate": 0.2, "discount": 0.9}),
    ("add_to_cart", {"user_id": "u1", "product_name": "CHEDDAR", "qty": 1, "category": "Dairy", "price": 6,
                     "tax_rate": 0.2, "discount": 1}),
    ("add_to_cart", {"user_id": "u1", "product_name": "x", "qty": 0, "category": "c", "price": 1,
                     "tax_rate": 0, "discount": 1}),
    ("add_to_cart", {"user_id": "u1", "product_name": "x", "qty": 1, "category": "c", "price": 1,
                     "tax_rate": 0, "discount": 1.5}),
    ("remove_from_cart", {"user_id": "u1", "product_name": "red wine", "qty": 1}),
    ("remove_from_cart", {"user_id": "u2", "product_name": "Red Wine Reserve", "qty": 5}),
    ("remove_from_cart", {"user_id": "u2", "product_name": "gouda", "qty": 1}),
    ("clear_cart", {"user_id": "u3"}), ("clear_cart", {"user_id": "u3"}),
    ("compute_total_payment", {"user_id": "u1", "products": [{"product_name": "Red Wine", "quantity": 3},
                                                              {"product_name": "gouda", "quantity": 1},
                                                              {"product_name": "cheddar", "quantity": 0}]}),
    ("compute_total_tax", {"user_id": "u1", "products": [{"product_name": "cheddar", "quantity": 2}]}),
    ("compute_total_nutrition", {"user_id": "u1", "products": [{"product_name": "cheddar", "quantity": 2},
                                                                {"product_name": "red wine", "quantity": 1}]}),
    ("compute_total_payment", {"user_id": "u1", "products": []}),
    ("_find_matching_products", {"query": "Red Wine Reserve 75cl"}),
]


def test_every_other_tool_answers_and_changes_state_as_in_the_first_release(env, old):
    for name, params in UNCHANGED_CALLS:
        assert env.invoke(name, params) == old.invoke(name, params), (name, params)
        assert env.snapshot() == old.snapshot(), (name, params)
    assert env.state_hash() == old.state_hash()


def test_hand_worked_results_of_unchanged_tools(env):
    assert env.compute_total_payment(user_id="u9", products=[{"product_name": "Red Wine", "quantity": 3}]) == {
        "user_id": "u9", "total": 15.0, "details": [{"product_name": "red wine", "quantity": 3, "subtotal": 15.0}],
        "status": "success", "message": "Calculation completed successfully."}
    assert env.get_price(product_name="red wine") == {
        "products": [{"product_name": "red wine", "price": 10}, {"product_name": "red wine reserve", "price": 30}],
        "count": 2}


def test_seed_loader_and_constructor_are_callable_by_name(env):
    env.invoke("init_from_json", {"data": {"products": [{"name": "Only One", "price": 2}]}})
    assert list(env.products) == ["only one"] and set(env.user_carts) == {"u1", "u2"}  # absent sections stay
    env.invoke("__init__", {})
    assert env.snapshot() == {"catalog": {}, "user_carts": {}, "user_shopping_lists": {}}


@pytest.mark.xfail(strict=True, reason="first-release loader (tools/egobench/retail.py) reads a non-object "
                                       "nutrition as an empty record; the reference fails the load there "
                                       "(docs/egobench2/retail.md section 7.3)")
def test_seed_product_with_non_object_nutrition_fails_the_load_like_the_reference(env):
    seed = {"products": [{"name": "A", "nutrition": {"basis": "PER_100G"}}, {"name": "B", "nutrition": None},
                         {"name": "C"}]}
    with pytest.raises(AttributeError):
        env.invoke("init_from_json", {"data": seed})
    assert list(env.products) == ["a"]


# --- the 2026 seeds and ground truth ---------------------------------------------------------

def test_the_2026_retail_seeds_are_in_use():
    sources = {seed_source(n)[1] for n in range(1, 11)}
    if sources != {"2026"}:
        pytest.skip("the 2026 retail seeds are not at hand yet; the seed-based tests below use the first "
                    "release's seeds (tasks/egobench/data/databases/) as stand-ins")


@pytest.mark.parametrize("n", range(1, 11))
def test_seed_hashes_the_same_under_both_releases(n):
    path, _ = seed_source(n)
    raw = _read(path)
    new, first = RetailEnv.from_seed(raw), FirstReleaseRetailEnv.from_seed(raw)
    assert new.snapshot() == first.snapshot() and new.state_hash() == first.state_hash()
    assert list(new.products) == list(dict.fromkeys(p["name"].lower() for p in raw["products"]))


@pytest.mark.parametrize("n", range(1, 11))
def test_ground_truth_products_are_in_the_seed_of_the_same_number(n):
    """retail<N> uses retail_init_data<N>: every product a GT add_to_cart names is a catalog key."""
    path, what = seed_source(n)
    catalog = RetailEnv.from_seed(_read(path)).products
    missing = {c["parameters"]["product_name"] for t in task_file(n) for c in t["ground_truth"]
               if c.get("tool_name") == "add_to_cart" and c["parameters"]["product_name"].lower() not in catalog}
    assert not missing, f"seed: {path} ({what})"


@pytest.mark.parametrize("n", range(1, 11))
def test_ground_truth_replays_on_its_seed(n):
    """Each task's GT, replayed the way the evaluator does (signature filter, unknown tools
    skipped), runs without an exception, on a fresh copy of its seed; the state hashes."""
    path, what = seed_source(n)
    seed_env = RetailEnv.from_seed(_read(path))
    tasks = task_file(n)
    assert tasks
    unknown: set = set()
    for task in tasks:
        env = seed_env.clone()
        for call in task["ground_truth"]:
            name = call.get("tool_name") or call.get("name")
            names = RetailEnv.params_of(name)
            if names is None:
                unknown.add(name)
                continue
            params = {k: v for k, v in call.get("parameters", {}).items() if k in names}
            try:
                env.invoke(name, params)
            except Exception as exc:  # noqa: BLE001 - reported below
                pytest.fail(f"retail{n} task {task.get('scenario_id')}: {name}({params}) raised {exc!r}; "
                            f"seed: {path} ({what})")
        assert len(env.state_hash()) == 64
    assert unknown <= UNKNOWN_GT_TOOLS
    assert seed_env.state_hash() == RetailEnv.from_seed(_read(path)).state_hash()  # clones left it alone
