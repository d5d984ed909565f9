"""List merging and sorting of call parameters, as the newest official evaluator does
before matching and before replay (docs/egobench2/scoring.md, section 6).

Lines of the same item are one line: ``[{"dish_name": "Salad ", "quantity": 1},
{"dish_name": "salad", "quantity": 2}]`` is ``[{"dish_name": "Salad ", "quantity": 3}]``,
and the order of a list of objects does not matter. Lists holding anything but objects
are left in their order.
"""

from __future__ import annotations

import json
import math
from typing import Any

#: the member naming an object's item, first present with a non-null value wins
IDENTITY_KEYS = ("product_name", "ingredient_name", "equipment", "item_name", "dish_name", "set_meal_name",
                 "restaurant_name", "recipe_name", "name")


def merge_lists(value: Any) -> Any:
    """``value`` with every list of objects (at any depth) merged and sorted (6.1)."""
    if isinstance(value, dict):
        return {k: merge_lists(v) for k, v in value.items()}
    if isinstance(value, list):
        items = [merge_lists(v) for v in value]
        if not items or not all(isinstance(v, dict) for v in items):
            return items
        return sorted(_merge(items), key=_sort_key)
    return value


def _identity(obj: dict) -> tuple[str, Any] | None:
    for key in IDENTITY_KEYS:
        if obj.get(key) is not None:
            return key, obj[key]
    return None


def _canon(text: str) -> str:
    return text.strip().lower()


def _same_name(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return _canon(a) == _canon(b)
    return a == b


def _merge(objects: list[dict]) -> list[dict]:
    groups: list[dict] = []
    for obj in objects:
        ident = _identity(obj)
        target = None
        if ident is not None:
            target = next((g for g in groups if (gi := _identity(g)) is not None and gi[0] == ident[0]
                           and _same_name(gi[1], ident[1])), None)
        if target is None:
            groups.append(dict(obj))
        else:
            _absorb(target, obj)
    return groups


def _number(value: Any) -> float | None:
    """A quantity as a number: booleans are not numbers; numeric strings are."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip()) if value.strip() else None
        except ValueError:
            return None
    return None


def _absorb(group: dict, obj: dict) -> None:
    """Fold ``obj`` into ``group``: quantities add up, other fields keep the first
    non-empty value (null or blank text is empty)."""
    for key, value in obj.items():
        if key == "quantity":
            a, b = _number(group.get("quantity")), _number(value)
            if a is not None and b is not None:
                total = a + b
                group["quantity"] = int(total) if math.isfinite(total) and total.is_integer() else total
            elif group.get("quantity") is None:
                group["quantity"] = value
            continue
        current = group.get(key)
        if current is None or (isinstance(current, str) and not current.strip()):
            group[key] = value


def _integral(value: Any) -> Any:
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral(v) for v in value]
    return value


def _sort_key(obj: dict) -> str:
    ident = _identity(obj)
    if ident is not None:
        name = ident[1]
        return _canon(name if isinstance(name, str) else str(name))  # Python's str: True -> "true" once lowered
    return json.dumps(_integral(obj), sort_keys=True, ensure_ascii=False, default=str)

