"""Warehouse environment (docs/egobench2/warehouse.md): equipment profiles and action lists.

New in the 2026 EgoBench release. Unlike the first release's environments, the
reference reports every failure by *raising* ``ValueError`` (never an error status) and
returns bare values: a string, a list of names, or a one-key ``{"message": ...}``
object for the two writes. The runner shows a raised error to the agent as
``{"error": "<text>"}``; the scorer's replay skips the call. Both are reproduced here by
raising the same exception type with the same text.

Names are matched exactly (case and white space included) everywhere: there is no
fuzzy lookup in this environment. The only fuzziness is the scorer's, on the
``equipment`` parameter (docs/egobench2/warehouse.md, section 6).

The seed is validated strictly and loaded all-or-nothing: a seed that breaks any rule
raises, and the state is then exactly what it was before.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, datetime
from typing import Any, Callable

from egoeval.tools.egobench.base import ScenarioEnv, member, tool

from .action_lists import load_action_lists

CATEGORIES = frozenset({
    "manual_equipment", "power_equipment", "measuring_and_testing_equipment", "lifting_and_moving_equipment",
    "access_equipment", "safety_equipment", "cleaning_equipment", "storage_equipment", "consumable", "other",
})
LOCATIONS = frozenset({
    "dry_equipment_cabinet", "locked_equipment_cabinet", "wall_rack", "pegboard", "drawer_unit", "parts_bin",
    "shelving_unit", "floor_storage_area", "charging_station", "safety_equipment_cabinet",
    "chemical_storage_cabinet", "outdoor_storage_shed",
})
#: periodic maintenance: the only actions a maintenance record may carry
MAINTENANCE_ACTIONS = frozenset({"clean", "inspect", "lubricate", "calibrate", "sharpen", "condition"})
#: end-of-life and other one-off actions: allowed in action lists only
LIFECYCLE_ACTIONS = frozenset({"replace", "repair", "relocate", "dispose"})
ACTIONS = MAINTENANCE_ACTIONS | LIFECYCLE_ACTIONS
#: every seed date (purchase, use, maintenance) lies in this window; due dates are unbounded
FIRST_DAY = date(2016, 8, 20)
LAST_DAY = date(2026, 8, 1)

# Both patterns run on the lower-cased instructions.
_SERVICE_LIFE = re.compile(r"maximum service life is (\d+) years? from purchase\.$")
_SCHEDULE = re.compile(r"\b(clean|inspect|lubricate|calibrate|sharpen|condition) every \d+ months?\b")


def parse_day(value: Any, field: str) -> date:
    """A ``YYYY-MM-DD`` string as a date, parsed by ``strptime`` as the reference does.

    ``strptime`` also accepts unpadded months and days ("2026-8-1"); such a string is
    valid, and is kept as written wherever it is stored.
    """
    if not isinstance(value, str):
        raise ValueError(f"{field} must be a YYYY-MM-DD string")
    try:
        return datetime.strptime(value, "%Y-%m-%d").date()
    except ValueError as exc:
        raise ValueError(f"{field} must use YYYY-MM-DD format") from exc


def prescribes(instructions: str, action: str) -> bool:
    """Whether the instructions schedule ``action`` ("<action> every N month(s)")."""
    return re.search(rf"\b{re.escape(action)} every \d+ months?\b", instructions.lower()) is not None


def maintenance_record(raw: Any) -> dict:
    """One maintenance record from seed data: exactly ``date`` and ``action``."""
    if set(raw) != {"date", "action"}:
        raise ValueError("maintenance records must contain only date and action")
    when = raw.get("date")
    parse_day(when, "maintenance date")
    action = raw.get("action")
    if action not in MAINTENANCE_ACTIONS:
        raise ValueError(f"invalid equipment maintenance action: {action}")
    return {"date": when, "action": action}


def _nonblank(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def equipment_record(raw: Any) -> dict:
    """One equipment record from seed data, checked field by field in the reference's order.

    The name and every other string are kept exactly as written (no lower-casing, no
    trimming); lists are copied.
    """
    name = raw.get("equipment")
    if not _nonblank(name):
        raise ValueError("equipment must be a non-empty string")
    category = raw.get("category")
    if category not in CATEGORIES:
        raise ValueError(f"invalid equipment category: {category}")
    in_video = raw.get("appears_in_video")
    if not isinstance(in_video, bool):
        raise ValueError("appears_in_video must be a boolean")
    brand, country = raw.get("brand"), raw.get("country_of_origin")
    if not _nonblank(brand):
        raise ValueError("brand must be a non-empty string")
    if not _nonblank(country):
        raise ValueError("country_of_origin must be a non-empty string")
    purchased = raw.get("purchase_date")
    bought = parse_day(purchased, "purchase_date")
    if not FIRST_DAY <= bought <= LAST_DAY:
        raise ValueError("purchase_date must be between 2016-08-20 and 2026-08-01")
    location = raw.get("ideal_storage_location")
    if location not in LOCATIONS:
        raise ValueError(f"invalid equipment storage location: {location}")

    uses = list(raw.get("usage_history", []))
    if len(uses) > 7 or len(set(uses)) != len(uses):
        raise ValueError("usage_history must contain at most 7 unique dates")
    for used in uses:
        if not bought <= parse_day(used, "usage date") <= LAST_DAY:
            raise ValueError("usage dates must be between purchase_date and 2026-08-01")
    if uses != sorted(uses):  # string order, which is date order only for padded dates
        raise ValueError("usage_history must be ordered by date")

    instructions = raw.get("maintenance_and_usage_instructions")
    if not _nonblank(instructions):
        raise ValueError("maintenance_and_usage_instructions must be a non-empty string")
    if "\n" in instructions or "\r" in instructions:
        raise ValueError("maintenance_and_usage_instructions must be one paragraph")
    text = instructions.lower()
    lives = _SERVICE_LIFE.findall(text)
    if len(lives) != 1 or not 1 <= int(lives[0]) <= 10:
        raise ValueError("maintenance_and_usage_instructions must end with one maximum service life "
                         "from 1 to 10 years and no end-of-life action")
    scheduled = _SCHEDULE.findall(text)
    if len(set(scheduled)) < 2:
        raise ValueError("maintenance_and_usage_instructions must recommend at least two maintenance methods")
    if not text.startswith("usage:"):
        raise ValueError("maintenance_and_usage_instructions must include a usage instruction")

    history = [maintenance_record(r) for r in raw.get("maintenance_history", [])]
    if not 3 <= len(history) <= 7:
        raise ValueError("maintenance_history must contain 3 to 7 records")
    days = [r["date"] for r in history]
    if days != sorted(days):
        raise ValueError("maintenance_history must be ordered by date")
    for r in history:
        if not bought <= parse_day(r["date"], "maintenance date") <= LAST_DAY:
            raise ValueError("maintenance dates must be between purchase_date and 2026-08-01")
        if r["action"] not in scheduled:
            raise ValueError("maintenance action must appear in maintenance_and_usage_instructions")
    return {
        "equipment": name, "appears_in_video": in_video, "category": category, "brand": brand,
        "country_of_origin": country, "purchase_date": purchased, "ideal_storage_location": location,
        "usage_history": uses, "maintenance_and_usage_instructions": instructions, "maintenance_history": history,
    }


def check_groups(equipment: dict[str, dict]) -> None:
    """Catalog-wide rules of a seed: enough items, and no value left alone.

    Only values that items *not* seen in the video carry are checked for categories and
    locations (the generated filler must come in groups); brands are checked for all.
    """
    items = list(equipment.values())
    if len(items) < 40:
        raise ValueError("each warehouse scenario must contain at least 40 equipment items")
    generated = [i for i in items if not i["appears_in_video"]]
    categories = Counter(i["category"] for i in items)
    if any(categories[i["category"]] < 5 for i in generated):
        raise ValueError("every generated category must have at least 5 equipment items")
    locations = Counter(i["ideal_storage_location"] for i in items)
    if any(locations[i["ideal_storage_location"]] < 3 for i in generated):
        raise ValueError("every represented ideal_storage_location must have at least 3 equipment items")
    brands = Counter(i["brand"] for i in items)
    if any(n < 3 for n in brands.values()):
        raise ValueError("every represented brand must have at least 3 equipment items")
    countries: dict[str, set] = {}
    for i in items:
        countries.setdefault(i["brand"], set()).add(i["country_of_origin"])
    if any(len(c) != 1 for c in countries.values()):
        raise ValueError("each brand must map to exactly one country of origin")


def action_entry(raw: Any, known: Any, instructions_of: Callable[[Any], str]) -> dict:
    """One action-list entry, checked against the equipment names in ``known``.

    A maintenance action must be one the equipment's instructions schedule; a
    lifecycle action (replace, repair, relocate, dispose) needs nothing more. The due
    date must parse but may be any date.
    """
    name = raw.get("equipment")
    if name not in known:
        raise ValueError(f"unknown equipment: {name}")
    action = raw.get("required_action")
    if action not in ACTIONS:
        raise ValueError(f"invalid equipment required action: {action}")
    due = raw.get("due_date")
    parse_day(due, "due_date")
    if action in MAINTENANCE_ACTIONS and not prescribes(instructions_of(name), action):
        raise ValueError("maintenance action must be prescribed in the equipment's instructions")
    return {"equipment": name, "required_action": action, "due_date": due}




def _equipment_doc(equipment: dict) -> dict:
    return {name: {**r, "usage_history": list(r["usage_history"]),
                   "maintenance_history": [dict(m) for m in r["maintenance_history"]]}
            for name, r in equipment.items()}


def _actions_doc(actions: list) -> list:
    """A user's list as hashed: sorted by (equipment, required_action, due_date)."""
    return sorted((dict(a) for a in actions), key=lambda a: (a["equipment"], a["required_action"], a["due_date"]))


class WarehouseEnv(ScenarioEnv):
    scenario = "warehouse"
    cow_attrs = ("equipment",)  # only the seed loader writes it (by replacing it)
    user_attrs = ("user_action_lists",)

    def reset(self) -> None:
        self.equipment: dict[str, dict] = {}
        #: user_id -> list of {equipment, required_action, due_date}, in insertion order
        self.user_action_lists: dict[Any, list[dict]] = {}

    def load(self, seed: dict) -> None:
        """Validate the whole seed, then replace both sections; on any error nothing changes."""
        equipment: dict[str, dict] = {}
        for raw in seed.get("equipment", []):
            record = equipment_record(raw)
            if record["equipment"] in equipment:
                raise ValueError(f"duplicate equipment name: {record['equipment']}")
            equipment[record["equipment"]] = record
        check_groups(equipment)

        lists = load_action_lists(
            seed.get("equipment_action_lists", []), "equipment_action_lists", "equipment", "warehouse_user",
            lambda e: action_entry(e, equipment, lambda n: equipment[n]["maintenance_and_usage_instructions"]))
        self._replace("equipment", equipment)
        self._replace("user_action_lists", lists)

    def snapshot(self, freeze: bool = False, round_digits: int | None = None) -> dict:
        """What the newest evaluator hashes: every record in full, action lists sorted."""
        return {
            "equipment": self._section("equipment", _equipment_doc, freeze, round_digits),
            "user_action_lists": self._users_section("user_action_lists", _actions_doc, freeze, round_digits),
        }

    # --- helpers reachable by name (the reference dispatches any member) ----------------
    def _record(self, equipment) -> dict:
        try:
            return self.equipment[equipment]
        except KeyError:
            raise ValueError(f"equipment not found: {equipment}") from None

    @member
    def _equipment(self, equipment):
        """The exact-name lookup behind every per-item tool (ValueError when absent).

        The reference returns its record object (which its runner prints with ``str``);
        we return a copy of the record.
        """
        return _equipment_doc({equipment: self._record(equipment)})[equipment]

    @member
    def _make_equipment(self, raw):
        """The seed's record builder: validates ``raw`` and returns a record; no state change."""
        return equipment_record(raw)

    @member
    def _make_maintenance_record(self, raw):
        return maintenance_record(raw)

    @member
    def _make_action(self, raw, equipment):
        """The action builder, with the caller's own name collection.

        For a maintenance action the reference reads the instructions as an attribute of
        ``equipment[name]``, which no JSON value has: called by name, it then fails.
        """
        def instructions_of(name):
            value = equipment[name]
            raise AttributeError(f"'{type(value).__name__}' object has no attribute "
                                 "'maintenance_and_usage_instructions'")
        return action_entry(raw, equipment, instructions_of)

    @member
    def _validate_equipment_groups(self, equipment):
        """The seed's catalog-wide check. It reads attributes of record objects, which no
        JSON value has, so called by name it always fails (ValueError below 40 entries)."""
        if len(equipment) < 40:
            raise ValueError("each warehouse scenario must contain at least 40 equipment items")
        if not isinstance(equipment, dict):
            raise AttributeError(f"'{type(equipment).__name__}' object has no attribute 'values'")
        first = next(iter(equipment.values()))
        raise AttributeError(f"'{type(first).__name__}' object has no attribute 'category'")

    # --- reads --------------------------------------------------------------------------
    @tool
    def get_all_equipment(self):
        return list(self.equipment)

    @tool
    def get_equipment_category(self, equipment):
        return self._record(equipment)["category"]

    @tool
    def find_equipment_by_category(self, category):
        if category not in CATEGORIES:
            raise ValueError(f"invalid equipment category: {category}")
        return [name for name, r in self.equipment.items() if r["category"] == category]

    @tool
    def get_equipment_brand(self, equipment):
        return self._record(equipment)["brand"]

    @tool
    def find_equipment_by_brand(self, brand):
        return [name for name, r in self.equipment.items() if r["brand"] == brand]

    @tool
    def get_equipment_country_of_origin(self, equipment):
        return self._record(equipment)["country_of_origin"]

    @tool
    def find_equipment_by_country_of_origin(self, country):
        return [name for name, r in self.equipment.items() if r["country_of_origin"] == country]

    @tool
    def get_equipment_purchase_date(self, equipment):
        return self._record(equipment)["purchase_date"]

    @tool
    def find_equipment_by_purchase_date_range(self, start_date, end_date):
        """Inclusive range, compared as dates (so unpadded seed dates compare correctly)."""
        start, end = parse_day(start_date, "start_date"), parse_day(end_date, "end_date")
        if start > end:
            raise ValueError("start_date cannot be later than end_date")
        return [name for name, r in self.equipment.items()
                if start <= parse_day(r["purchase_date"], "purchase_date") <= end]

    @tool
    def get_equipment_ideal_storage_location(self, equipment):
        return self._record(equipment)["ideal_storage_location"]

    @tool
    def find_equipment_by_ideal_storage_location(self, location):
        if location not in LOCATIONS:
            raise ValueError(f"invalid equipment storage location: {location}")
        return [name for name, r in self.equipment.items() if r["ideal_storage_location"] == location]

    @tool
    def get_equipment_usage_history(self, equipment):
        return list(self._record(equipment)["usage_history"])

    @tool
    def get_equipment_maintenance_and_usage_instructions(self, equipment):
        """The one tool that takes a list of names; the answer maps each name to its text.

        The list is checked whole before any lookup; a repeated name appears once.
        """
        if not isinstance(equipment, list) or not equipment:
            raise ValueError("equipment must be a non-empty list of equipment names")
        if any(not isinstance(name, str) or not name for name in equipment):
            raise ValueError("equipment must contain only non-empty strings")
        return {name: self._record(name)["maintenance_and_usage_instructions"] for name in equipment}

    @tool
    def get_equipment_maintenance_history(self, equipment):
        return [dict(r) for r in self._record(equipment)["maintenance_history"]]

    @tool
    def get_equipment_action_list(self, user_id):
        if not _nonblank(user_id):
            raise ValueError("user_id must be a non-empty string")
        return [dict(a) for a in self.user_action_lists.get(user_id, [])]

    # --- writes -------------------------------------------------------------------------
    @tool
    def add_to_equipment_action_list(self, user_id, equipment, required_action, due_date):
        """Always appends (duplicates allowed); any user id that is a non-blank string."""
        if not _nonblank(user_id):
            raise ValueError("user_id must be a non-empty string")
        record = self._record(equipment)
        entry = action_entry({"equipment": equipment, "required_action": required_action, "due_date": due_date},
                             self.equipment, lambda name: record["maintenance_and_usage_instructions"])
        self._user_entry("user_action_lists", user_id, create=list).append(entry)
        return {"message": "Equipment action added successfully."}

    @tool
    def remove_from_equipment_action_list(self, user_id, equipment, required_action, due_date):
        """Removes the first entry equal on all three fields. A list emptied this way stays
        in the state as an empty list (which hashes differently from no list)."""
        if required_action not in ACTIONS:
            raise ValueError(f"invalid equipment required action: {required_action}")
        parse_day(due_date, "due_date")
        for index, a in enumerate(self.user_action_lists.get(user_id, [])):
            if a["equipment"] == equipment and a["required_action"] == required_action and a["due_date"] == due_date:
                self._user_entry("user_action_lists", user_id).pop(index)
                return {"message": "Equipment action removed successfully."}
        raise ValueError("matching equipment action was not found")
