"""Household environment (EgoBench 2026 release; docs/egobench2/household.md).

The first group restates, as our own tests, every check of the official
``tools/household/household_test.py`` (same inputs, same expectations). The rest are
our own edge cases, worked out by hand from the behaviour document and from the
small seeds built here. Tests on the released seeds skip when the seed JSON is not yet
shipped under tasks/egobench2/data/databases/.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from datetime import date
from pathlib import Path

import pytest

from egoeval.tools.canonical import canonical_json, state_hash
from egoeval.tools.egobench2.household import ACTIONS, HouseholdEnv, parse_day

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tasks" / "egobench2" / "data"
SHARED2 = REPO.parent / "shared" / "egobench2"
VARIANTS = range(1, 19)

INSTRUCTIONS = ("Usage: handle {name} gently; maintenance requirements are clean every 7 days; "
                "inspect every 3 months; wash every 1 month. Maximum service life is 5 years from purchase.")


# --- builders -----------------------------------------------------------------------------

def item(name: str, **over) -> dict:
    """A valid seed item (seen in the video, so the coverage rules do not apply)."""
    record = {
        "name": name, "category": "tableware", "ideal_storage_location": "kitchen_cabinet",
        "purchase_date": "2024-03-05", "purchase_price": 29.0,
        "usage_history": ["2024-09-05/PRESENT"],
        "maintenance_history": [{"date": "2024-07-15", "action": "wash"}, {"date": "2024-10-02", "action": "clean"},
                                {"date": "2025-04-10", "action": "inspect"}],
        "care_and_usage_instructions": INSTRUCTIONS.format(name=name),
        "appears_in_video": True,
    }
    record.update(over)
    return record


def action(name: str, required_action: str = "clean", due_date: str = "2026-08-20") -> dict:
    return {"name": name, "required_action": required_action, "due_date": due_date}


def small_seed() -> dict:
    """45 items: five special ones first, then 40 fillers."""
    items = [
        item("Cup"),
        item("Board Game Box", category="storage_item", ideal_storage_location="storage_room",
             purchase_date="2022-08-05", purchase_price=129.5,
             usage_history=["2022-08-25/2023-01-21", "2024-02-22/2024-08-30", "2025-06-19/PRESENT"],
             maintenance_history=[{"date": "2023-01-16", "action": "clean"}, {"date": "2023-06-30", "action": "inspect"},
                                  {"date": "2024-03-23", "action": "wash"}]),
        item("Old Lamp", category="lighting", ideal_storage_location="study", purchase_date=None,
             purchase_price=0, usage_history=["2019-01-01/2019-12-31"],
             maintenance_history=[{"date": "2019-02-01", "action": "clean"}, {"date": "2019-03-01", "action": "clean"},
                                  {"date": "2019-04-01", "action": "inspect"}]),
        item("Blanket", category="bedding", ideal_storage_location="linen_closet", purchase_date="2016-08-20",
             purchase_price=350, usage_history=["PURCHASE_DATE/2020-05-01"]),
        item("Café Mug", purchase_date="2026-08-01", purchase_price=12.25, usage_history=[],
             maintenance_history=[{"date": "2026-08-01", "action": "wash"}] * 3),
    ]
    items += [item(f"Filler {i:02d}", category="other", ideal_storage_location="garage", purchase_price=float(i))
              for i in range(40)]
    return {
        "items": items,
        "household_action_lists": [
            {"user_id": "household_user_01", "actions": [action("Cup", "wash", "2026-08-18"),
                                                         action("Blanket", "dry", "2026-08-19"),
                                                         action("Cup", "clean", "2026-08-10")]},
            {"user_id": "household_user_02", "actions": [action("Old Lamp", "dispose", "2026-09-01"),
                                                         action("Old Lamp", "dispose", "2026-09-01"),
                                                         action("Board Game Box", "inspect", "2026-8-2")]},
            {"user_id": "household_user_03", "actions": [action("Filler 00"), action("Filler 01"),
                                                         action("Filler 02")]},
        ],
    }


SMALL = small_seed()


@pytest.fixture
def small():
    return HouseholdEnv.from_seed(SMALL)


def seed_path(n: int) -> Path:
    return DATA / "databases" / f"household_init_data{n}.json"


def released_seed(n: int) -> dict:
    path = seed_path(n)
    if not path.exists():
        pytest.skip(f"{path.relative_to(REPO)} is not shipped yet")
    return json.loads(path.read_text(encoding="utf-8"))


def task_file(n: int) -> list:
    for path in (DATA / "tasks" / f"household{n}.json", DATA / "scenarios" / f"household{n}.json",
                 SHARED2 / "scenarios" / "final" / f"household{n}.json"):
        if path.exists():
            return json.loads(path.read_text(encoding="utf-8"))
    pytest.skip(f"household{n}.json is not available")


def schema_file() -> list:
    for path in (DATA / "tools" / "household.json", DATA / "tools" / "household_tools.json",
                 SHARED2 / "tools" / "household" / "household_tools.json"):
        if path.exists():
            return json.loads(path.read_text(encoding="utf-8"))
    pytest.skip("household_tools.json is not available")


# =========================================================================================
# The official household_test.py, restated
# =========================================================================================

@pytest.mark.parametrize("n", VARIANTS)
def test_official_every_released_seed_loads(n):
    data = released_seed(n)
    env = HouseholdEnv.from_seed(data)
    assert len(env.get_all_item_names()) == len(data["items"])
    assert {i["appears_in_video"] for i in data["items"]} == {False, True}


@pytest.mark.parametrize("n", VARIANTS)
def test_official_item_names_are_unique(n):
    names = [i["name"] for i in released_seed(n)["items"]]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("n", VARIANTS)
def test_official_dates_and_action_values_are_valid(n):
    data = released_seed(n)
    cutoff = date(2026, 8, 1)
    names = {i["name"] for i in data["items"]}
    for i in data["items"]:
        assert date.fromisoformat(i["purchase_date"]) <= cutoff  # every released item has a purchase date
        for record in i["maintenance_history"]:
            assert date.fromisoformat(record["date"]) <= cutoff
    for entry in data["household_action_lists"]:
        for a in entry["actions"]:
            assert a["name"] in names
            assert a["required_action"] in ACTIONS


def _queries_and_action_mutations(env: HouseholdEnv) -> None:
    name = env.get_all_item_names()[0]
    category = env.get_item_category(item_name=name)
    location = env.get_item_ideal_storage_location(item_name=name)
    assert name in env.find_items_by_category(category=category)
    assert name in env.find_items_by_ideal_storage_location(location=location)
    env.add_to_household_action_list(user_id="test_user", name=name, required_action="clean", due_date="2026-08-16")
    assert env.get_household_action_list(user_id="test_user")[0]["required_action"] == "clean"
    env.remove_from_household_action_list(user_id="test_user", name=name, required_action="clean",
                                          due_date="2026-08-16")
    assert env.get_household_action_list(user_id="test_user") == []


def test_official_queries_and_action_mutations_on_seed_1():
    _queries_and_action_mutations(HouseholdEnv.from_seed(released_seed(1)))


def test_official_queries_and_action_mutations_on_the_small_seed(small):
    _queries_and_action_mutations(small)


def test_official_tool_schema():
    functions = {e["function"]["tool_name"]: e["function"] for e in schema_file()}
    assert len(functions) == 16
    props = functions["add_to_household_action_list"]["parameters"]["properties"]
    assert set(props["required_action"]["enum"]) == ACTIONS
    assert re.search("YYYY-MM-DD", props["due_date"]["description"], re.I)


# =========================================================================================
# Tool set, dispatch and the parameter names the scorer filters by
# =========================================================================================

TOOLS = {
    "get_all_item_names": (), "get_item_category": ("item_name",), "find_items_by_category": ("category",),
    "get_item_ideal_storage_location": ("item_name",), "find_items_by_ideal_storage_location": ("location",),
    "get_item_purchase_date": ("item_name",), "find_items_by_purchase_date_range": ("start_date", "end_date"),
    "get_item_purchase_price": ("item_name",), "find_items_by_purchase_price_range": ("min_price", "max_price"),
    "get_item_usage_history": ("item_name",), "find_items_used_during_date_range": ("start_date", "end_date"),
    "get_item_maintenance_history": ("item_name",), "get_item_maintenance_and_usage_instructions": ("item_name",),
    "add_to_household_action_list": ("user_id", "name", "required_action", "due_date"),
    "remove_from_household_action_list": ("user_id", "name", "required_action", "due_date"),
    "get_household_action_list": ("user_id",),
}


def test_the_16_tools_and_their_parameter_names():
    assert set(HouseholdEnv.tools) == set(TOOLS)
    for name, params in TOOLS.items():
        assert HouseholdEnv.members[name] == params


def test_non_tool_members_callable_by_name():
    assert {k: v for k, v in HouseholdEnv.members.items() if k not in TOOLS} == {
        "init_from_json": ("data",), "__init__": (), "_item": ("item_name",), "_make_item": ("raw",),
        "_make_maintenance_record": ("raw",), "_make_action": ("raw", "items"),
        "_validate_item_groups": ("items",), "_validate_usage_history": ("history", "purchase_date")}


def test_schema_parameters_equal_the_implementation_parameters():
    for entry in schema_file():
        fn = entry["function"]
        assert tuple(fn["parameters"]["properties"]) == HouseholdEnv.members[fn["tool_name"]]


def test_unknown_or_missing_arguments_raise_without_state_change(small):
    before = small.snapshot()
    with pytest.raises(TypeError):
        small.invoke("add_to_household_action_list", {"user_id": "u", "name": "Cup", "required_action": "clean",
                                                      "due_date": "2026-08-20", "note": "x"})
    with pytest.raises(TypeError):
        small.invoke("remove_from_household_action_list", {"user_id": "household_user_01", "name": "Cup"})
    with pytest.raises(KeyError):
        small.invoke("items", {})  # a data attribute, not a member
    assert small.snapshot() == before


def test_seed_loader_and_constructor_by_name(small):
    env = HouseholdEnv()
    env.invoke("init_from_json", {"data": SMALL})
    assert env.snapshot() == small.snapshot()
    env.invoke("__init__", {})
    assert env.snapshot() == {"items": {}, "user_action_lists": {}}
    assert env.get_all_item_names() == []


def test_helper_members_are_read_only(small):
    before = small.state_hash()
    assert small.invoke("_item", {"item_name": "Cup"})["category"] == "tableware"
    with pytest.raises(ValueError, match="^household item not found: cup$"):
        small.invoke("_item", {"item_name": "cup"})
    assert small.invoke("_make_action", {"raw": action("X"), "items": ["X"]}) == action("X")
    assert small.invoke("_make_action", {"raw": action("X"), "items": {"X": 1}}) == action("X")
    assert small.invoke("_make_maintenance_record", {"raw": {"action": "wash", "date": "2020-1-2"}}) == {
        "date": "2020-1-2", "action": "wash"}
    assert small.invoke("_make_item", {"raw": item("Zed")})["name"] == "Zed"
    assert small.invoke("_validate_usage_history", {"history": ["2020-01-01/PRESENT"], "purchase_date": None}) is None
    with pytest.raises(ValueError, match="at least 40 items"):
        small.invoke("_validate_item_groups", {"items": {}})
    # by name, the values are JSON, never item objects: reading an attribute off them fails
    with pytest.raises(AttributeError):
        small.invoke("_validate_item_groups", {"items": {str(i): item(str(i)) for i in range(40)}})
    assert small.state_hash() == before
    assert "Zed" not in small.items


# =========================================================================================
# Seed loading and validation
# =========================================================================================

def test_seed_item_record(small):
    assert small.items["Board Game Box"] == {
        "name": "Board Game Box", "appears_in_video": True, "category": "storage_item",
        "ideal_storage_location": "storage_room", "purchase_date": "2022-08-05", "purchase_price": 129.5,
        "usage_history": ["2022-08-25/2023-01-21", "2024-02-22/2024-08-30", "2025-06-19/PRESENT"],
        "maintenance_history": [{"date": "2023-01-16", "action": "clean"}, {"date": "2023-06-30", "action": "inspect"},
                                {"date": "2024-03-23", "action": "wash"}],
        "care_and_usage_instructions": INSTRUCTIONS.format(name="Board Game Box")}
    price = small.items["Blanket"]["purchase_price"]
    assert price == 350.0 and isinstance(price, float)  # stored as a float
    assert small.get_all_item_names()[:5] == ["Cup", "Board Game Box", "Old Lamp", "Blanket", "Café Mug"]


def test_seed_action_lists_are_kept_as_written(small):
    assert small.user_action_lists == {
        "household_user_01": [action("Cup", "wash", "2026-08-18"), action("Blanket", "dry", "2026-08-19"),
                              action("Cup", "clean", "2026-08-10")],
        "household_user_02": [action("Old Lamp", "dispose", "2026-09-01"), action("Old Lamp", "dispose", "2026-09-01"),
                              action("Board Game Box", "inspect", "2026-8-2")],  # unpadded date kept verbatim
        "household_user_03": [action("Filler 00"), action("Filler 01"), action("Filler 02")]}


def _with_item(**over) -> dict:
    seed = copy.deepcopy(SMALL)
    seed["items"][0].update(over)
    return seed


BAD_ITEMS = [
    ({"name": "  "}, "item name must be a non-empty string"),
    ({"name": 5}, "item name must be a non-empty string"),
    ({"category": "Tableware"}, "invalid household item category: Tableware"),
    ({"category": "nope", "appears_in_video": "yes"}, "invalid household item category: nope"),
    ({"appears_in_video": 1}, "appears_in_video must be a boolean"),
    ({"ideal_storage_location": "attic"}, "invalid household storage location: attic"),
    ({"purchase_date": "2016-08-19"}, "purchase_date must be between 2016-08-20 and 2026-08-01"),
    ({"purchase_date": "2026-08-02"}, "purchase_date must be between 2016-08-20 and 2026-08-01"),
    ({"purchase_date": "05/03/2024"}, "purchase_date must use YYYY-MM-DD format"),
    ({"purchase_date": 20240305}, "purchase_date must be a YYYY-MM-DD string"),
    ({"purchase_price": -1}, "purchase_price must be a non-negative number"),
    ({"purchase_price": True}, "purchase_price must be a non-negative number"),
    ({"purchase_price": "29"}, "purchase_price must be a non-negative number"),
    ({"usage_history": ["2024-09-05/PRESENT"] * 8}, "usage_history may contain at most 7 ranges"),
    ({"usage_history": ["2024-09-05"]}, "usage ranges must use START/END format"),
    ({"usage_history": ["2024-09-05/2024-10-01/PRESENT"]}, "usage ranges must use START/END format"),
    ({"purchase_date": None, "usage_history": ["PURCHASE_DATE/PRESENT"]},
     "PURCHASE_DATE cannot be used when purchase_date is null"),
    ({"usage_history": ["2024-03-04/PRESENT"]}, "usage range cannot start before purchase_date"),
    ({"usage_history": ["2026-08-02/PRESENT"]}, "usage range cannot start after 2026-08-01"),
    ({"usage_history": ["2024-09-05/2026-08-02"]}, "usage range cannot end after 2026-08-01"),
    ({"usage_history": ["2024-09-05/2024-09-04"]}, "usage range start cannot be later than its end"),
    ({"usage_history": ["2024-09-05/2024-10-01", "2024-10-01/PRESENT"]},
     "usage ranges must be ordered and non-overlapping"),
    ({"usage_history": ["2024-09-05/PRESENT", "2025-01-01/2025-02-01"]},  # an open range ends at date.max
     "usage ranges must be ordered and non-overlapping"),
    ({"usage_history": ["2024-09-05/present"]}, "usage end must use YYYY-MM-DD format"),
    ({"usage_history": ["purchase_date/PRESENT"]}, "usage start must use YYYY-MM-DD format"),
    ({"care_and_usage_instructions": " "}, "care_and_usage_instructions must be non-empty"),
    ({"care_and_usage_instructions": "Clean every 7 days; clean every 2 months. "
                                     "Maximum service life is 5 years from purchase."},
     "care_and_usage_instructions must recommend at least two maintenance methods"),
    ({"care_and_usage_instructions": "Clean every 7 days; wash every 2 weeks. "
                                     "Maximum service life is 5 years from purchase."},
     "care_and_usage_instructions must recommend at least two maintenance methods"),
    ({"care_and_usage_instructions": "Clean every 7 days; wash every 2 months. "
                                     "Maximum service life is 11 years from purchase."},
     "care_and_usage_instructions must end with one maximum service life from 1 to 10 years and no end-of-life "
     "action"),
    ({"care_and_usage_instructions": "Clean every 7 days; wash every 2 months. "
                                     "Maximum service life is 5 years from purchase. Then dispose of it."},
     "care_and_usage_instructions must end with one maximum service life from 1 to 10 years and no end-of-life "
     "action"),
    ({"maintenance_history": [{"date": "2024-07-15", "action": "wash", "note": ""}]},
     "maintenance records must contain only date and action"),
    ({"maintenance_history": [{"date": "2024-7-15x", "action": "wash"}]}, "maintenance date must use YYYY-MM-DD format"),
    ({"maintenance_history": [{"date": "2024-07-15", "action": "polish"}]},
     "invalid household maintenance action: polish"),
    ({"maintenance_history": [{"date": "2024-07-15", "action": "wash"}] * 2},
     "maintenance_history must contain 3 to 7 records"),
    ({"maintenance_history": [{"date": "2024-07-15", "action": "wash"}] * 8},
     "maintenance_history must contain 3 to 7 records"),
    ({"maintenance_history": [{"date": "2024-07-15", "action": "wash"}, {"date": "2024-07-14", "action": "wash"},
                              {"date": "2024-07-16", "action": "wash"}]}, "maintenance_history must be ordered by date"),
    # string order, not date order: "2024-7-9" sorts after "2024-10-01"
    ({"maintenance_history": [{"date": "2024-7-9", "action": "wash"}, {"date": "2024-10-01", "action": "wash"},
                              {"date": "2024-11-01", "action": "wash"}]}, "maintenance_history must be ordered by date"),
    ({"maintenance_history": [{"date": "2024-03-04", "action": "wash"}] * 3},
     "maintenance date cannot be earlier than purchase_date"),
    ({"purchase_date": "2026-08-01", "usage_history": [],
      "maintenance_history": [{"date": "2026-08-02", "action": "wash"}] * 3},
     "maintenance date cannot be later than 2026-08-01"),
    ({"maintenance_history": [{"date": "2024-07-15", "action": "disinfect"}] * 3},
     "maintenance action must appear in care_and_usage_instructions"),
]


@pytest.mark.parametrize("over,message", BAD_ITEMS)
def test_bad_seed_items_are_rejected_and_nothing_changes(small, over, message):
    before = small.state_hash()
    with pytest.raises(ValueError) as info:
        small.init_from_json(data=_with_item(**over))
    assert str(info.value) == message
    assert small.state_hash() == before


def test_item_validation_accepts_the_strptime_leniencies():
    env = HouseholdEnv.from_seed(_with_item(
        purchase_date="2024-3-5", usage_history=["PURCHASE_DATE/2024-9- 5", "2024-09-06/PRESENT"],
        care_and_usage_instructions="CLEAN every 1 day; Inspect every 12 months\nmaximum service life is 1 year "
                                    "from purchase.\n",
        maintenance_history=[{"date": "2024-07-15", "action": "clean"}, {"date": "2024-10-02", "action": "inspect"},
                             {"date": "2025-04-10", "action": "inspect"}],
        purchase_price=0))
    cup = env.items["Cup"]
    assert cup["purchase_date"] == "2024-3-5" and cup["usage_history"][0] == "PURCHASE_DATE/2024-9- 5"
    assert env.get_item_purchase_price(item_name="Cup") == 0.0


def test_duplicate_item_names_are_rejected():
    seed = copy.deepcopy(SMALL)
    seed["items"].append(item("Cup"))
    with pytest.raises(ValueError, match="^duplicate household item name: Cup$"):
        HouseholdEnv.from_seed(seed)
    seed["items"][-1] = item("cup")  # names are case-sensitive
    assert "cup" in HouseholdEnv.from_seed(seed).items


def test_coverage_rules_for_items_not_seen_in_the_video():
    seed = copy.deepcopy(SMALL)
    del seed["items"][5:]
    with pytest.raises(ValueError, match="^each household scenario must contain at least 40 items$"):
        HouseholdEnv.from_seed(seed)
    seed = copy.deepcopy(SMALL)
    for i in seed["items"][5:9]:  # four generated lamps: a category below 5
        i.update(appears_in_video=False, category="lighting")
    with pytest.raises(ValueError, match="^every generated category must have at least 5 household items$"):
        HouseholdEnv.from_seed(seed)
    seed["items"][9].update(appears_in_video=False, category="lighting")  # five lamps, all in the garage
    HouseholdEnv.from_seed(seed)
    seed["items"][9]["ideal_storage_location"] = "study"  # one generated item alone in the study
    with pytest.raises(ValueError, match="^every generated ideal_storage_location must have at least 3 household"):
        HouseholdEnv.from_seed(seed)


def _with_lists(lists) -> dict:
    seed = copy.deepcopy(SMALL)
    seed["household_action_lists"] = lists
    return seed


def _user(n: int, actions=None) -> dict:
    return {"user_id": f"household_user_{n:02d}", "actions": actions or [action("Cup")] * 3}


BAD_LISTS = [
    ([_user(1), _user(2)], "household_action_lists must contain 3 to 5 users"),
    ([_user(i) for i in range(1, 7)], "household_action_lists must contain 3 to 5 users"),
    ({"a": 1, "b": 2, "c": 3}, "household_action_lists must contain 3 to 5 users"),
    ([_user(1), _user(2), {**_user(3), "name": "x"}], "each household action list must contain only user_id and actions"),
    ([_user(1), _user(2), {"user_id": "household_user_3", "actions": [action("Cup")] * 3}],
     "action-list user_id must use household_user_NN format"),
    ([_user(1), _user(2), {"user_id": "Household_user_03", "actions": [action("Cup")] * 3}],
     "action-list user_id must use household_user_NN format"),
    ([_user(1), _user(2), _user(1)], "duplicate action-list user_id: household_user_01"),
    ([_user(1), _user(2), _user(3, [action("Cup")] * 2)], "actions must be a list containing 3 to 5 entries"),
    ([_user(1), _user(2), _user(3, [action("Cup")] * 6)], "actions must be a list containing 3 to 5 entries"),
    ([_user(1), _user(2), _user(3, [action("Cup")] * 2 + [action("cup")])], "unknown household item: cup"),
    ([_user(1), _user(2), _user(3, [action("Cup")] * 2 + [action("Cup", "fix")])],
     "invalid household required action: fix"),
    ([_user(1), _user(2), _user(3, [action("Cup")] * 2 + [action("Cup", "dry", "2026/08/20")])],
     "due_date must use YYYY-MM-DD format"),
]


@pytest.mark.parametrize("lists,message", BAD_LISTS)
def test_bad_action_lists_are_rejected_and_nothing_changes(small, lists, message):
    before = small.state_hash()
    with pytest.raises(ValueError) as info:
        small.init_from_json(data=_with_lists(lists))
    assert str(info.value) == message
    assert small.state_hash() == before


def test_action_lists_are_required_and_seed_due_dates_are_unbounded(small):
    seed = copy.deepcopy(SMALL)
    del seed["household_action_lists"]
    with pytest.raises(ValueError, match="^household_action_lists must contain 3 to 5 users$"):
        HouseholdEnv.from_seed(seed)
    env = HouseholdEnv.from_seed(_with_lists([_user(1), _user(2), _user(99, [action("Cup", "iron", "1900-01-01")] * 5)]))
    assert env.user_action_lists["household_user_99"] == [action("Cup", "iron", "1900-01-01")] * 5


def test_a_failing_load_keeps_the_previous_state_entirely(small):
    small.add_to_household_action_list(user_id="me", name="Cup", required_action="dry", due_date="2026-01-01")
    before = small.snapshot()
    seed = copy.deepcopy(SMALL)
    seed["household_action_lists"][2]["actions"][2]["name"] = "Nothing"  # fails after all items validated
    with pytest.raises(ValueError, match="unknown household item: Nothing"):
        small.init_from_json(data=seed)
    assert small.snapshot() == before


def test_loading_replaces_the_whole_state(small):
    small.add_to_household_action_list(user_id="me", name="Cup", required_action="dry", due_date="2026-01-01")
    small.init_from_json(data=SMALL)
    assert "me" not in small.user_action_lists
    assert small.snapshot() == HouseholdEnv.from_seed(SMALL).snapshot()


def test_parse_day():
    assert parse_day("2026-8-1", "x") == date(2026, 8, 1)
    assert parse_day("2026-08- 1", "x") == date(2026, 8, 1)
    for bad in ("2026-02-30", "2026-08-01 ", " 2026-08-01", "26-08-01", "2026-13-01", ""):
        with pytest.raises(ValueError, match="^x must use YYYY-MM-DD format$"):
            parse_day(bad, "x")
    for bad in (None, 20260801, ["2026-08-01"]):
        with pytest.raises(ValueError, match="^x must be a YYYY-MM-DD string$"):
            parse_day(bad, "x")


# =========================================================================================
# Item queries
# =========================================================================================

def test_single_item_queries(small):
    assert small.get_item_category(item_name="Board Game Box") == "storage_item"
    assert small.get_item_ideal_storage_location(item_name="Blanket") == "linen_closet"
    assert small.get_item_purchase_date(item_name="Cup") == "2024-03-05"
    assert small.get_item_purchase_date(item_name="Old Lamp") is None
    assert small.get_item_purchase_price(item_name="Café Mug") == 12.25
    assert small.get_item_usage_history(item_name="Blanket") == ["PURCHASE_DATE/2020-05-01"]
    assert small.get_item_maintenance_history(item_name="Old Lamp") == [
        {"date": "2019-02-01", "action": "clean"}, {"date": "2019-03-01", "action": "clean"},
        {"date": "2019-04-01", "action": "inspect"}]


@pytest.mark.parametrize("tool", ["get_item_category", "get_item_ideal_storage_location", "get_item_purchase_date",
                                  "get_item_purchase_price", "get_item_usage_history", "get_item_maintenance_history"])
@pytest.mark.parametrize("name", ["cup", "Cup ", "Mug", ""])  # exact, case-sensitive, no trimming
def test_single_item_query_unknown_name_raises(small, tool, name):
    with pytest.raises(ValueError) as info:
        small.invoke(tool, {"item_name": name})
    assert str(info.value) == f"household item not found: {name}"


def test_unhashable_item_name_raises_type_error(small):
    with pytest.raises(TypeError):
        small.get_item_category(item_name=["Cup"])


def test_query_results_are_copies(small):
    small.get_item_usage_history(item_name="Cup").append("x")
    small.get_item_maintenance_history(item_name="Cup")[0]["action"] = "x"
    small.get_all_item_names().clear()
    assert small.snapshot() == HouseholdEnv.from_seed(SMALL).snapshot()


def test_find_items_by_category(small):
    assert small.find_items_by_category(category="tableware") == ["Cup", "Café Mug"]
    assert small.find_items_by_category(category="furniture") == []
    assert len(small.find_items_by_category(category="other")) == 40
    for bad in ("Tableware", "tableware ", ""):
        with pytest.raises(ValueError, match=f"^invalid household item category: {bad}$"):
            small.find_items_by_category(category=bad)
    with pytest.raises(TypeError):
        small.find_items_by_category(category=["tableware"])


def test_find_items_by_ideal_storage_location(small):
    assert small.find_items_by_ideal_storage_location(location="kitchen_cabinet") == ["Cup", "Café Mug"]
    assert small.find_items_by_ideal_storage_location(location="balcony") == []
    with pytest.raises(ValueError, match="^invalid household storage location: Study$"):
        small.find_items_by_ideal_storage_location(location="Study")


def test_find_items_by_purchase_date_range(small):
    assert small.find_items_by_purchase_date_range(start_date="2016-08-20", end_date="2022-08-05") == [
        "Board Game Box", "Blanket"]  # inclusive; the null purchase date is skipped
    assert small.find_items_by_purchase_date_range(start_date="2026-8-1", end_date="2026-8-1") == ["Café Mug"]
    assert small.find_items_by_purchase_date_range(start_date="1900-01-01", end_date="1900-01-01") == []
    with pytest.raises(ValueError, match="^start_date cannot be later than end_date$"):
        small.find_items_by_purchase_date_range(start_date="2024-01-02", end_date="2024-01-01")
    with pytest.raises(ValueError, match="^start_date must use YYYY-MM-DD format$"):
        small.find_items_by_purchase_date_range(start_date="Jan 1 2024", end_date="x")
    with pytest.raises(ValueError, match="^end_date must be a YYYY-MM-DD string$"):
        small.find_items_by_purchase_date_range(start_date="2024-01-01", end_date=None)


def test_find_items_by_purchase_price_range(small):
    assert small.find_items_by_purchase_price_range(min_price=29, max_price=350) == (
        ["Cup", "Board Game Box", "Blanket", "Filler 29", "Filler 30", "Filler 31", "Filler 32", "Filler 33",
         "Filler 34", "Filler 35", "Filler 36", "Filler 37", "Filler 38", "Filler 39"])
    assert small.find_items_by_purchase_price_range(min_price=0, max_price=0) == ["Old Lamp", "Filler 00"]
    assert small.find_items_by_purchase_price_range(min_price=12.25, max_price=12.5) == ["Café Mug"]
    assert small.find_items_by_purchase_price_range(min_price=False, max_price=True) == [
        "Old Lamp", "Filler 00", "Filler 01"]  # booleans act as 0 and 1
    for lo, hi in ((-1, 5), (5, -1), (6, 5)):
        with pytest.raises(ValueError, match="^prices must be non-negative and min_price cannot exceed max_price$"):
            small.find_items_by_purchase_price_range(min_price=lo, max_price=hi)
    with pytest.raises(TypeError):
        small.find_items_by_purchase_price_range(min_price="1", max_price=5)
    with pytest.raises(TypeError):
        small.find_items_by_purchase_price_range(min_price=1, max_price=None)


def test_find_items_used_during_date_range_with_a_fixed_present(small):
    small.present_date = date(2026, 8, 18)
    assert small.find_items_used_during_date_range(start_date="2023-01-22", end_date="2024-02-21") == []
    assert small.find_items_used_during_date_range(start_date="2023-01-21", end_date="2023-01-21") == [
        "Board Game Box"]  # ends are inclusive
    # PURCHASE_DATE resolves to the item's purchase date (Blanket: 2016-08-20 .. 2020-05-01)
    assert small.find_items_used_during_date_range(start_date="2016-08-20", end_date="2016-08-20") == ["Blanket"]
    assert small.find_items_used_during_date_range(start_date="2019-06-01", end_date="2019-06-01") == [
        "Old Lamp", "Blanket"]
    names = small.find_items_used_during_date_range(start_date="2026-08-18", end_date="2030-01-01")
    assert names == ["Cup", "Board Game Box"] + [f"Filler {i:02d}" for i in range(40)]  # open ranges run to PRESENT
    assert small.find_items_used_during_date_range(start_date="2026-08-19", end_date="2030-01-01") == []
    with pytest.raises(ValueError, match="^start_date cannot be later than end_date$"):
        small.find_items_used_during_date_range(start_date="2026-08-19", end_date="2026-08-18")


def test_present_defaults_to_the_machine_date_and_survives_cloning(small):
    assert small.present_date is None
    today = date.today()
    later = today.replace(year=today.year + 5).isoformat()
    tomorrow = date.fromordinal(today.toordinal() + 1).isoformat()
    assert "Cup" in small.find_items_used_during_date_range(start_date=today.isoformat(), end_date=later)
    assert "Cup" not in small.find_items_used_during_date_range(start_date=tomorrow, end_date=later)
    small.present_date = date(2030, 1, 1)
    assert small.clone().present_date == date(2030, 1, 1)
    assert HouseholdEnv.present_date is None


def test_get_item_maintenance_and_usage_instructions(small):
    assert small.get_item_maintenance_and_usage_instructions(item_name=["Cup", "Blanket", "Cup"]) == {
        "Cup": INSTRUCTIONS.format(name="Cup"), "Blanket": INSTRUCTIONS.format(name="Blanket")}
    for bad in ("Cup", [], None, ("Cup",)):
        with pytest.raises(ValueError, match="^item_name must be a non-empty list of household item names$"):
            small.get_item_maintenance_and_usage_instructions(item_name=bad)
    for bad in (["Cup", ""], ["Cup", 3], [None]):
        with pytest.raises(ValueError, match="^item_name must contain only non-empty strings$"):
            small.get_item_maintenance_and_usage_instructions(item_name=bad)
    with pytest.raises(ValueError, match="^household item not found: cup$"):  # one unknown name fails the call
        small.get_item_maintenance_and_usage_instructions(item_name=["Cup", "cup"])


# =========================================================================================
# Action lists
# =========================================================================================

def test_get_household_action_list(small):
    assert small.get_household_action_list(user_id="household_user_02") == [
        action("Old Lamp", "dispose", "2026-09-01"), action("Old Lamp", "dispose", "2026-09-01"),
        action("Board Game Box", "inspect", "2026-8-2")]
    assert small.get_household_action_list(user_id="nobody") == []
    assert "nobody" not in small.user_action_lists  # reads never create a user
    small.get_household_action_list(user_id="household_user_02")[0]["name"] = "x"
    assert small.user_action_lists["household_user_02"][0]["name"] == "Old Lamp"
    for bad in ("", "  ", None, 7):
        with pytest.raises(ValueError, match="^user_id must be a non-empty string$"):
            small.get_household_action_list(user_id=bad)


def test_add_always_appends(small):
    for _ in range(2):
        assert small.add_to_household_action_list(user_id="household_user_01", name="Cup", required_action="wash",
                                                  due_date="2026-08-18") == {
            "message": "Household action added successfully."}
    assert small.get_household_action_list(user_id="household_user_01") == [
        action("Cup", "wash", "2026-08-18"), action("Blanket", "dry", "2026-08-19"), action("Cup", "clean", "2026-08-10"),
        action("Cup", "wash", "2026-08-18"), action("Cup", "wash", "2026-08-18")]


def test_add_creates_a_list_for_any_user_id(small):
    small.add_to_household_action_list(user_id=" Guest ", name="Old Lamp", required_action="repair",
                                       due_date="1999-12-31")  # no format or range rule outside the seed
    assert small.user_action_lists[" Guest "] == [action("Old Lamp", "repair", "1999-12-31")]


def test_add_keeps_the_due_date_as_written(small):
    small.add_to_household_action_list(user_id="u", name="Cup", required_action="iron", due_date="2026-8-3")
    small.add_to_household_action_list(user_id="u", name="Cup", required_action="iron", due_date="2026-08-03")
    assert [a["due_date"] for a in small.user_action_lists["u"]] == ["2026-8-3", "2026-08-03"]


@pytest.mark.parametrize("params,error,message", [
    ({"user_id": ""}, ValueError, "user_id must be a non-empty string"),
    ({"user_id": 1, "name": "nope"}, ValueError, "user_id must be a non-empty string"),
    ({"name": "cup"}, ValueError, "household item not found: cup"),
    ({"name": "cup", "required_action": "nope", "due_date": 5}, ValueError, "household item not found: cup"),
    ({"required_action": "Clean"}, ValueError, "invalid household required action: Clean"),
    ({"required_action": "nope", "due_date": 5}, ValueError, "invalid household required action: nope"),
    ({"due_date": "2026-08-32"}, ValueError, "due_date must use YYYY-MM-DD format"),
    ({"due_date": None}, ValueError, "due_date must be a YYYY-MM-DD string"),
    ({"name": ["Cup"]}, TypeError, None),
    ({"required_action": ["clean"]}, TypeError, None),
])
def test_add_errors_change_nothing(small, params, error, message):
    before = small.snapshot()
    call = {"user_id": "household_user_01", "name": "Cup", "required_action": "clean", "due_date": "2026-08-20",
            **params}
    with pytest.raises(error) as info:
        small.invoke("add_to_household_action_list", call)
    if message:
        assert str(info.value) == message
    assert small.snapshot() == before


def test_remove_takes_the_first_exact_match_only(small):
    assert small.remove_from_household_action_list(user_id="household_user_02", name="Old Lamp",
                                                   required_action="dispose", due_date="2026-09-01") == {
        "message": "Household action removed successfully."}
    assert small.user_action_lists["household_user_02"] == [action("Old Lamp", "dispose", "2026-09-01"),
                                                            action("Board Game Box", "inspect", "2026-8-2")]


def test_remove_compares_due_dates_as_strings(small):
    with pytest.raises(ValueError, match="^matching household action was not found$"):
        small.remove_from_household_action_list(user_id="household_user_02", name="Board Game Box",
                                                required_action="inspect", due_date="2026-08-02")
    small.remove_from_household_action_list(user_id="household_user_02", name="Board Game Box",
                                            required_action="inspect", due_date="2026-8-2")


def test_remove_the_last_action_keeps_an_empty_list(small):
    for a in SMALL["household_action_lists"][2]["actions"]:
        small.remove_from_household_action_list(user_id="household_user_03", **a)
    assert small.user_action_lists["household_user_03"] == []
    assert small.snapshot()["user_action_lists"]["household_user_03"] == []
    gone = HouseholdEnv.from_seed(SMALL)
    gone._writable("user_action_lists").pop("household_user_03")
    assert small.state_hash() != gone.state_hash()  # an empty list and no list hash differently


@pytest.mark.parametrize("params,error,message", [
    ({"name": "cup"}, ValueError, "matching household action was not found"),
    ({"user_id": "nobody"}, ValueError, "matching household action was not found"),
    ({"user_id": ""}, ValueError, "matching household action was not found"),  # user_id is not validated here
    ({"required_action": "dry"}, ValueError, "matching household action was not found"),
    ({"required_action": "WASH", "due_date": None}, ValueError, "invalid household required action: WASH"),
    ({"due_date": "18-08-2026", "user_id": ["x"]}, ValueError, "due_date must use YYYY-MM-DD format"),
    ({"user_id": ["x"]}, TypeError, None),
    ({"required_action": ["wash"]}, TypeError, None),
])
def test_remove_errors_change_nothing(small, params, error, message):
    before = small.snapshot()
    call = {"user_id": "household_user_01", "name": "Cup", "required_action": "wash", "due_date": "2026-08-18", **params}
    with pytest.raises(error) as info:
        small.invoke("remove_from_household_action_list", call)
    if message:
        assert str(info.value) == message
    assert small.snapshot() == before
    assert "nobody" not in small.user_action_lists


def test_remove_compares_names_by_equality_only(small):
    """The name is not looked up in the items: an unhashable or unknown name is just no match."""
    for name in (["Cup"], "cup", "Nothing"):
        with pytest.raises(ValueError, match="^matching household action was not found$"):
            small.remove_from_household_action_list(user_id="household_user_01", name=name, required_action="wash",
                                                    due_date="2026-08-18")
    assert len(small.user_action_lists["household_user_01"]) == 3


# =========================================================================================
# The hashed state document
# =========================================================================================

def test_snapshot_document(small):
    small.add_to_household_action_list(user_id="z", name="Cup", required_action="wash", due_date="2026-01-02")
    small.add_to_household_action_list(user_id="z", name="Blanket", required_action="wash", due_date="2026-01-03")
    small.add_to_household_action_list(user_id="z", name="Cup", required_action="clean", due_date="2026-01-09")
    small.add_to_household_action_list(user_id="z", name="Cup", required_action="clean", due_date="2026-01-01")
    snap = small.snapshot()
    assert set(snap) == {"items", "user_action_lists"}
    assert snap["items"]["Old Lamp"] == {
        "name": "Old Lamp", "appears_in_video": True, "category": "lighting", "ideal_storage_location": "study",
        "purchase_date": None, "purchase_price": 0.0, "usage_history": ["2019-01-01/2019-12-31"],
        "maintenance_history": [{"date": "2019-02-01", "action": "clean"}, {"date": "2019-03-01", "action": "clean"},
                                {"date": "2019-04-01", "action": "inspect"}],
        "care_and_usage_instructions": INSTRUCTIONS.format(name="Old Lamp")}
    # each list sorted by (name, required_action, due_date), plain string order
    assert snap["user_action_lists"]["z"] == [action("Blanket", "wash", "2026-01-03"),
                                              action("Cup", "clean", "2026-01-01"),
                                              action("Cup", "clean", "2026-01-09"),
                                              action("Cup", "wash", "2026-01-02")]
    assert snap["user_action_lists"]["household_user_02"] == [action("Board Game Box", "inspect", "2026-8-2"),
                                                              action("Old Lamp", "dispose", "2026-09-01"),
                                                              action("Old Lamp", "dispose", "2026-09-01")]
    # the live list keeps insertion order
    assert small.get_household_action_list(user_id="z")[0] == action("Cup", "wash", "2026-01-02")


def test_action_order_does_not_change_the_hash_but_duplicates_do(small):
    a, b = HouseholdEnv.from_seed(SMALL), HouseholdEnv.from_seed(SMALL)
    calls = [("Cup", "wash", "2026-01-02"), ("Blanket", "dry", "2026-01-01")]
    for name, act, due in calls:
        a.add_to_household_action_list(user_id="u", name=name, required_action=act, due_date=due)
    for name, act, due in reversed(calls):
        b.add_to_household_action_list(user_id="u", name=name, required_action=act, due_date=due)
    assert a.state_hash() == b.state_hash()
    b.add_to_household_action_list(user_id="u", name="Cup", required_action="wash", due_date="2026-01-02")
    assert a.state_hash() != b.state_hash()


def _independent_hash(env: HouseholdEnv) -> str:
    """The evaluator's recipe, written out longhand: integral floats as ints, keys sorted,
    default separators, non-ASCII raw, SHA-256 of the UTF-8 text."""
    def norm(v):
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items()}
        if isinstance(v, list):
            return [norm(x) for x in v]
        if isinstance(v, float) and v.is_integer():
            return int(v)
        return v
    doc = {
        "items": {k: {f: copy.deepcopy(r[f]) for f in r} for k, r in env.items.items()},
        "user_action_lists": {u: sorted((dict(a) for a in acts),
                                        key=lambda a: (a["name"], a["required_action"], a["due_date"]))
                              for u, acts in env.user_action_lists.items()},
    }
    text = json.dumps(norm(doc), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_state_hash_follows_the_evaluator_recipe(small):
    assert small.state_hash() == _independent_hash(small) == state_hash(small.snapshot())
    text = canonical_json(small.snapshot())
    assert '"purchase_price": 350,' in text and '"purchase_price": 12.25,' in text  # 350.0 hashes as 350
    assert '"name": "Café Mug"' in text  # non-ASCII written raw
    twin = small.clone()
    twin.add_to_household_action_list(user_id="u", name="Café Mug", required_action="dry", due_date="2026-01-01")
    assert twin.state_hash() == _independent_hash(twin) != small.state_hash()


def test_clones_share_nothing_they_write(small):
    twin = small.clone()
    twin.add_to_household_action_list(user_id="household_user_01", name="Cup", required_action="dry",
                                      due_date="2026-01-01")
    twin.remove_from_household_action_list(user_id="household_user_02", name="Old Lamp", required_action="dispose",
                                           due_date="2026-09-01")
    fresh = HouseholdEnv.from_seed(SMALL)
    assert small.snapshot() == fresh.snapshot() and small.state_hash() == fresh.state_hash()
    assert len(twin.user_action_lists["household_user_01"]) == 4
    assert len(twin.user_action_lists["household_user_02"]) == 2
    # the source writing after cloning does not leak into the clone either
    small.remove_from_household_action_list(user_id="household_user_03", **action("Filler 00"))
    assert len(twin.user_action_lists["household_user_03"]) == 3


def test_clone_reaches_the_same_hash_as_a_fresh_environment(small):
    steps = [("add_to_household_action_list", dict(user_id="u", name="Cup", required_action="dry",
                                                   due_date="2026-01-01")),
             ("remove_from_household_action_list", dict(user_id="household_user_01", **action("Cup", "wash",
                                                                                              "2026-08-18")))]
    twin, fresh = small.clone(), HouseholdEnv.from_seed(SMALL)
    for name, params in steps:
        twin.invoke(name, params)
        fresh.invoke(name, params)
    assert twin.state_hash() == fresh.state_hash() == _independent_hash(fresh)


# =========================================================================================
# Released data: seeds and ground truth
# =========================================================================================

def _seed_hash(seed: dict) -> str:
    """The hash of a freshly loaded seed, computed from the raw seed alone: every item
    field as given (price as a float, which the normalisation undoes when integral),
    action lists sorted."""
    doc = {
        "items": {i["name"]: {**i, "purchase_price": float(i["purchase_price"])} for i in seed["items"]},
        "user_action_lists": {u["user_id"]: sorted(
            ({f: a[f] for f in ("name", "required_action", "due_date")} for a in u["actions"]),
            key=lambda a: (a["name"], a["required_action"], a["due_date"])) for u in seed["household_action_lists"]},
    }
    return state_hash(doc)


def test_small_seed_hash_from_the_raw_seed(small):
    assert small.state_hash() == _seed_hash(SMALL)


@pytest.mark.parametrize("n", VARIANTS)
def test_released_seed_hash_follows_the_evaluator_recipe(n):
    seed = released_seed(n)
    env = HouseholdEnv.from_seed(seed)
    assert env.state_hash() == _independent_hash(env) == _seed_hash(seed)


@pytest.mark.parametrize("n", VARIANTS)
def test_ground_truth_replays_without_errors(n):
    """householdN.json runs on household_init_dataN (evaluator and runner alike)."""
    pristine = HouseholdEnv.from_seed(released_seed(n))
    before = pristine.state_hash()
    tasks = task_file(n)
    for task in tasks:
        env = pristine.clone()
        for call in task["ground_truth"]:
            name = call.get("tool_name") or call.get("name")
            params = {k: v for k, v in call.get("parameters", {}).items() if k in HouseholdEnv.members[name]}
            result = env.invoke(name, params)
            assert isinstance(result, dict) and set(result) == {"message"}, (task.get("scenario_id"), call)
        assert env.state_hash() == _independent_hash(env)
    assert pristine.state_hash() == before
