"""Household environment (EgoBench 2026 release, docs/egobench2/household.md).

A catalogue of household item profiles (read-only for every tool) and, per user, a
list of scheduled household actions. Unlike the first-release scenarios, this one
validates strictly and signals every failure by **raising** (ValueError, or the
TypeError/AttributeError Python itself raises for values of the wrong kind); tools
never return an error status. A failed call changes nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, datetime
from typing import Any, Callable, ClassVar

from egoeval.tools.egobench.base import ScenarioEnv, member, tool

from .action_lists import load_action_lists

#: the 15 item categories
CATEGORIES = frozenset((
    "furniture", "tableware", "cookware", "bedding", "clothing", "footwear", "home_textile",
    "storage_item", "home_appliance", "electronics", "lighting", "decoration", "cleaning_item",
    "daily_supply", "other",
))
#: the 16 ideal storage locations
LOCATIONS = frozenset((
    "living_room", "dining_room", "bedroom", "study", "wardrobe", "linen_closet", "shoe_cabinet",
    "kitchen_cabinet", "pantry", "bathroom_cabinet", "laundry_area", "storage_room", "bookshelf",
    "display_shelf", "balcony", "garage",
))
#: actions allowed in a maintenance record (and recognised in care instructions)
CARE_ACTIONS = ("clean", "condition", "disinfect", "wash", "inspect")
MAINTENANCE_ACTIONS = frozenset(CARE_ACTIONS)
#: actions allowed in a user's action list
ACTIONS = MAINTENANCE_ACTIONS | {"repair", "relocate", "dry", "iron", "replace", "dispose"}

EARLIEST = date(2016, 8, 20)  # earliest purchase date a seed may give
CUTOFF = date(2026, 8, 1)     # latest purchase / maintenance / usage date a seed may give

#: "<care action> every <n> day(s)/month(s)", on the lower-cased instructions
_CARE_RE = re.compile(r"\b(" + "|".join(CARE_ACTIONS) + r") every \d+ (?:days?|months?)\b")
#: the closing sentence of the instructions (``$``: at the very end or before a final newline)
_LIFE_RE = re.compile(r"maximum service life is (\d+) years? from purchase\.$")

#: fields of an item profile (all of them are hashed; the hash sorts keys, so this is for reading)
ITEM_FIELDS = (
    "name", "appears_in_video", "category", "ideal_storage_location", "purchase_date",
    "purchase_price", "usage_history", "maintenance_history", "care_and_usage_instructions",
)
#: fields of an action-list entry; the hash sorts each user's list by this triple
ACTION_FIELDS = ("name", "required_action", "due_date")

ADDED = {"message": "Household action added successfully."}
REMOVED = {"message": "Household action removed successfully."}


def parse_day(value: Any, label: str) -> date:
    """A calendar date from a ``YYYY-MM-DD`` string, with the reference's leniency.

    Parsing is ``datetime.strptime(value, "%Y-%m-%d")``: month and day may have one
    digit ("2026-8-1"), the day may be a space and one digit ("2026-08- 1"), and any
    Unicode decimal digits are read. Two messages: one for a non-string, one for text
    that does not parse (including impossible dates such as 2026-02-30).
    """
    if not isinstance(value, str):
        raise ValueError(f"{label} must be a YYYY-MM-DD string")
    try:
        parsed = datetime.strptime(value, "%Y-%m-%d")
    except ValueError as exc:
        raise ValueError(f"{label} must use YYYY-MM-DD format") from exc
    return parsed.date()


def _nonblank_str(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _check_item_groups(records) -> None:
    """Among the items not seen in the video ("generated" ones), every category present
    has at least 5 items and every storage location present at least 3."""
    generated = [r for r in records if not r["appears_in_video"]]
    per_category = Counter(r["category"] for r in generated)
    if per_category and min(per_category.values()) < 5:
        raise ValueError("every generated category must have at least 5 household items")
    per_location = Counter(r["ideal_storage_location"] for r in generated)
    if per_location and min(per_location.values()) < 3:
        raise ValueError("every generated ideal_storage_location must have at least 3 household items")


def _items_doc(items: dict) -> dict:
    return {
        key: {
            **record,
            "usage_history": list(record["usage_history"]),
            "maintenance_history": [dict(m) for m in record["maintenance_history"]],
        }
        for key, record in items.items()
    }


def _action_order(action: dict) -> tuple:
    return tuple(action[f] for f in ACTION_FIELDS)


def _actions_doc(actions: list) -> list:
    return sorted((dict(a) for a in actions), key=_action_order)


class HouseholdEnv(ScenarioEnv):
    scenario = "household"
    cow_attrs = ("items",)                # no tool writes the item profiles
    user_attrs = ("user_action_lists",)   # lists are appended to / popped from in place

    #: the date that an open usage range ("…/PRESENT") runs to in
    #: find_items_used_during_date_range. None (the default, as in the reference): the
    #: machine's local date at the time of the call.
    present_date: ClassVar[date | None] = None

    def reset(self) -> None:
        self.items: dict[str, dict] = {}
        self.user_action_lists: dict[str, list[dict]] = {}

    def clone(self) -> "HouseholdEnv":
        env = super().clone()
        if "present_date" in self.__dict__:
            env.present_date = self.present_date  # type: ignore[misc]
        return env

    def _today(self) -> date:
        return self.present_date if self.present_date is not None else date.today()

    # --- seed loading -------------------------------------------------------------------
    def load(self, seed: dict) -> None:
        """Validate the whole seed, then replace the state; on any error nothing changes."""
        items: dict[str, dict] = {}
        for raw in seed.get("items", []):
            record = self._make_item(raw)
            if record["name"] in items:
                raise ValueError(f"duplicate household item name: {record['name']}")
            items[record["name"]] = record
        if len(items) < 40:
            raise ValueError("each household scenario must contain at least 40 items")
        _check_item_groups(items.values())

        lists = load_action_lists(seed.get("household_action_lists", []), "household_action_lists", "household",
                                  "household_user", lambda entry: self._make_action(entry, items))

        self._replace("items", items)
        self._replace("user_action_lists", lists)

    # The reference's validation helpers are members of its database object, so they are
    # callable by name too. None of them changes the state.
    @member
    def _make_item(self, raw):
        """One validated item record from seed data (raises on the first problem)."""
        name = raw.get("name")
        if not _nonblank_str(name):
            raise ValueError("item name must be a non-empty string")
        category = raw.get("category")
        if category not in CATEGORIES:
            raise ValueError(f"invalid household item category: {category}")
        in_video = raw.get("appears_in_video")
        if not isinstance(in_video, bool):
            raise ValueError("appears_in_video must be a boolean")
        location = raw.get("ideal_storage_location")
        if location not in LOCATIONS:
            raise ValueError(f"invalid household storage location: {location}")
        purchase_date = raw.get("purchase_date")
        bought = None
        if purchase_date is not None:
            bought = parse_day(purchase_date, "purchase_date")
            if not EARLIEST <= bought <= CUTOFF:
                raise ValueError("purchase_date must be between 2016-08-20 and 2026-08-01")
        price = raw.get("purchase_price")
        if isinstance(price, bool) or not isinstance(price, (int, float)) or price < 0:
            raise ValueError("purchase_price must be a non-negative number")

        usage = list(raw.get("usage_history", []))
        self._validate_usage_history(usage, purchase_date)

        text = raw.get("care_and_usage_instructions")
        if not _nonblank_str(text):
            raise ValueError("care_and_usage_instructions must be non-empty")
        lowered = text.lower()
        recommended = _CARE_RE.findall(lowered)
        if len(set(recommended)) < 2:
            raise ValueError("care_and_usage_instructions must recommend at least two maintenance methods")
        lives = _LIFE_RE.findall(lowered)
        if len(lives) != 1 or not 1 <= int(lives[0]) <= 10:
            raise ValueError("care_and_usage_instructions must end with one maximum service life "
                             "from 1 to 10 years and no end-of-life action")

        records = [self._make_maintenance_record(r) for r in raw.get("maintenance_history", [])]
        if not 3 <= len(records) <= 7:
            raise ValueError("maintenance_history must contain 3 to 7 records")
        days = [r["date"] for r in records]
        if days != sorted(days):  # plain string order
            raise ValueError("maintenance_history must be ordered by date")
        for r in records:
            done = parse_day(r["date"], "maintenance date")
            if bought is not None and done < bought:
                raise ValueError("maintenance date cannot be earlier than purchase_date")
            if done > CUTOFF:
                raise ValueError("maintenance date cannot be later than 2026-08-01")
            if r["action"] not in recommended:
                raise ValueError("maintenance action must appear in care_and_usage_instructions")
        values = (name, in_video, category, location, purchase_date, float(price), usage, records, text)
        return dict(zip(ITEM_FIELDS, values))

    @member
    def _make_maintenance_record(self, raw):
        if set(raw) != {"date", "action"}:
            raise ValueError("maintenance records must contain only date and action")
        day = raw.get("date")
        parse_day(day, "maintenance date")
        action = raw.get("action")
        if action not in MAINTENANCE_ACTIONS:
            raise ValueError(f"invalid household maintenance action: {action}")
        return {"date": day, "action": action}

    @member
    def _validate_usage_history(self, history, purchase_date):
        """Usage ranges "START/END": at most 7, ordered, non-overlapping, within the data window."""
        if len(history) > 7:
            raise ValueError("usage_history may contain at most 7 ranges")
        last_end: date | None = None
        for text in history:
            if not isinstance(text, str) or text.count("/") != 1:
                raise ValueError("usage ranges must use START/END format")
            head, tail = text.split("/")
            if head == "PURCHASE_DATE":
                if purchase_date is None:
                    raise ValueError("PURCHASE_DATE cannot be used when purchase_date is null")
                start = parse_day(purchase_date, "purchase_date")
            else:
                start = parse_day(head, "usage start")
            if purchase_date is not None and start < parse_day(purchase_date, "purchase_date"):
                raise ValueError("usage range cannot start before purchase_date")
            if start > CUTOFF:
                raise ValueError("usage range cannot start after 2026-08-01")
            open_ended = tail == "PRESENT"
            end = date.max if open_ended else parse_day(tail, "usage end")
            if not open_ended and end > CUTOFF:
                raise ValueError("usage range cannot end after 2026-08-01")
            if start > end:
                raise ValueError("usage range start cannot be later than its end")
            if last_end is not None and start <= last_end:
                raise ValueError("usage ranges must be ordered and non-overlapping")
            last_end = end
        return None

    @member
    def _validate_item_groups(self, items):
        """The seed's coverage rules (see :func:`_check_item_groups`).

        By name it gets agent JSON, whose values are never item objects: as in the
        reference, reading ``appears_in_video`` off them as an attribute fails.
        """
        if len(items) < 40:
            raise ValueError("each household scenario must contain at least 40 items")
        _check_item_groups([{f: getattr(v, f) for f in ("appears_in_video", "category", "ideal_storage_location")}
                            for v in items.values()])
        return None

    @member
    def _make_action(self, raw, items):
        """One action-list entry; ``name`` must be a key of ``items``."""
        name = raw.get("name")
        if name not in items:
            raise ValueError(f"unknown household item: {name}")
        action = raw.get("required_action")
        if action not in ACTIONS:
            raise ValueError(f"invalid household required action: {action}")
        due = raw.get("due_date")
        parse_day(due, "due_date")
        return {"name": name, "required_action": action, "due_date": due}

    @member
    def _item(self, item_name):
        """Exact, case-sensitive lookup; an unknown name raises ValueError."""
        try:
            return self.items[item_name]
        except KeyError as exc:
            raise ValueError(f"household item not found: {item_name}") from exc

    # --- the state document ---------------------------------------------------------------
    def snapshot(self, freeze: bool = False, round_digits: int | None = None) -> dict:
        return {
            "items": self._section("items", _items_doc, freeze, round_digits),
            "user_action_lists": self._users_section("user_action_lists", _actions_doc, freeze, round_digits),
        }

    # --- item queries -------------------------------------------------------------------
    @tool
    def get_all_item_names(self):
        return list(self.items)

    @tool
    def get_item_category(self, item_name):
        return self._item(item_name)["category"]

    def _names_where(self, keep: Callable[[dict], bool]) -> list:
        return [r["name"] for r in self.items.values() if keep(r)]

    @tool
    def find_items_by_category(self, category):
        if category not in CATEGORIES:
            raise ValueError(f"invalid household item category: {category}")
        return self._names_where(lambda r: r["category"] == category)

    @tool
    def get_item_ideal_storage_location(self, item_name):
        return self._item(item_name)["ideal_storage_location"]

    @tool
    def find_items_by_ideal_storage_location(self, location):
        if location not in LOCATIONS:
            raise ValueError(f"invalid household storage location: {location}")
        return self._names_where(lambda r: r["ideal_storage_location"] == location)

    @tool
    def get_item_purchase_date(self, item_name):
        return self._item(item_name)["purchase_date"]

    def _date_window(self, start_date, end_date) -> tuple[date, date]:
        first = parse_day(start_date, "start_date")
        last = parse_day(end_date, "end_date")
        if first > last:
            raise ValueError("start_date cannot be later than end_date")
        return first, last

    @tool
    def find_items_by_purchase_date_range(self, start_date, end_date):
        first, last = self._date_window(start_date, end_date)
        return self._names_where(lambda r: r["purchase_date"] is not None
                                 and first <= parse_day(r["purchase_date"], "purchase_date") <= last)

    @tool
    def get_item_purchase_price(self, item_name):
        return self._item(item_name)["purchase_price"]

    @tool
    def find_items_by_purchase_price_range(self, min_price, max_price):
        if min_price < 0 or max_price < 0 or min_price > max_price:
            raise ValueError("prices must be non-negative and min_price cannot exceed max_price")
        return self._names_where(lambda r: min_price <= r["purchase_price"] <= max_price)

    @tool
    def get_item_usage_history(self, item_name):
        return list(self._item(item_name)["usage_history"])

    @tool
    def find_items_used_during_date_range(self, start_date, end_date):
        first, last = self._date_window(start_date, end_date)
        found = []
        for record in self.items.values():
            for text in record["usage_history"]:
                head, tail = text.split("/")
                begin = parse_day(record["purchase_date"] if head == "PURCHASE_DATE" else head, "usage start")
                end = self._today() if tail == "PRESENT" else parse_day(tail, "usage end")
                if begin <= last and first <= end:
                    found.append(record["name"])
                    break
        return found

    @tool
    def get_item_maintenance_history(self, item_name):
        return [dict(m) for m in self._item(item_name)["maintenance_history"]]

    @tool
    def get_item_maintenance_and_usage_instructions(self, item_name):
        if not isinstance(item_name, list) or not item_name:
            raise ValueError("item_name must be a non-empty list of household item names")
        if any(not isinstance(n, str) or not n for n in item_name):
            raise ValueError("item_name must contain only non-empty strings")
        return {n: self._item(n)["care_and_usage_instructions"] for n in item_name}

    # --- action lists -------------------------------------------------------------------
    @tool
    def add_to_household_action_list(self, user_id, name, required_action, due_date):
        if not _nonblank_str(user_id):
            raise ValueError("user_id must be a non-empty string")
        self._item(name)
        entry = self._make_action({"name": name, "required_action": required_action, "due_date": due_date},
                                  self.items)
        self._user_entry("user_action_lists", user_id, create=list).append(entry)
        return dict(ADDED)

    @tool
    def remove_from_household_action_list(self, user_id, name, required_action, due_date):
        if required_action not in ACTIONS:
            raise ValueError(f"invalid household required action: {required_action}")
        parse_day(due_date, "due_date")
        entries = self.user_action_lists.get(user_id, [])
        for index, entry in enumerate(entries):
            if entry["name"] == name and entry["required_action"] == required_action \
                    and entry["due_date"] == due_date:
                self._user_entry("user_action_lists", user_id).pop(index)
                return dict(REMOVED)
        raise ValueError("matching household action was not found")

    @tool
    def get_household_action_list(self, user_id):
        if not _nonblank_str(user_id):
            raise ValueError("user_id must be a non-empty string")
        return [dict(a) for a in self.user_action_lists.get(user_id, [])]
