"""Restaurant6 environment of the 2026 release (docs/egobench2/restaurant.md).

``restaurant6`` is the multi-restaurant variant of the restaurant scenario; it replaces the
first release's ``order`` scenario and has the same state and hash layout (one store per
restaurant name). It therefore subclasses the first-release :class:`OrderEnv` and changes
only what differs:

1. **No store is created by a lookup.** An unknown restaurant name gives a throw-away empty
   store for every tool, reads and writes alike (so e.g. ``add_dish_to_order`` answers
   "does not exist in catalog" and ``create_set_meal`` with no dishes "succeeds" without
   storing anything). Only ``add_dish_to_catalog`` (before it validates anything), the
   seed loader and the helper ``_ensure_store`` create stores.
2. The catalog tools take ``dish_name`` instead of ``name``.
3. The stores are :class:`Store2` (stored set-meal price in ``get_set_meal_details``,
   lenient reading of included dishes, new seed-name defaults).
4. The compute tools look the restaurant up as ``restaurant_name or ""``: exact key first,
   then the first store whose name equals it case-insensitively.
5. Seed orders of the same user in the same restaurant are merged (lines of a later order
   replace same-named lines of an earlier one), not replaced.
"""

from __future__ import annotations

from egoeval.tools.egobench.base import member, tool
from egoeval.tools.egobench.order import OrderEnv

from .restaurant import MISSING_NAME, Store2


class Restaurant6Env(OrderEnv):
    scenario = "restaurant"
    #: kept for the interface of OrderEnv; restaurant6 never creates stores on lookups
    create_stores_on_read = False

    def clone(self) -> "Restaurant6Env":
        env = type(self).__new__(type(self))
        env.restaurants = {name: store.clone() for name, store in self.restaurants.items()}
        return env

    def load(self, seed: dict) -> None:
        """Wipe the whole state, then load the sections present in ``seed``, element by
        element (a malformed element leaves the ones before it loaded)."""
        self.restaurants = {}
        for d in seed["dishes"] if "dishes" in seed else []:
            name = d.get("restaurant_name")
            if name:
                self._ensure_store(name).add_seed_dish(d)  # the store exists even if the dish is skipped
        for m in seed["set_meals"] if "set_meals" in seed else []:
            name = m.get("restaurant_name")
            if name:
                self._ensure_store(name).add_seed_set_meal(m)
        for o in seed["user_orders"] if "user_orders" in seed else []:
            user = o.get("user_id")
            if not user:
                continue
            name = o.get("restaurant_name") or self._infer_restaurant(o.get("items", []))
            if not name:
                continue
            self._ensure_store(name).add_seed_order(user, o.get("items", []), keep_unknown=True, merge=True)

    def _infer_restaurant(self, items: list):
        """The restaurant of the first item found in some catalog, else the first one."""
        for item in items:
            key = item.get("dish_name", MISSING_NAME).lower()
            for name, store in self.restaurants.items():
                if key in store.catalog:
                    return name
        return next(iter(self.restaurants), None)

    # --- store lookup ------------------------------------------------------------------
    def _store(self, restaurant_name, read: bool = False) -> Store2:
        """The named store, or a throw-away empty one (never added to the state)."""
        store = self.restaurants.get(restaurant_name)
        return store if store is not None else Store2()

    @member
    def _get_store(self, restaurant_name):
        """The read helper, callable by name: never creates a store."""
        return self._store(restaurant_name)

    @member
    def _ensure_store(self, restaurant_name):
        """The write helper, callable by name: gets or creates the store."""
        store = self.restaurants.get(restaurant_name)
        if store is None:
            store = self.restaurants[restaurant_name] = Store2()
        return store

    def _find_store(self, restaurant_name):
        """The compute tools' lookup (``restaurant_name or ""``; exact, then case-insensitive)."""
        key = restaurant_name or ""
        store = self.restaurants.get(key)
        if store is None:
            for name, candidate in self.restaurants.items():
                if name.lower() == key.lower():
                    return candidate
        return store

    # --- tools that differ from the first release's order scenario ----------------------
    @tool
    def find_set_meals_containing_dish(self, restaurant_name, dish_name):
        return {"set_meals": self._store(restaurant_name).meals_containing(dish_name)}

    @tool
    def add_dish_to_catalog(self, restaurant_name, dish_name, category, price, tax_rate, discount,
                            nutritional_characteristics, taste, allergens, nutrition):
        return self._ensure_store(restaurant_name).add_dish_to_catalog(
            dish_name, category, price, tax_rate, discount, nutritional_characteristics, taste, allergens, nutrition)

    @tool
    def remove_dish_from_catalog(self, restaurant_name, dish_name):
        return self._store(restaurant_name).remove_dish_from_catalog(dish_name)

    @tool
    def update_dish_price(self, restaurant_name, dish_name, new_price):
        return self._store(restaurant_name).update_dish(dish_name, "price", new_price, "Price")

    @tool
    def update_dish_discount(self, restaurant_name, dish_name, new_discount):
        return self._store(restaurant_name).update_dish(dish_name, "discount", new_discount, "Discount")
