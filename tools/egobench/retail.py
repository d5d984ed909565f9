"""Retail environment (TOOLS.md section 3): a product catalog, carts, shopping lists."""

from __future__ import annotations

from typing import Any

from .base import (
    ScenarioEnv, error, fuzzy_matches, lower_list, member, nutrition_from_input,
    nutrition_record, success, tool,
)

CART_FIELDS = ("product_name", "quantity", "category", "price", "tax_rate", "discount")
HASHED_PRODUCT_FIELDS = (
    "name", "category", "price", "tax_rate", "discount", "nutritional_characteristics",
    "taste", "country_of_origin", "nutrition",
)


def _catalog_doc(products: dict) -> dict:
    return {k: {f: p[f] for f in HASHED_PRODUCT_FIELDS} for k, p in products.items()}


def _lists_doc(lists: dict) -> dict:
    return {u: [dict(i) for i in items] for u, items in lists.items()}


def _cart_doc(cart: dict) -> list:
    return sorted(({f: line[f] for f in CART_FIELDS} for line in cart.values()), key=lambda line: line["product_name"])


class RetailEnv(ScenarioEnv):
    scenario = "retail"
    cow_attrs = ("products", "user_shopping_lists")
    user_attrs = ("user_carts",)

    def reset(self) -> None:
        self.products: dict[str, dict] = {}
        self.user_carts: dict[Any, dict[str, dict]] = {}
        self.user_shopping_lists: dict[Any, list[dict]] = {}

    def load(self, seed: dict) -> None:
        """Load seed sections. Each section present in ``seed`` replaces the current one
        (cleared first, so a malformed section leaves it partly loaded); absent
        sections stay as they are."""
        if "products" in seed:
            items = seed["products"]
            self._replace("products", {})
            self._load_products(items)
        if "user_carts" in seed:
            items = seed["user_carts"]
            self._replace("user_carts", {})
            self._load_carts(items)
        if "user_shopping_lists" in seed:
            items = seed["user_shopping_lists"]
            self._replace("user_shopping_lists", {})
            self._load_lists(items)

    def _load_products(self, items: Any) -> None:
        for p in items:
            name = p.get("name", " ").lower()
            if not name:
                continue  # an explicitly empty name is skipped (a missing one becomes " ")
            self.products[name] = {
                "name": name,
                "category": p.get("category", " ").lower(),
                "sell_type": p.get("sell_type", "single_item").lower(),
                "price": p.get("price", 0.0),
                "tax_rate": p.get("tax_rate", 0.0),
                "discount": p.get("discount", 1.0),
                "nutritional_characteristics": lower_list(p.get("nutritional_characteristics", [])),
                "taste": lower_list(p.get("taste", [])),
                "country_of_origin": p.get("country_of_origin", " ").lower(),
                "nutrition": nutrition_record(p.get("nutrition")),
                "allergens": p.get("allergens", []),
            }

    def _load_carts(self, items: Any) -> None:
        for c in items:
            user = c.get("user_id")
            if not user:
                continue
            cart = self.user_carts[user] = {}  # filled in place: a bad line keeps the lines before it
            for item in c.get("items", []):
                key = item.get("product_name", " ").lower()
                product = self.products.get(key)
                cart[key] = {
                    "product_name": key,
                    "quantity": item.get("quantity", 0.0),
                    "category": product["category"] if product else " ",
                    "price": product["price"] if product else 0.0,
                    "tax_rate": product["tax_rate"] if product else 0.0,
                    "discount": product["discount"] if product else 1.0,
                }

    def _load_lists(self, items: Any) -> None:
        for s in items:
            user = s.get("user_id")
            if not user:
                continue
            self.user_shopping_lists[user] = [
                {"product_name": i.get("product_name", " ").lower(), "quantity": i.get("quantity", 0)}
                for i in s.get("items", [])
            ]

    def catalog_names(self) -> list[str]:
        return [p["name"] for p in self.products.values()]

    def snapshot(self, freeze: bool = False, round_digits: int | None = None) -> dict:
        return {
            "catalog": self._section("products", _catalog_doc, freeze, round_digits),
            "user_carts": self._users_section("user_carts", _cart_doc, freeze, round_digits),
            "user_shopping_lists": self._section("user_shopping_lists", _lists_doc, freeze, round_digits),
        }

    @member
    def _find_matching_products(self, query):
        """The fuzzy lookup helper (TOOLS.md 2.1); callable by name in the reference."""
        return fuzzy_matches(query, self.products)

    # --- catalog management ---------------------------------------------------------
    @tool
    def add_product(self, name, category, price, tax_rate, discount, nutritional_characteristics,
                    taste, country_of_origin, nutrition, allergens=None, sell_type="single_item"):
        try:
            entry = {
                "name": name.lower(),
                "category": category.lower(),
                "sell_type": sell_type.lower(),
                "price": price,
                "tax_rate": tax_rate,
                "discount": discount,
                "nutritional_characteristics": lower_list(nutritional_characteristics),
                "taste": lower_list(taste),
                "country_of_origin": country_of_origin.lower(),
                "nutrition": nutrition_from_input(nutrition),
                "allergens": allergens if allergens is not None else [],
            }
        except Exception as exc:  # the reference reports any construction failure
            return error(f"Failed to add/update product: {exc}")
        self._writable("products")[name.lower()] = entry
        return success(f"Product '{name}' added/updated successfully.")

    @tool
    def delete_product(self, name):
        matches = self._find_matching_products(name)
        if not matches:
            return error(f"No matching products found for '{name}'.")
        deleted = [p["name"] for p in matches]
        products = self._writable("products")
        for key in deleted:
            products.pop(key, None)
            for user, cart in list(self.user_carts.items()):
                if key in cart:
                    del self._user_entry("user_carts", user)[key]
        return success(f"Deleted {len(deleted)} product(s): {', '.join(deleted)}", deleted_products=deleted)

    # --- per-product queries ----------------------------------------------------------
    def _query(self, product_name, field: str) -> dict:
        matches = self._find_matching_products(product_name)
        if not matches:
            return error(f"No matching products found for '{product_name}'.")
        return {"products": [{"product_name": p["name"], field: p[field]} for p in matches],
                "count": len(matches)}

    @tool
    def get_price(self, product_name):
        return self._query(product_name, "price")

    @tool
    def get_tax_rate(self, product_name):
        return self._query(product_name, "tax_rate")

    @tool
    def get_category(self, product_name):
        return self._query(product_name, "category")

    @tool
    def get_discount(self, product_name):
        return self._query(product_name, "discount")

    @tool
    def get_nutrition(self, product_name):
        return self._query(product_name, "nutrition")

    @tool
    def find_products_by_nutritional_characteristic(self, characteristic):
        c = characteristic.lower()
        return {"product_names": [p["name"] for p in self.products.values() if c in p["nutritional_characteristics"]]}

    @tool
    def find_products_by_taste(self, taste):
        t = taste.lower()
        return {"product_names": [p["name"] for p in self.products.values() if t in p["taste"]]}

    @tool
    def find_products_by_country_of_origin(self, country):
        c = country.lower()
        return {"product_names": [p["name"] for p in self.products.values() if p["country_of_origin"] == c]}

    @tool
    def find_products_by_allergen(self, allergen):
        a = allergen.lower()
        return {"product_names": [p["name"] for p in self.products.values()
                                  if any(x.lower() == a for x in p["allergens"])]}

    @tool
    def find_products_by_price_range(self, min_price, max_price):
        if min_price < 0 or max_price < 0:
            return error("Price cannot be negative.")
        if min_price > max_price:
            return error("Minimum price cannot be greater than maximum price.")
        return {"product_names": [p["name"] for p in self.products.values() if min_price <= p["price"] <= max_price]}

    @tool
    def list_discounted_products(self):
        return {"product_names": [p["name"] for p in self.products.values() if p["discount"] < 1.0]}

    # --- carts and lists --------------------------------------------------------------
    @tool
    def get_cart(self, user_id):
        if user_id not in self.user_carts:
            return {"cart_items": [], "message": f"User '{user_id}' has no cart or cart is empty."}
        return {"cart_items": [{f: line[f] for f in CART_FIELDS} for line in self.user_carts[user_id].values()]}

    @tool
    def get_shopping_list(self, user_id):
        if user_id not in self.user_shopping_lists:
            return {"shopping_list": [], "status": "info",
                    "message": f"User '{user_id}' has no shopping list or it is empty."}
        return {"shopping_list": [dict(i) for i in self.user_shopping_lists[user_id]]}

    @tool
    def add_to_cart(self, user_id, product_name, qty, category, price, tax_rate, discount):
        if qty <= 0:
            return error("Quantity must be greater than 0.")
        if price < 0:
            return error("Price cannot be negative.")
        if tax_rate < 0:
            return error("Tax rate cannot be negative.")
        if discount < 0 or discount > 1.0:
            return error("Discount must be between 0 and 1.0.")
        qty, price, tax_rate, discount = float(qty), float(price), float(tax_rate), float(discount)
        key = product_name.lower()
        category = category.lower()
        cart = self._user_entry("user_carts", user_id, create=dict)
        if key in cart:
            line = cart[key]
            line["quantity"] += qty
            line.update(category=category, price=price, tax_rate=tax_rate, discount=discount)
            return success(f"Added {qty} more of '{product_name}' to user '{user_id}' cart. "
                           f"Total quantity: {line['quantity']}")
        cart[key] = {"product_name": key, "quantity": qty, "category": category,
                     "price": price, "tax_rate": tax_rate, "discount": discount}
        return success(f"Added {qty} of '{product_name}' to user '{user_id}' cart.")

    @tool
    def remove_from_cart(self, user_id, product_name, qty):
        if qty <= 0:
            return error("Quantity must be greater than 0.")
        key = product_name.lower()
        cart = self.user_carts.get(user_id)
        if cart is None or key not in cart:
            return error(f"Product '{product_name}' not found in user '{user_id}' cart.")
        cart = self._user_entry("user_carts", user_id)
        line = cart[key]
        if line["quantity"] <= qty:
            del cart[key]
            if not cart:
                del self._writable("user_carts")[user_id]
            return success(f"Removed all '{product_name}' from user '{user_id}' cart.")
        line["quantity"] -= qty
        return success(f"Removed {qty} of '{product_name}' from user '{user_id}' cart. "
                       f"Remaining quantity: {line['quantity']}")

    @tool
    def clear_cart(self, user_id):
        if user_id in self.user_carts:
            del self._writable("user_carts")[user_id]
            return success(f"Cart for user '{user_id}' cleared successfully.")
        return {"status": "info", "message": f"User '{user_id}' has no cart to clear."}

    # --- computations (read-only) -----------------------------------------------------
    def _compute(self, user_id, products, total_key: str, zero: Any, add) -> dict:
        if not products:
            return {"status": "error", "message": "Products list cannot be empty.", total_key: zero}
        details: list[dict] = []
        missing: list[str] = []
        total = zero
        for item in products:
            name = item.get("product_name", " ").lower()
            quantity = item.get("quantity", 0)
            if quantity <= 0:
                continue
            product = self.products.get(name)
            if product is None:
                missing.append(name)
                continue
            total = add(total, product, quantity, details, name)
        result = {"user_id": user_id, total_key: total, "details": details}
        if missing:
            result.update(status="partial_success",
                          message=f"Calculated successfully. However, {len(missing)} product(s) "
                                  f"not found in catalog: {', '.join(missing)}")
        else:
            result.update(status="success", message="Calculation completed successfully.")
        return result

    @tool
    def compute_total_payment(self, user_id, products):
        def add(total, p, q, details, name):
            subtotal = p["price"] * p["discount"] * q
            details.append({"product_name": name, "quantity": q, "subtotal": round(subtotal, 2)})
            return total + subtotal
        result = self._compute(user_id, products, "total", 0.0, add)
        if "details" in result:
            result["total"] = round(result["total"], 2)
        return result

    @tool
    def compute_total_tax(self, user_id, products):
        def add(total, p, q, details, name):
            rate = p["tax_rate"]
            if rate >= 0 and 1 + rate != 0:
                tax = p["price"] * rate / (1 + rate) * p["discount"] * q
                details.append({"product_name": name, "quantity": q, "tax_amount": round(tax, 2)})
                return total + tax
            return total
        result = self._compute(user_id, products, "total_tax", 0.0, add)
        if "details" in result:
            result["total_tax"] = round(result["total_tax"], 2)
        return result

    @tool
    def compute_total_nutrition(self, user_id, products):
        totals = {"basis": "TOTAL", "serving_size_g": 0.0, "calories_kcal": 0.0, "protein_g": 0.0,
                  "fat_g": 0.0, "carbs_g": 0.0, "sugar_g": 0.0, "sodium_mg": 0.0, "fiber_g": 0.0}

        def add(total, p, q, details, name):
            for field, value in p["nutrition"].items():
                if field != "basis" and value is not None:
                    totals[field] += value * q
            details.append({"product_name": name, "quantity": q})
            return totals
        result = self._compute(user_id, products, "total_nutrition", {}, add)
        if "details" in result:
            result["total_nutrition"] = {k: round(v, 2) if isinstance(v, (int, float)) else v
                                         for k, v in totals.items()}
        return result
