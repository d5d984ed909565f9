"""Order environment (TOOLS.md section 6): one restaurant store per restaurant name.

Every tool but the three compute tools first fetches the store by its exact name and
*creates an empty one* when there is none -- reads included (TOOLS.md 6.2). That quirk
changes the final state, so it is reproduced; the ``strict`` profile can switch it off
for read tools (``create_stores_on_read = False``).
"""

from __future__ import annotations

from typing import Any

from .base import ScenarioEnv, fuzzy_matches, member, tool
from .restaurant import NUTRIENTS, Store, load_store_seed

READ_TOOLS = frozenset({
    "get_dish_nutrition", "get_tax_rate", "get_dish_allergens", "get_dish_taste_profile", "get_dish_price",
    "get_dish_discount", "find_dishes_by_category", "find_dishes_by_nutritional_tag", "find_dishes_by_taste",
    "filter_dishes_by_price_range", "list_all_discounted_dishes", "get_set_meal_details",
    "find_set_meals_containing_dish", "get_user_order_summary",
})


class OrderEnv(ScenarioEnv):
    scenario = "order"
    #: the reference creates a store on every lookup; strict replays turn this off for reads
    create_stores_on_read = True

    def reset(self) -> None:
        self.restaurants: dict[Any, Store] = {}

    def clone(self) -> "OrderEnv":
        env = type(self).__new__(type(self))
        env.restaurants = {name: store.clone() for name, store in self.restaurants.items()}
        env.create_stores_on_read = self.create_stores_on_read
        return env

    def load(self, seed: dict) -> None:
        """Wipe the whole state, then load the sections present in ``seed``."""
        self.restaurants = {}
        # Element by element, as the reference does: a malformed element leaves the
        # stores and entries loaded before it.
        for d in seed["dishes"] if "dishes" in seed else []:
            if d.get("restaurant_name"):
                load_store_seed(self.restaurants.setdefault(d["restaurant_name"], Store()), [d], [])
        for m in seed["set_meals"] if "set_meals" in seed else []:
            if m.get("restaurant_name"):
                load_store_seed(self.restaurants.setdefault(m["restaurant_name"], Store()), [], [m])
        for o in seed["user_orders"] if "user_orders" in seed else []:
            user = o.get("user_id")
            if not user:
                continue
            name = o.get("restaurant_name") or self._infer_restaurant(o.get("items", []))
            if name is None:
                continue
            self.restaurants.setdefault(name, Store()).add_seed_order(user, o.get("items", []), keep_unknown=True)

    def _infer_restaurant(self, items: list) -> Any:
        for item in items:
            key = item.get("dish_name", "").lower()
            for name, store in self.restaurants.items():
                if key in store.catalog:
                    return name
        return next(iter(self.restaurants), None)

    def catalog_names(self) -> list[str]:
        return [n for store in self.restaurants.values() for n in store.names()]

    def apply_profile(self, profile: Any) -> None:
        """Whether read tools create a store for an unknown restaurant (SCORING.md Q9)."""
        self.create_stores_on_read = profile.reads_create_stores

    def snapshot(self, freeze: bool = False, round_digits: int | None = None) -> dict:
        return {"restaurants": {name: store.snapshot(freeze, round_digits) for name, store in self.restaurants.items()}}

    # --- store lookup ------------------------------------------------------------------
    def _store(self, restaurant_name, read: bool = False) -> Store:
        store = self.restaurants.get(restaurant_name)
        if store is None:
            store = Store()
            if read and not self.create_stores_on_read:
                return store  # a throw-away empty store: nothing is added to the state
            self.restaurants[restaurant_name] = store
        return store

    @member
    def _get_store(self, restaurant_name):
        """The store helper: get or create a store; callable by name in the reference."""
        return self._store(restaurant_name)

    @member
    def _find_matching_dishes(self, restaurant_name, query):
        return fuzzy_matches(query, self._store(restaurant_name, True).catalog)

    @member
    def _find_matching_set_meals(self, restaurant_name, query):
        return fuzzy_matches(query, self._store(restaurant_name, True).set_meals)

    def _find_store(self, restaurant_name) -> Store | None:
        """The compute tools' lookup: exact name, then case-insensitive; never creates."""
        if restaurant_name in self.restaurants:
            return self.restaurants[restaurant_name]
        wanted = restaurant_name.lower()
        for name, store in self.restaurants.items():
            if isinstance(name, str) and name.lower() == wanted:
                return store
        return None

    # --- per-dish queries ----------------------------------------------------------------
    @tool
    def get_dish_nutrition(self, restaurant_name, dish_name):
        return self._store(restaurant_name, True).dish_query(dish_name, "nutrition")

    @tool
    def get_tax_rate(self, restaurant_name, dish_name):
        return self._store(restaurant_name, True).dish_query(dish_name, "tax_rate")

    @tool
    def get_dish_allergens(self, restaurant_name, dish_name):
        return self._store(restaurant_name, True).dish_query(dish_name, "allergens")

    @tool
    def get_dish_taste_profile(self, restaurant_name, dish_name):
        return self._store(restaurant_name, True).dish_query(dish_name, "taste")

    @tool
    def get_dish_price(self, restaurant_name, dish_name):
        return self._store(restaurant_name, True).dish_query(dish_name, "price")

    @tool
    def get_dish_discount(self, restaurant_name, dish_name):
        return self._store(restaurant_name, True).dish_query(dish_name, "discount")

    @tool
    def find_dishes_by_category(self, restaurant_name, category):
        store = self._store(restaurant_name, True)
        c = category.lower()
        return {"dishes": store.dishes_where(lambda d: d["category"] == c)}

    @tool
    def find_dishes_by_nutritional_tag(self, restaurant_name, tag):
        store = self._store(restaurant_name, True)
        t = tag.lower()
        return {"dishes": store.dishes_where(lambda d: t in d["nutritional_characteristics"])}

    @tool
    def find_dishes_by_taste(self, restaurant_name, taste):
        store = self._store(restaurant_name, True)
        t = taste.lower()
        return {"dishes": store.dishes_where(lambda d: t in d["taste"])}

    @tool
    def filter_dishes_by_price_range(self, restaurant_name, min_price, max_price):
        store = self._store(restaurant_name, True)
        return {"dishes": store.dishes_where(lambda d: min_price <= d["price"] <= max_price)}

    @tool
    def list_all_discounted_dishes(self, restaurant_name):
        store = self._store(restaurant_name, True)
        return {"discounted_dishes": [k for k, d in store.catalog.items() if d["discount"] < 1.0]}

    @tool
    def get_set_meal_details(self, restaurant_name, set_meal_name):
        return self._store(restaurant_name, True).set_meal_details(set_meal_name)

    @tool
    def find_set_meals_containing_dish(self, restaurant_name, dish_name):
        store = self._store(restaurant_name, True)
        key = dish_name.lower()
        return {"set_meals": [m["name"] for m in store.set_meals.values()
                              if any(x["dish_name"].lower() == key for x in m["included_dishes"])]}

    @tool
    def get_user_order_summary(self, restaurant_name, user_id):
        return self._store(restaurant_name, True).order_summary(user_id)

    # --- order writes ----------------------------------------------------------------------
    @tool
    def add_dish_to_order(self, restaurant_name, user_id, dish_name, quantity):
        return self._store(restaurant_name).add_dish_to_order(user_id, dish_name, quantity)

    @tool
    def remove_dish_from_order(self, restaurant_name, user_id, dish_name, quantity):
        return self._store(restaurant_name).remove_dish_from_order(user_id, dish_name, quantity)

    @tool
    def clear_user_order(self, restaurant_name, user_id):
        return self._store(restaurant_name).clear_user_order(user_id)

    @tool
    def add_set_meal_to_order(self, restaurant_name, user_id, set_meal_name, quantity):
        return self._store(restaurant_name).add_set_meal_to_order(user_id, set_meal_name, quantity)

    @tool
    def remove_set_meal_from_order(self, restaurant_name, user_id, set_meal_name, quantity):
        return self._store(restaurant_name).remove_set_meal_from_order(user_id, set_meal_name, quantity)

    # --- catalog writes --------------------------------------------------------------------
    @tool
    def add_dish_to_catalog(self, restaurant_name, name, category, price, tax_rate, discount,
                            nutritional_characteristics, taste, allergens, nutrition):
        return self._store(restaurant_name).add_dish_to_catalog(
            name, category, price, tax_rate, discount, nutritional_characteristics, taste, allergens, nutrition)

    @tool
    def remove_dish_from_catalog(self, restaurant_name, name):
        return self._store(restaurant_name).remove_dish_from_catalog(name)

    @tool
    def update_dish_price(self, restaurant_name, name, new_price):
        return self._store(restaurant_name).update_dish(name, "price", new_price, "Price")

    @tool
    def update_dish_discount(self, restaurant_name, name, new_discount):
        return self._store(restaurant_name).update_dish(name, "discount", new_discount, "Discount")

    @tool
    def create_set_meal(self, restaurant_name, set_meal_name, included_dishes, set_meal_price, set_meal_discount):
        return self._store(restaurant_name).create_set_meal(set_meal_name, included_dishes, set_meal_price,
                                                            set_meal_discount)

    # --- computations (never create a store) -----------------------------------------------
    def _compute(self, restaurant_name, user_id, dishes, kind: str, field: str, zero: Any) -> dict:
        store = self._find_store(restaurant_name)
        value = store.compute(dishes, kind, True) if store is not None else zero
        return {"restaurant_name": restaurant_name, "user_id": user_id, field: value}

    @tool
    def compute_total_payment(self, restaurant_name, user_id, dishes):
        return self._compute(restaurant_name, user_id, dishes, "payment", "total_payment", 0.0)

    @tool
    def compute_total_tax(self, restaurant_name, user_id, dishes):
        return self._compute(restaurant_name, user_id, dishes, "tax", "total_tax", 0.0)

    @tool
    def compute_total_nutrition(self, restaurant_name, user_id, dishes):
        return self._compute(restaurant_name, user_id, dishes, "nutrition", "total_nutrition",
                             {n: 0.0 for n in NUTRIENTS})
