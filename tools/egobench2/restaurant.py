"""Restaurant environment of the 2026 release (docs/egobench2/restaurant.md).

The single-restaurant tools of the 2026 release (``restaurant1``-``restaurant5``) behave as
in the first release (``egoeval.tools.egobench.restaurant``) except for the points below,
so :class:`RestaurantEnv` subclasses the first-release environment and :class:`Store2`
subclasses its store, overriding only what changed:

1. the four catalog tools take ``dish_name`` (as the schema always said), not ``name``;
2. ``get_set_meal_details`` reports the *stored* ``set_meal_price`` (0.0 for every seed set
   meal), no longer the sum of the included dishes;
3. included dishes of a set meal are read leniently everywhere (``create_set_meal``,
   ``find_set_meals_containing_dish`` and the three compute tools): a missing
   ``dish_name`` reads as a single space and a missing ``quantity`` as 1.0, where the
   first release failed with a missing-key error;
4. the seed loader reads missing names as a single space and skips entries whose name is
   empty (dishes and set meals); missing dish names in set meals and order lines also read
   as a single space.

:class:`Store2` is shared with the multi-restaurant ``restaurant6`` environment
(``restaurant6.py``), whose stores have the same changes.
"""

from __future__ import annotations

from typing import Any

from egoeval.tools.egobench.base import NUTRITION_FIELDS, error, lower_list, success, tool
from egoeval.tools.egobench.restaurant import NUTRIENTS, RestaurantEnv as FirstReleaseRestaurantEnv, Store

#: how a seed or an included item names a dish when it names none
MISSING_NAME = " "


def seed_dish(d: dict) -> dict | None:
    """A catalog entry from a seed dish, or None when its name is empty (skipped).

    Fields are read in the reference's order (name, nutrition, then the rest), so a
    malformed dish fails on the same field. A nutrition value that is not an object
    fails (it is read with ``.get``).
    """
    name = d.get("name", MISSING_NAME).lower()
    if not name:
        return None
    n = d.get("nutrition", {})
    nutrition = {f: n.get(f) for f in NUTRITION_FIELDS}
    return {
        "name": name,
        "category": d.get("category", " ").lower(),
        "price": d.get("price", 0.0),
        "tax_rate": d.get("tax_rate", 0.0),
        "discount": d.get("discount", 1.0),
        "nutritional_characteristics": lower_list(d.get("nutritional_characteristics", [])),
        "taste": lower_list(d.get("taste", [])),
        "allergens": lower_list(d.get("allergens", [])),
        "nutrition": nutrition,
    }


def included_name(item: Any) -> Any:
    """The lower-cased dish name of an included item (a single space when absent)."""
    return item.get("dish_name", MISSING_NAME).lower()


def included_quantity(item: Any) -> Any:
    return item.get("quantity", 1.0)


class Store2(Store):
    """A restaurant store with the 2026 changes (module docstring, points 2-4)."""

    def clone(self) -> "Store2":
        s = type(self).__new__(type(self))
        self._share(s)
        return s

    # --- seed loading ----------------------------------------------------------------
    def add_seed_dish(self, d: dict) -> None:
        dish = seed_dish(d)
        if dish is not None:
            self._writable("catalog")[dish["name"]] = dish

    def add_seed_set_meal(self, m: dict) -> None:
        name = m.get("name", MISSING_NAME).lower()
        if not name:
            return
        included = []
        for x in m.get("included_dishes", []):
            key = included_name(x)
            if key in self.catalog:
                included.append({"dish_name": key, "quantity": x.get("quantity", 1.0)})
        self._writable("set_meals")[name] = {"name": name, "included_dishes": included,
                                             "set_meal_price": m.get("set_meal_price", 0.0),
                                             "set_meal_discount": m.get("set_meal_discount", 1.0)}

    def add_seed_order(self, user: Any, items: list, keep_unknown: bool, merge: bool = False) -> None:
        """Load one seed order. ``merge``: add to the user's existing lines instead of
        replacing them (the multi-restaurant loader does that)."""
        if merge:
            lines = self._user_entry("user_orders", user, create=dict)
        else:
            lines = {}
            self._set_user("user_orders", user, lines)
        for item in items:  # filled in place: a bad line keeps the lines before it
            key = item.get("dish_name", MISSING_NAME).lower()
            if keep_unknown or key in self.catalog or key in self.set_meals:
                lines[key] = {"dish_name": key, "quantity": item.get("quantity", 1.0)}

    # --- set meals -------------------------------------------------------------------
    def set_meal_details(self, set_meal_name) -> dict:
        meal = self.set_meals.get(set_meal_name.lower())
        if meal is None:
            return error(f"Set meal '{set_meal_name}' not found.")
        return {"name": meal["name"], "included_dishes": meal["included_dishes"],
                "price": meal["set_meal_price"], "discount": meal["set_meal_discount"]}

    def meals_containing(self, dish_name) -> list:
        key = dish_name.lower()
        return [m["name"] for m in self.set_meals.values()
                if any(included_name(x) == key for x in m["included_dishes"])]

    def create_set_meal(self, set_meal_name, included_dishes, set_meal_price, set_meal_discount) -> dict:
        try:
            for item in included_dishes:
                if included_name(item) not in self.catalog:
                    # an item without dish_name fails here, with the missing key as reason
                    return error(f"Dish '{item['dish_name']}' not found in catalog.")
            key = set_meal_name.lower()
        except Exception as exc:  # the reference reports any failure here as a result
            return error(f"Failed to create set meal: {exc}")
        self._writable("set_meals")[key] = {"name": key, "included_dishes": included_dishes,
                                            "set_meal_price": set_meal_price,
                                            "set_meal_discount": set_meal_discount}
        return success(f"Set meal '{set_meal_name}' created successfully.")

    # --- computations ----------------------------------------------------------------
    def _meal_parts(self, meal: dict) -> list[tuple[dict, Any]]:
        """(catalog dish, included quantity) for the included items found in the catalog."""
        parts = []
        for x in meal["included_dishes"]:
            name = included_name(x)
            quantity = included_quantity(x)
            if name in self.catalog:
                parts.append((self.catalog[name], quantity))
        return parts

    def compute(self, dishes, kind: str, skip_non_positive: bool) -> float | dict:
        """Payment, tax or nutrition totals of ``{dish_name, quantity}`` items.

        Same formulas as the first release; included items of a set meal are read with
        the lenient defaults, and only when the formula needs them.
        """
        total: Any = {n: 0.0 for n in NUTRIENTS} if kind == "nutrition" else 0.0
        for item in dishes:
            name = item.get("dish_name", MISSING_NAME).lower()
            quantity = item.get("quantity", 0)
            if skip_non_positive and quantity <= 0:
                continue
            dish = self.catalog.get(name)
            meal = self.set_meals.get(name) if dish is None else None
            if dish is None and meal is None:
                continue
            if kind == "payment":
                if dish is not None:
                    total += dish["price"] * dish["discount"] * quantity
                elif meal["set_meal_price"] and meal["set_meal_price"] > 0:
                    total += meal["set_meal_price"] * meal["set_meal_discount"] * quantity
                else:
                    sub = 0.0
                    for d, included in self._meal_parts(meal):
                        sub += d["price"] * d["discount"] * included
                    total += sub * meal["set_meal_discount"] * quantity
            elif kind == "tax":
                parts = [(dish, None)] if dish is not None else self._meal_parts(meal)
                for d, included in parts:
                    tax = d["price"] * d["tax_rate"] / (1 + d["tax_rate"]) * d["discount"]
                    total += tax * quantity if included is None else tax * included * quantity
            else:
                parts = [(dish, None)] if dish is not None else self._meal_parts(meal)
                for d, included in parts:
                    q = quantity if included is None else included * quantity
                    multiplier = q / 100 if d["nutrition"].get("basis") == "PER_100G" else q
                    for n in NUTRIENTS:
                        total[n] += (d["nutrition"].get(n) or 0) * multiplier
        if kind == "nutrition":
            return {n: round(v, 2) for n, v in total.items()}
        return round(total, 2)


class RestaurantEnv(FirstReleaseRestaurantEnv):
    """The single-restaurant environment of the 2026 release (restaurant1-5)."""

    scenario = "restaurant"

    def reset(self) -> None:
        self.store = Store2()

    def clone(self) -> "RestaurantEnv":
        env = type(self).__new__(type(self))
        env.store = self.store.clone()
        return env

    def load(self, seed: dict) -> None:
        """Each section present in ``seed`` replaces the current one (cleared first, so a
        malformed section leaves it partly loaded); absent sections stay as they are."""
        if "dishes" in seed:
            items = seed["dishes"]
            self.store._replace("catalog", {})
            for d in items:
                self.store.add_seed_dish(d)
        if "set_meals" in seed:
            items = seed["set_meals"]
            self.store._replace("set_meals", {})
            for m in items:
                self.store.add_seed_set_meal(m)
        if "user_orders" in seed:
            items = seed["user_orders"]
            self.store._replace("user_orders", {})
            for o in items:
                if o.get("user_id"):
                    self.store.add_seed_order(o["user_id"], o.get("items", []), keep_unknown=False)

    @tool
    def find_set_meals_containing_dish(self, dish_name):
        return {"set_meals": self.store.meals_containing(dish_name)}

    # --- catalog tools: the parameter is dish_name now ---------------------------------
    @tool
    def add_dish_to_catalog(self, dish_name, category, price, tax_rate, discount, nutritional_characteristics,
                            taste, allergens, nutrition):
        return self.store.add_dish_to_catalog(dish_name, category, price, tax_rate, discount,
                                              nutritional_characteristics, taste, allergens, nutrition)

    @tool
    def remove_dish_from_catalog(self, dish_name):
        return self.store.remove_dish_from_catalog(dish_name)

    @tool
    def update_dish_price(self, dish_name, new_price):
        return self.store.update_dish(dish_name, "price", new_price, "Price")

    @tool
    def update_dish_discount(self, dish_name, new_discount):
        return self.store.update_dish(dish_name, "discount", new_discount, "Discount")
