"""Restaurant environment (TOOLS.md section 5) and the store it is made of.

A :class:`Store` holds one restaurant's dishes, set meals and user orders and carries
the logic of every tool. :class:`RestaurantEnv` exposes one store; the order scenario
(``order.py``) exposes several stores keyed by restaurant name.
"""

from __future__ import annotations

from typing import Any

from .base import CopyOnWrite, ScenarioEnv, error, fuzzy_matches, lower_list, member, nutrition_from_input, nutrition_record, success, tool

NUTRIENTS = ("calories_kcal", "protein_g", "fat_g", "carbs_g", "sugar_g", "sodium_mg", "fiber_g")
HASHED_DISH_FIELDS = ("name", "category", "price", "tax_rate", "discount", "nutritional_characteristics",
                      "taste", "allergens", "nutrition")


def dish_from_seed(d: dict) -> dict:
    name = d.get("name", "").lower()
    return {
        "name": name,
        "category": d.get("category", " ").lower(),
        "price": d.get("price", 0.0),
        "tax_rate": d.get("tax_rate", 0.0),
        "discount": d.get("discount", 1.0),
        "nutritional_characteristics": lower_list(d.get("nutritional_characteristics", [])),
        "taste": lower_list(d.get("taste", [])),
        "allergens": lower_list(d.get("allergens", [])),
        "nutrition": nutrition_record(d.get("nutrition")),
    }


def _catalog_doc(catalog: dict) -> dict:
    return {k: {f: d[f] for f in HASHED_DISH_FIELDS} for k, d in catalog.items()}


def _set_meals_doc(set_meals: dict) -> dict:
    return {k: {f: m[f] for f in ("name", "included_dishes", "set_meal_price", "set_meal_discount")}
            for k, m in set_meals.items()}


def _order_doc(lines: dict) -> list:
    return sorted((dict(line) for line in lines.values()), key=lambda line: line["dish_name"])


class Store(CopyOnWrite):
    """One restaurant: catalog of dishes, set meals and per-user orders."""

    cow_attrs = ("catalog", "set_meals")  # entries are replaced, never mutated in place
    user_attrs = ("user_orders",)

    def __init__(self) -> None:
        self._shared: set[str] = set()
        self._own_users: dict[str, set] = {}
        self.catalog: dict[str, dict] = {}
        self.set_meals: dict[str, dict] = {}
        self.user_orders: dict[Any, dict[str, dict]] = {}

    def clone(self) -> "Store":
        s = Store.__new__(Store)
        self._share(s)
        return s

    def add_seed_set_meal(self, m: dict) -> None:
        name = m.get("name", "").lower()
        included = []
        for x in m.get("included_dishes", []):
            key = x.get("dish_name", "").lower()
            if key in self.catalog:
                included.append({"dish_name": key, "quantity": x.get("quantity", 1.0)})
        self._writable("set_meals")[name] = {"name": name, "included_dishes": included,
                                "set_meal_price": m.get("set_meal_price", 0.0),
                                "set_meal_discount": m.get("set_meal_discount", 1.0)}

    def add_seed_order(self, user: Any, items: list, keep_unknown: bool) -> None:
        lines: dict[str, dict] = {}
        self._set_user("user_orders", user, lines)  # filled in place: a bad line keeps the lines before it
        for item in items:
            key = item.get("dish_name", "").lower()
            if keep_unknown or key in self.catalog or key in self.set_meals:
                lines[key] = {"dish_name": key, "quantity": item.get("quantity", 1.0)}

    def names(self) -> list[str]:
        """Dish names, then set-meal names (the catalog of the fuzzy name test)."""
        return [d["name"] for d in self.catalog.values()] + [m["name"] for m in self.set_meals.values()]

    def snapshot(self, freeze: bool = False, round_digits: int | None = None) -> dict:
        return {
            "catalog": self._section("catalog", _catalog_doc, freeze, round_digits),
            "set_meals": self._section("set_meals", _set_meals_doc, freeze, round_digits),
            "user_orders": self._users_section("user_orders", _order_doc, freeze, round_digits),
        }

    # --- queries ---------------------------------------------------------------------
    def dish_query(self, dish_name, field: str) -> dict:
        matches = fuzzy_matches(dish_name, self.catalog)
        if not matches:
            return error(f"No dishes found containing '{dish_name}'.")
        return {"status": "success", "matching_dishes": {d["name"]: d[field] for d in matches}}

    def dishes_where(self, predicate) -> list[str]:
        return [d["name"] for d in self.catalog.values() if predicate(d)]

    def set_meal_details(self, set_meal_name) -> dict:
        meal = self.set_meals.get(set_meal_name.lower())
        if meal is None:
            return error(f"Set meal '{set_meal_name}' not found.")
        return {"name": meal["name"], "included_dishes": meal["included_dishes"],
                "price": self.set_meal_price(meal), "discount": meal["set_meal_discount"]}

    def set_meal_price(self, meal: dict):
        price = meal["set_meal_price"]
        if price and price > 0:
            return price
        total = 0
        for x in meal["included_dishes"]:
            dish = self.catalog.get(x["dish_name"].lower())
            if dish is not None:
                total += dish["price"] * dish["discount"] * x["quantity"]
        return total

    def order_summary(self, user_id) -> dict:
        lines = self.user_orders.get(user_id, {})
        return {"user_id": user_id, "items": [dict(l) for l in lines.values()], "total_items": len(lines)}

    # --- order writes ------------------------------------------------------------------
    def add_line(self, user_id, key: str, quantity) -> None:
        order = self._user_entry("user_orders", user_id, create=dict)
        if key in order:
            order[key]["quantity"] += quantity
        else:
            order[key] = {"dish_name": key, "quantity": quantity}

    def remove_line(self, user_id, name, quantity) -> float | None:
        """Subtract ``quantity`` from a line; returns the new quantity or None if absent."""
        key = name.lower()
        order = self.user_orders.get(user_id)
        if order is None or key not in order:
            return None
        order = self._user_entry("user_orders", user_id)
        new = order[key]["quantity"] - quantity
        if new <= 0:
            del order[key]
        else:
            order[key]["quantity"] = new
        return new

    def add_dish_to_order(self, user_id, dish_name, quantity) -> dict:
        key = dish_name.lower()
        if key not in self.catalog:
            return error(f"Dish '{dish_name}' does not exist in catalog.")
        self.add_line(user_id, key, quantity)
        return success(f"Added {quantity} x {dish_name} to order for user {user_id}.")

    def remove_dish_from_order(self, user_id, dish_name, quantity) -> dict:
        new = self.remove_line(user_id, dish_name, quantity)
        if new is None:
            return error(f"Dish '{dish_name}' not found in order for user {user_id}.")
        if new >= 0:
            return success(f"Removed  from order for user {user_id}.")
        return success(f"Removed entire item (requested more than available) from order for user {user_id}.")

    def clear_user_order(self, user_id) -> dict:
        if user_id in self.user_orders:
            self._set_user("user_orders", user_id, {})
        return success(f"Order cleared for user {user_id}.")

    def add_set_meal_to_order(self, user_id, set_meal_name, quantity) -> dict:
        key = set_meal_name.lower()
        if key not in self.set_meals:
            return error(f"Set meal '{set_meal_name}' does not exist.")
        self.add_line(user_id, key, quantity)
        return success(f"Added {quantity} x {set_meal_name} set meal to order for user {user_id}.")

    def remove_set_meal_from_order(self, user_id, set_meal_name, quantity) -> dict:
        if self.remove_line(user_id, set_meal_name, quantity) is None:
            return error(f"Set meal '{set_meal_name}' not found in order for user {user_id}.")
        return success(f"Removed {quantity} x {set_meal_name} set meal from order for user {user_id}.")

    # --- catalog writes ----------------------------------------------------------------
    def add_dish_to_catalog(self, name, category, price, tax_rate, discount, nutritional_characteristics,
                            taste, allergens, nutrition) -> dict:
        try:
            dish = {
                "name": name.lower(), "category": category.lower(), "price": price, "tax_rate": tax_rate,
                "discount": discount,
                "nutritional_characteristics": lower_list(nutritional_characteristics),
                "taste": lower_list(taste), "allergens": lower_list(allergens),
                "nutrition": nutrition_from_input(nutrition),
            }
        except Exception as exc:  # the reference reports any construction failure
            return error(f"Failed to add/update dish: {exc}")
        self._writable("catalog")[name.lower()] = dish
        return success(f"Dish '{name}' added/updated successfully.")

    def remove_dish_from_catalog(self, name) -> dict:
        key = name.lower()
        if key not in self.catalog:
            return error(f"Dish '{name}' not found in catalog.")
        del self._writable("catalog")[key]
        for user, order in list(self.user_orders.items()):
            if key in order:
                del self._user_entry("user_orders", user)[key]
        return success(f"Dish '{name}' removed from catalog.")

    def update_dish(self, name, field: str, value, label: str) -> dict:
        key = name.lower()
        if key not in self.catalog:
            return error(f"Dish '{name}' not found in catalog.")
        self._writable("catalog")[key] = {**self.catalog[key], field: value}
        return success(f"{label} of dish '{name}' updated to {value}.")

    def create_set_meal(self, set_meal_name, included_dishes, set_meal_price, set_meal_discount) -> dict:
        try:
            for item in included_dishes:
                if item["dish_name"].lower() not in self.catalog:
                    return error(f"Dish '{item['dish_name']}' not found in catalog.")
            key = set_meal_name.lower()
        except Exception as exc:  # the reference reports any failure here as a result
            return error(f"Failed to create set meal: {exc}")
        self._writable("set_meals")[key] = {"name": key, "included_dishes": included_dishes,
                               "set_meal_price": set_meal_price, "set_meal_discount": set_meal_discount}
        return success(f"Set meal '{set_meal_name}' created successfully.")

    # --- computations --------------------------------------------------------------------
    def compute(self, dishes, kind: str, skip_non_positive: bool) -> float | dict:
        """Payment, tax or nutrition totals of a list of ``{dish_name, quantity}`` items."""
        total: Any = {n: 0.0 for n in NUTRIENTS} if kind == "nutrition" else 0.0
        for item in dishes:
            name = item.get("dish_name", " ").lower()
            quantity = item.get("quantity", 0)
            if skip_non_positive and quantity <= 0:
                continue
            dish = self.catalog.get(name)
            if dish is not None:
                parts = [(dish, None, quantity)]
                meal = None
            else:
                meal = self.set_meals.get(name)
                if meal is None:
                    continue
                parts = [(self.catalog[x["dish_name"].lower()], x["quantity"], quantity)
                         for x in meal["included_dishes"] if x["dish_name"].lower() in self.catalog]
            if kind == "payment":
                if meal is None:
                    total += dish["price"] * dish["discount"] * quantity
                elif meal["set_meal_price"] and meal["set_meal_price"] > 0:
                    total += meal["set_meal_price"] * meal["set_meal_discount"] * quantity
                else:
                    total += self.set_meal_price(meal) * meal["set_meal_discount"] * quantity
            elif kind == "tax":
                for d, included, q in parts:
                    tax = d["price"] * d["tax_rate"] / (1 + d["tax_rate"]) * d["discount"]
                    total += tax * q if included is None else tax * included * q
            else:
                for d, included, q in parts:
                    q = q if included is None else included * q
                    multiplier = q / 100 if d["nutrition"].get("basis") == "PER_100G" else q
                    for n in NUTRIENTS:
                        total[n] += (d["nutrition"].get(n) or 0) * multiplier
        if kind == "nutrition":
            return {n: round(v, 2) for n, v in total.items()}
        return round(total, 2)


def load_store_seed(store: Store, dishes: list, set_meals: list) -> None:
    """Add seed dishes and set meals to a store (set meals need the dishes first)."""
    catalog = store._writable("catalog")
    for d in dishes:
        dish = dish_from_seed(d)
        catalog[dish["name"]] = dish
    for m in set_meals:
        store.add_seed_set_meal(m)


class RestaurantEnv(ScenarioEnv):
    scenario = "restaurant"

    def reset(self) -> None:
        self.store = Store()

    def clone(self) -> "RestaurantEnv":
        env = RestaurantEnv.__new__(RestaurantEnv)
        env.store = self.store.clone()
        return env

    def load(self, seed: dict) -> None:
        """Load seed sections. Each section present in ``seed`` replaces the current one
        (cleared first, so a malformed section leaves it partly loaded); absent
        sections stay as they are."""
        if "dishes" in seed:
            items = seed["dishes"]
            self.store._replace("catalog", {})
            load_store_seed(self.store, items, [])
        if "set_meals" in seed:
            items = seed["set_meals"]
            self.store._replace("set_meals", {})
            load_store_seed(self.store, [], items)
        if "user_orders" in seed:
            items = seed["user_orders"]
            self.store._replace("user_orders", {})
            for o in items:
                if o.get("user_id"):
                    self.store.add_seed_order(o["user_id"], o.get("items", []), keep_unknown=False)

    @member
    def _find_matching_dishes(self, query):
        """The fuzzy dish lookup helper (TOOLS.md 2.1); callable by name in the reference."""
        return fuzzy_matches(query, self.store.catalog)

    @member
    def _find_matching_set_meals(self, query):
        """The fuzzy set-meal lookup helper; callable by name in the reference."""
        return fuzzy_matches(query, self.store.set_meals)

    def catalog_names(self) -> list[str]:
        return self.store.names()

    def snapshot(self, freeze: bool = False, round_digits: int | None = None) -> dict:
        return self.store.snapshot(freeze, round_digits)

    # --- tools (thin wrappers over the store) ------------------------------------------
    @tool
    def get_dish_nutrition(self, dish_name):
        return self.store.dish_query(dish_name, "nutrition")

    @tool
    def get_tax_rate(self, dish_name):
        return self.store.dish_query(dish_name, "tax_rate")

    @tool
    def get_dish_allergens(self, dish_name):
        return self.store.dish_query(dish_name, "allergens")

    @tool
    def get_dish_taste_profile(self, dish_name):
        return self.store.dish_query(dish_name, "taste")

    @tool
    def get_dish_price(self, dish_name):
        return self.store.dish_query(dish_name, "price")

    @tool
    def get_dish_discount(self, dish_name):
        return self.store.dish_query(dish_name, "discount")

    @tool
    def find_dishes_by_category(self, category):
        c = category.lower()
        return {"dishes": self.store.dishes_where(lambda d: d["category"] == c)}

    @tool
    def find_dishes_by_nutritional_tag(self, tag):
        t = tag.lower()
        return {"dishes": self.store.dishes_where(lambda d: t in d["nutritional_characteristics"])}

    @tool
    def find_dishes_by_taste(self, taste):
        t = taste.lower()
        return {"dishes": self.store.dishes_where(lambda d: t in d["taste"])}

    @tool
    def filter_dishes_by_price_range(self, min_price, max_price):
        return {"dishes": self.store.dishes_where(lambda d: min_price <= d["price"] <= max_price)}

    @tool
    def list_all_discounted_dishes(self):
        return {"discounted_dishes": [k for k, d in self.store.catalog.items() if d["discount"] < 1.0]}

    @tool
    def get_set_meal_details(self, set_meal_name):
        return self.store.set_meal_details(set_meal_name)

    @tool
    def find_set_meals_containing_dish(self, dish_name):
        key = dish_name.lower()
        return {"set_meals": [m["name"] for m in self.store.set_meals.values()
                              if any(x["dish_name"].lower() == key for x in m["included_dishes"])]}

    @tool
    def get_user_order_summary(self, user_id):
        return self.store.order_summary(user_id)

    @tool
    def add_dish_to_order(self, user_id, dish_name, quantity):
        return self.store.add_dish_to_order(user_id, dish_name, quantity)

    @tool
    def remove_dish_from_order(self, user_id, dish_name, quantity):
        return self.store.remove_dish_from_order(user_id, dish_name, quantity)

    @tool
    def clear_user_order(self, user_id):
        return self.store.clear_user_order(user_id)

    @tool
    def add_set_meal_to_order(self, user_id, set_meal_name, quantity):
        return self.store.add_set_meal_to_order(user_id, set_meal_name, quantity)

    @tool
    def remove_set_meal_from_order(self, user_id, set_meal_name, quantity):
        return self.store.remove_set_meal_from_order(user_id, set_meal_name, quantity)

    @tool
    def compute_total_payment(self, user_id, dishes):
        return {"user_id": user_id, "total": self.store.compute(dishes, "payment", False) if dishes else 0.0}

    @tool
    def compute_total_tax(self, user_id, dishes):
        return {"user_id": user_id, "total_tax": self.store.compute(dishes, "tax", False) if dishes else 0.0}

    @tool
    def compute_total_nutrition(self, user_id, dishes):
        return {"user_id": user_id, "total_nutrition": self.store.compute(dishes, "nutrition", False) if dishes else {}}

    @tool
    def add_dish_to_catalog(self, name, category, price, tax_rate, discount, nutritional_characteristics,
                            taste, allergens, nutrition):
        return self.store.add_dish_to_catalog(name, category, price, tax_rate, discount,
                                              nutritional_characteristics, taste, allergens, nutrition)

    @tool
    def remove_dish_from_catalog(self, name):
        return self.store.remove_dish_from_catalog(name)

    @tool
    def update_dish_price(self, name, new_price):
        return self.store.update_dish(name, "price", new_price, "Price")

    @tool
    def update_dish_discount(self, name, new_discount):
        return self.store.update_dish(name, "discount", new_discount, "Discount")

    @tool
    def create_set_meal(self, set_meal_name, included_dishes, set_meal_price, set_meal_discount):
        return self.store.create_set_meal(set_meal_name, included_dishes, set_meal_price, set_meal_discount)
