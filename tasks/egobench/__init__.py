"""The EgoBench suite: tasks, tool schemas and seed databases, shipped as package data.

Data: EgoBench (CC BY 4.0), see NOTICE.md beside this file. Which seed belongs to
which task file follows the reference runner and evaluator (shared MANIFEST.md).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from egoeval.task import Task

SUITE = "egobench"
DATA = Path(__file__).parent / "data"
SCENARIOS = ("retail", "kitchen", "restaurant", "order")
#: task file stems in a stable, readable order
FILES = tuple(
    [f"retail{i}" for i in range(1, 11)] + [f"kitchen{i}" for i in range(1, 5)]
    + [f"restaurant{i}" for i in range(1, 6)] + ["order1", "order2"]
)
#: order files and the restaurant each is set in (error analysis, SCORING.md A8)
ORDER_RESTAURANT = {1: "Annie Italian Restaurant", 2: "Mediterranean Greek Restaurant"}
#: names compared by the fuzzy name test (SCORING.md A4)
FUZZY_KEYS = {
    "retail": frozenset({"product_name"}),
    "kitchen": frozenset({"ingredient_name", "recipe_name", "recipes"}),
    "restaurant": frozenset({"dish_name", "set_meal_name"}),
    "order": frozenset({"dish_name", "set_meal_name", "restaurant_name"}),
}
#: error analysis: the tools whose arguments show what the agent recognised (SCORING.md A8)
QUERY_TOOLS = {
    "retail": frozenset({
        "get_price", "get_tax_rate", "get_category", "get_discount", "get_nutrition",
        "find_products_by_nutritional_characteristic", "find_products_by_taste",
        "find_products_by_country_of_origin", "find_products_by_price_range", "list_discounted_products",
    }),
    "restaurant": frozenset({
        "get_dish_price", "get_dish_discount", "get_dish_nutrition", "get_dish_allergens", "get_tax_rate",
        "get_dish_taste_profile", "get_user_order_summary", "get_set_meal_details", "find_dishes_by_category",
        "find_dishes_by_nutritional_tag", "find_dishes_by_taste", "find_set_meals_containing_dish",
        "list_all_discounted_dishes", "filter_dishes_by_price_range", "compute_total_payment",
        "compute_total_tax", "compute_total_nutrition",
    }),
    "kitchen": frozenset({
        "get_current_menu", "get_cooking_steps", "get_recipe_allergens", "get_recipe_taste",
        "get_recipe_ingredients", "get_ingredient_shelf_life", "get_ingredient_location",
        "get_ingredient_nutrition", "get_ingredient_quantity", "get_current_shopping_list",
        "get_recipe_nutritional_characteristics", "find_recipes_by_allergen", "find_recipes_by_taste",
        "find_recipes_by_ingredient", "find_ingredients_by_expiry_date", "find_ingredients_by_location",
        "find_recipes_by_nutritional_characteristics", "get_ingredients_by_category", "find_ingredient_category",
        "get_all_recipe_names", "get_all_ingredient_names", "tally_total_nutritional_characteristics",
        "tally_total_tastes", "compute_total_nutritions",
    }),
}
QUERY_TOOLS["order"] = QUERY_TOOLS["restaurant"]

_FILE_RE = re.compile(r"^([a-z]+)(\d+)$")


class UnknownTask(KeyError):
    """Raised for a task id or file name the suite does not have."""


def split_file(stem: str) -> tuple[str, int]:
    """``'retail10'`` -> ``('retail', 10)``; raises ValueError for other shapes."""
    m = _FILE_RE.match(stem)
    if not m or m.group(1) not in SCENARIOS:
        raise ValueError(f"not an EgoBench task file name: {stem!r}")
    return m.group(1), int(m.group(2))


def seed_name(scenario: str, variant: int) -> str | None:
    """Seed database of a (scenario, variant); None means the evaluator's empty database."""
    if scenario == "retail":
        return f"retail_init_data{variant}" if 1 <= variant <= 10 else None
    if scenario == "restaurant":
        if variant == 5:
            return "restaurant_init_data5"
        return "restaurant_init_data" if 1 <= variant <= 4 else None
    return f"{scenario}_init_data"


@lru_cache(maxsize=None)
def _read(path: Path) -> Any:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def seed(name: str | None) -> dict:
    return _read(DATA / "databases" / f"{name}.json") if name else {}


def tool_schemas(scenario: str) -> list[dict]:
    """The scenario's tool schemas exactly as shipped (identifier key ``tool_name``)."""
    return _read(DATA / "tools" / f"{scenario}.json")


def distractors() -> dict[str, list[str]]:
    return _read(DATA / "distractors.json")


def raw_tasks(stem: str, ground_truth: str = "pinned") -> list[dict]:
    """The task file as shipped; ``ground_truth='released'`` reads the released GT copy."""
    if ground_truth not in ("pinned", "released"):
        raise ValueError(f"ground_truth must be 'pinned' or 'released', not {ground_truth!r}")
    folder = "tasks" if ground_truth == "pinned" else "tasks_released_gt"
    path = DATA / folder / f"{stem}.json"
    if not path.exists():
        raise UnknownTask(stem)
    return _read(path)


_KNOWN = {"Instruction", "image_name", "image_path", "key", "value", "image_description", "task_id",
          "ground_truth", "analysis"}


def make_task(stem: str, position: int, raw: dict) -> Task:
    scenario, variant = split_file(stem)
    task_id = raw.get("task_id", position + 1)
    return Task(
        id=f"{SUITE}/{stem}/{task_id}", suite=SUITE, scenario=scenario, file=stem, task_id=task_id,
        instruction=raw.get("Instruction", ""), video=raw.get("image_path", ""),
        scene_description=raw.get("image_description", ""), ground_truth=raw.get("ground_truth", []),
        key=raw.get("key") or "", value=raw.get("value") or [], analysis=raw.get("analysis"),
        seed=seed_name(scenario, variant), extra={k: v for k, v in raw.items() if k not in _KNOWN},
    )


@lru_cache(maxsize=None)
def _file_tasks(stem: str) -> tuple[Task, ...]:
    return tuple(make_task(stem, i, raw) for i, raw in enumerate(raw_tasks(stem)))


def load_tasks(scenario: str | None = None, file: str | None = None) -> list[Task]:
    """All tasks, optionally of one scenario or one task file, in suite order."""
    stems = [f for f in FILES if (file is None or f == file) and (scenario is None or split_file(f)[0] == scenario)]
    if file is not None and not stems:
        raise UnknownTask(file)
    return [t for stem in stems for t in _file_tasks(stem)]


def get_task(task_id: str) -> Task:
    """Look a task up by ``egobench/retail1/7`` (or ``retail1/7``)."""
    parts = task_id.split("/")
    if parts[0] == SUITE:
        parts = parts[1:]
    if len(parts) != 2 or parts[0] not in FILES:
        raise UnknownTask(task_id)
    for t in _file_tasks(parts[0]):
        if str(t.task_id) == parts[1]:
            return t
    raise UnknownTask(task_id)
