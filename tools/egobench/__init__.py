"""The four EgoBench scenario environments (TOOLS.md)."""

from __future__ import annotations

from .base import ScenarioEnv
from .kitchen import KitchenEnv
from .order import OrderEnv
from .restaurant import RestaurantEnv
from .retail import RetailEnv

ENVIRONMENTS: dict[str, type[ScenarioEnv]] = {
    "retail": RetailEnv,
    "kitchen": KitchenEnv,
    "restaurant": RestaurantEnv,
    "order": OrderEnv,
}

__all__ = ["ENVIRONMENTS", "ScenarioEnv", "RetailEnv", "KitchenEnv", "RestaurantEnv", "OrderEnv"]
