"""The NeurIPS 2026 EgoBench release (``egobench2``): retail, kitchen, restaurant
(restaurant6 chooses among several restaurants, in place of the first release's order
scenario), and the new warehouse and household scenarios.

Data: EgoBench (CC BY 4.0), see NOTICE.md beside this file. Which seed belongs to which
task file follows the official runner and evaluator (docs/egobench2/scoring.md, section 2).
"""

from __future__ import annotations

import os
import re
from functools import cached_property
from pathlib import Path


from egoeval.task import Task
from egoeval.tasks.egobench import QUERY_TOOLS as FIRST_QUERY_TOOLS
from egoeval.tasks.egobench.suite import CallsSuite
from egoeval.verifiers.profiles import NEWEST, STRICT_NEWEST

from .source import Clone, Shipped

SUITE = "egobench2"
HERE = Path(__file__).parent
DATA = HERE / "data"
#: scenario -> variants, in a stable, readable order
VARIANTS = {"retail": range(1, 11), "kitchen": range(1, 5), "restaurant": range(1, 7),
            "warehouse": range(1, 26), "household": range(1, 19)}
SCENARIOS = tuple(VARIANTS)
FILES = tuple(f"{s}{n}" for s, ns in VARIANTS.items() for n in ns)
#: the tool schema files: one per scenario, and restaurant6's own
TOOL_SETS = [*VARIANTS, "restaurant6"]
_FILE_RE = re.compile(r"^([a-z]+)(\d+)$")

FUZZY_KEYS = {
    "retail": frozenset({"product_name"}),
    "kitchen": frozenset({"ingredient_name", "recipe_name", "recipes"}),
    "restaurant": frozenset({"dish_name", "set_meal_name", "restaurant_name"}),
    "warehouse": frozenset({"equipment"}),
    "household": frozenset({"item_name", "name"}),
}
QUERY_TOOLS = {
    "retail": FIRST_QUERY_TOOLS["retail"],
    "kitchen": FIRST_QUERY_TOOLS["kitchen"],
    "restaurant": FIRST_QUERY_TOOLS["restaurant"],
    "warehouse": frozenset({
        "get_all_equipment", "get_equipment_category", "find_equipment_by_category", "get_equipment_brand",
        "find_equipment_by_brand", "get_equipment_country_of_origin", "find_equipment_by_country_of_origin",
        "get_equipment_purchase_date", "find_equipment_by_purchase_date_range",
        "get_equipment_ideal_storage_location", "find_equipment_by_ideal_storage_location",
        "get_equipment_usage_history", "get_equipment_maintenance_and_usage_instructions",
        "get_equipment_maintenance_history", "get_equipment_action_list",
    }),
    "household": frozenset({
        "get_all_item_names", "get_item_category", "find_items_by_category", "get_item_ideal_storage_location",
        "find_items_by_ideal_storage_location", "get_item_purchase_date", "find_items_by_purchase_date_range",
        "get_item_purchase_price", "find_items_by_purchase_price_range", "get_item_usage_history",
        "find_items_used_during_date_range", "get_item_maintenance_history",
        "get_item_maintenance_and_usage_instructions", "get_household_action_list",
    }),
}


class SeedMissing(KeyError):
    """A seed neither the shipped data nor the clone holds."""


class EgoBench2(CallsSuite):
    """The NeurIPS 2026 EgoBench release (1,590 tasks), scored by default under the
    ``official-newest`` profile (docs/egobench2/scoring.md)."""

    name = SUITE
    title = "EgoBench 2026 (NeurIPS release): retail / kitchen / restaurant / warehouse / household"
    scenarios = SCENARIOS
    folder = HERE
    profiles = {"official-newest": NEWEST, "strict": STRICT_NEWEST}
    default_profile = "official-newest"
    fuzzy_keys = FUZZY_KEYS
    query_tools = QUERY_TOOLS
    key_aliases = {"household": {"name": ("name", "item_name")}}
    plain_name_scenarios = frozenset({"kitchen"})
    id_member = "scenario_id"

    @cached_property
    def environments(self) -> dict[str, type]:  # type: ignore[override]
        from egoeval.tools.egobench import KitchenEnv
        from egoeval.tools.egobench2.household import HouseholdEnv
        from egoeval.tools.egobench2.restaurant import RestaurantEnv
        from egoeval.tools.egobench2.retail import RetailEnv
        from egoeval.tools.egobench2.warehouse import WarehouseEnv

        return {"retail": RetailEnv, "kitchen": KitchenEnv, "restaurant": RestaurantEnv,
                "warehouse": WarehouseEnv, "household": HouseholdEnv}

    def env_class(self, scenario: str, variant: int) -> type:
        if scenario == "restaurant" and variant == 6:  # several restaurants in one database
            from egoeval.tools.egobench2.restaurant6 import Restaurant6Env

            return Restaurant6Env
        return self.environments[scenario]

    # --- data -------------------------------------------------------------------------
    @cached_property
    def source(self) -> Shipped:
        """The shipped copy, or the clone ``EGOBENCH_DIR`` names."""
        root = os.environ.get("EGOBENCH_DIR")
        return Clone(Path(root), list(FILES), TOOL_SETS) if root else Shipped()

    def use_data_dir(self, path: str | os.PathLike) -> str:
        """Read tasks, schemas and seeds from a clone of the official repository; returns
        one line naming the files that differ from the shipped copy (empty: none).
        Raises ``source.BadClone`` for a folder that is not a clone."""
        self.__dict__["source"] = Clone(Path(path), list(FILES), TOOL_SETS)
        for cache in ("_contexts", "_facts", "_tasks"):
            self.__dict__.pop(cache, None)
        return self.source.note

    def results_stem(self, path: Path) -> str | None:
        """As the newest evaluator reads names: leading zeros allowed (``retail01`` is retail1)."""
        from egoeval.trajectory import results_file_stem

        named = results_file_stem(path)
        try:
            scenario, variant = self.split_file(named[0]) if named else (None, None)
        except ValueError:
            return None
        return f"{scenario}{variant}" if scenario else None

    def data_tag(self) -> str:
        return f"@{self.source.root}" if self.source.root else ""

    def files(self) -> tuple[str, ...]:
        return FILES

    def split_file(self, stem: str) -> tuple[str, int]:
        m = _FILE_RE.match(stem)
        if not m or m.group(1) not in VARIANTS or int(m.group(2)) not in VARIANTS[m.group(1)]:
            raise ValueError(f"not an EgoBench 2026 task file name: {stem!r}")
        return m.group(1), int(m.group(2))

    def raw_tasks(self, stem: str, ground_truth: str = "pinned") -> list[dict]:
        if ground_truth != "pinned" or stem not in FILES:
            raise KeyError(stem)
        return self.source.tasks(stem)

    def seed_name(self, scenario: str, variant: int) -> str | None:
        if scenario == "kitchen":
            return "kitchen_init_data"
        if scenario == "restaurant":
            return {5: "restaurant_init_data5", 6: "restaurant6_init_data"}.get(variant, "restaurant_init_data")
        return f"{scenario}_init_data{variant}"

    def seed(self, name: str | None) -> dict:
        if not name:
            return {}
        seed = self.source.seed(name)
        if seed is None:
            raise SeedMissing(f"seed {name} is neither shipped nor in the --egobench-dir clone")
        return seed

    def schemas(self, scenario: str) -> list[dict]:
        return self.source.schemas(scenario)

    def tool_schemas(self, task: Task) -> list[dict]:
        """restaurant6 has its own tools (every one names the restaurant)."""
        return self.schemas("restaurant6" if task.file == "restaurant6" else task.scenario)

    def expected_restaurant(self, scenario: str, variant: int) -> str | None:
        return "Mediterranean Greek Restaurant" if (scenario, variant) == ("restaurant", 6) else None

    def task_ref(self, stem: str, raw: dict, position: int) -> str:
        return f"{SUITE}/{stem}/{raw.get('scenario_id', raw.get('task_id', position + 1))}"

    def distractors(self, task: Task) -> list[str]:
        from egoeval.suites import get_suite

        return get_suite("egobench").distractors(task)

    # --- tasks --------------------------------------------------------------------------
    def load_tasks(self, scenario: str | None = None) -> list[Task]:
        return [t for stem in FILES if scenario is None or self.split_file(stem)[0] == scenario
                for t in self._file_tasks(stem)]

    def get_task(self, task_id: str) -> Task:
        parts = task_id.split("/")
        if len(parts) != 3 or parts[0] != SUITE or parts[1] not in FILES:
            raise KeyError(task_id)
        for t in self._file_tasks(parts[1]):
            if t.id == task_id:
                return t
        raise KeyError(task_id)

    @cached_property
    def _tasks(self) -> dict[str, tuple[Task, ...]]:
        return {}

    def _file_tasks(self, stem: str) -> tuple[Task, ...]:
        if stem not in self._tasks:
            self._tasks[stem] = self._make_tasks(stem)
        return self._tasks[stem]

    def _make_tasks(self, stem: str) -> tuple[Task, ...]:
        scenario, variant = self.split_file(stem)
        out = []
        for pos, raw in enumerate(self.raw_tasks(stem)):
            ref = self.task_ref(stem, raw, pos)
            out.append(Task(
                id=ref, suite=SUITE, scenario=scenario, file=stem, task_id=int(ref.rsplit("/", 1)[1]),
                instruction=raw.get("Instruction") or "", video=raw.get("image_path") or "",
                scene_description=raw.get("image_description", ""), ground_truth=raw.get("ground_truth", []),
                key=raw.get("key") or "", value=raw.get("value") or [], analysis=raw.get("analysis"),
                seed=self.seed_name(scenario, variant),
                extra={k: v for k, v in raw.items() if k not in _KNOWN}))
        return tuple(out)


_KNOWN = {"Instruction", "image_name", "image_path", "key", "value", "image_description", "task_id", "scenario_id",
          "ground_truth", "analysis"}
