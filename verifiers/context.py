"""Per-seed scoring context: the environment class, a pristine environment to clone
for replays, and the catalog used by the fuzzy name test (SCORING.md A4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from egoeval.tasks import egobench as suite
from egoeval.tools.egobench import ENVIRONMENTS, ScenarioEnv

from .profiles import Profile

FUZZY_KEYS = {
    "retail": frozenset({"product_name"}),
    "kitchen": frozenset({"ingredient_name", "recipe_name", "recipes"}),
    "restaurant": frozenset({"dish_name", "set_meal_name"}),
    "order": frozenset({"dish_name", "set_meal_name", "restaurant_name"}),
}


@dataclass
class ScoringContext:
    scenario: str
    variant: int
    seed_name: str | None
    env_cls: type[ScenarioEnv]
    pristine: ScenarioEnv
    catalog_names: tuple[str, ...]
    fuzzy_keys: frozenset[str]
    _matches: dict[str, frozenset[str]] = field(default_factory=dict)

    def params_of(self, tool: object, profile: Profile) -> tuple[str, ...] | None:
        """Parameter names of a callable member (None: no such tool); Q15 in strict."""
        names = self.env_cls.params_of(tool)
        if names is not None and profile.schema_tools_only and tool not in self.env_cls.tools:
            return None
        return names

    def fresh_env(self) -> ScenarioEnv:
        return self.pristine.clone()

    def catalog_matches(self, text: str) -> frozenset[str]:
        """M(x): catalog names containing lower(x) or contained in it (cached)."""
        hit = self._matches.get(text)
        if hit is None:
            q = text.lower()
            hit = frozenset(n for n in self.catalog_names if q in n or n in q)
            self._matches[text] = hit
        return hit


def _catalog_names(env: ScenarioEnv) -> tuple[str, ...]:
    names: list[str] = []
    if env.scenario == "retail":
        names = [p["name"].lower() for p in env.products.values()]
    elif env.scenario == "restaurant":
        names = [d["name"].lower() for d in env.store.catalog.values()]
        names += [m["name"].lower() for m in env.store.set_meals.values()]
    elif env.scenario == "order":
        for store in env.restaurants.values():
            names += [d["name"].lower() for d in store.catalog.values()]
            names += [m["name"].lower() for m in store.set_meals.values()]
    return tuple(dict.fromkeys(names))


@lru_cache(maxsize=None)
def get_context(scenario: str, variant: int) -> ScoringContext:
    name = suite.seed_name(scenario, variant)
    env_cls = ENVIRONMENTS[scenario]
    pristine = env_cls.from_seed(suite.seed(name))
    return ScoringContext(scenario, variant, name, env_cls, pristine, _catalog_names(pristine), FUZZY_KEYS[scenario])
