"""Kitchen environment (TOOLS.md section 4): ingredients, recipes, menus, shopping lists."""

from __future__ import annotations

from typing import Any

from .base import ScenarioEnv, error, lower_list, nutrition_record, success, tool

NUTRIENTS = ("calories_kcal", "protein_g", "fat_g", "carbs_g", "sugar_g", "fiber_g", "sodium_mg")
KITCHEN_NUTRITION_ORDER = ("basis", "serving_size_g", "calories_kcal", "protein_g", "fat_g",
                           "carbs_g", "sugar_g", "fiber_g", "sodium_mg")


def _ingredients_doc(ingredients: dict) -> dict:
    return {k: {f: i[f] for f in ("name", "quantity", "category", "storage_location", "expiry_date", "nutrition")}
            for k, i in ingredients.items()}


def _recipes_doc(recipes: dict) -> dict:
    return {k: {"name": r["name"], "ingredients": r["ingredients"], "allergens": r["allergens"],
                "taste": r["taste"], "nutritional_characteristics": r["nutritional_characteristics"]}
            for k, r in recipes.items()}


def _shopping_list_doc(lines: dict) -> list:
    return sorted((dict(line) for line in lines.values()), key=lambda line: line["ingredient_name"])


class KitchenEnv(ScenarioEnv):
    scenario = "kitchen"
    cow_attrs = ("ingredients", "recipes")  # no tool writes them
    user_attrs = ("user_menus", "user_shopping_lists")

    def reset(self) -> None:
        self.ingredients: dict[str, dict] = {}
        self.recipes: dict[str, dict] = {}
        self.user_menus: dict[Any, list[str]] = {}
        self.user_shopping_lists: dict[Any, dict[str, dict]] = {}

    def load(self, seed: dict) -> None:
        """Wipe the whole state, then load the sections present in ``seed``."""
        self.__init__()
        ingredients, recipes = self.ingredients, self.recipes
        for i in seed["ingredients"] if "ingredients" in seed else []:
            name = i.get("name", "").lower()
            if not name:
                continue
            nutrition = nutrition_record(i.get("nutrition"), default_basis="PER_100G")
            ingredients[name] = {
                "name": name,
                "quantity": i.get("quantity", 0),
                "expiry_date": i.get("expiry_date"),
                "storage_location": i.get("storage_location"),
                "category": i.get("category", "").lower(),
                "nutrition": {k: nutrition[k] for k in KITCHEN_NUTRITION_ORDER},
            }
        for r in seed["recipes"] if "recipes" in seed else []:
            name = r.get("name", "").lower()
            if not name:
                continue
            recipes[name] = {
                "name": name,
                "ingredients": [{"ingredient_name": x.get("ingredient_name", "").lower(),
                                 "quantity": x.get("quantity", 0)} for x in r.get("ingredients", [])],
                "steps": r.get("steps", []),
                "allergens": lower_list(r.get("allergens", [])),
                "taste": lower_list(r.get("taste", [])),
                "nutritional_characteristics": lower_list(r.get("nutritional_characteristics", [])),
                "nutrition": r.get("nutrition"),
            }
        for m in seed["user_menus"] if "user_menus" in seed else []:
            user = m.get("user_id")
            if user:
                self.user_menus[user] = [x.lower() for x in m.get("recipes", [])]
        for s in seed["user_shopping_lists"] if "user_shopping_lists" in seed else []:
            user = s.get("user_id")
            if not user:
                continue
            lines = self.user_shopping_lists[user] = {}  # filled in place, as the reference does
            for item in s.get("items", []):
                key = item.get("ingredient_name", "").lower()
                lines[key] = {"ingredient_name": key, "quantity": item.get("quantity", 0)}

    def snapshot(self, freeze: bool = False, round_digits: int | None = None) -> dict:
        return {
            "ingredients": self._section("ingredients", _ingredients_doc, freeze, round_digits),
            "recipes": self._section("recipes", _recipes_doc, freeze, round_digits),
            "user_menus": self._users_section("user_menus", list, freeze, round_digits),
            "user_shopping_lists": self._users_section("user_shopping_lists", _shopping_list_doc, freeze,
                                                       round_digits),
        }

    # --- lookups ----------------------------------------------------------------------
    def _recipe(self, recipe_name):
        return self.recipes.get(recipe_name.lower())

    def _ingredient(self, ingredient_name):
        return self.ingredients.get(ingredient_name.lower())

    def _recipe_field(self, recipe_name, field: str, out: str | None = None) -> dict:
        recipe = self._recipe(recipe_name)
        if recipe is None:
            return error(f"Recipe '{recipe_name}' not found.")
        value = recipe[field]
        if field == "steps":
            value = [{k: s.get(k) for k in ("step_number", "description", "ingredients", "action")} for s in value]
        return {"recipe_name": recipe_name, out or field: value}

    def _ingredient_field(self, ingredient_name, field: str) -> dict:
        ingredient = self._ingredient(ingredient_name)
        if ingredient is None:
            return error(f"Ingredient '{ingredient_name}' not found.")
        return {"ingredient_name": ingredient_name, field: ingredient[field]}

    @tool
    def get_cooking_steps(self, recipe_name):
        return self._recipe_field(recipe_name, "steps")

    @tool
    def get_recipe_allergens(self, recipe_name):
        return self._recipe_field(recipe_name, "allergens")

    @tool
    def get_recipe_taste(self, recipe_name):
        return self._recipe_field(recipe_name, "taste")

    @tool
    def get_recipe_ingredients(self, recipe_name):
        return self._recipe_field(recipe_name, "ingredients")

    @tool
    def get_recipe_nutritional_characteristics(self, recipe_name):
        return self._recipe_field(recipe_name, "nutritional_characteristics")

    def _recipes_with(self, field: str, value) -> list[str]:
        v = value.lower()
        return [r["name"] for r in self.recipes.values() if v in r[field]]

    @tool
    def find_recipes_by_allergen(self, allergen):
        return {"allergen": allergen, "recipes": self._recipes_with("allergens", allergen)}

    @tool
    def find_recipes_by_taste(self, taste):
        return {"taste": taste, "recipes": self._recipes_with("taste", taste)}

    @tool
    def find_recipes_by_nutritional_characteristics(self, characteristic):
        return {"characteristic": characteristic,
                "recipes": self._recipes_with("nutritional_characteristics", characteristic)}

    @tool
    def find_recipes_by_ingredient(self, ingredient_name):
        key = ingredient_name.lower()
        return {"ingredient_name": ingredient_name,
                "recipes": [r["name"] for r in self.recipes.values()
                            if any(i["ingredient_name"] == key for i in r["ingredients"])]}

    @tool
    def get_all_recipe_names(self):
        return {"recipes": list(self.recipes)}

    @tool
    def get_all_ingredient_names(self):
        return {"ingredients": list(self.ingredients)}

    @tool
    def get_ingredient_shelf_life(self, ingredient_name):
        return self._ingredient_field(ingredient_name, "expiry_date")

    @tool
    def find_ingredients_by_expiry_date(self, date):
        return {"date": date, "ingredients": [i["name"] for i in self.ingredients.values()
                                              if i["expiry_date"] and i["expiry_date"] >= date]}

    @tool
    def get_ingredient_location(self, ingredient_name):
        return self._ingredient_field(ingredient_name, "storage_location")

    @tool
    def find_ingredients_by_location(self, location):
        loc = location.lower()
        return {"location": location, "ingredients": [i["name"] for i in self.ingredients.values()
                                                      if i["storage_location"] and i["storage_location"].lower() == loc]}

    @tool
    def get_ingredient_nutrition(self, ingredient_name):
        return self._ingredient_field(ingredient_name, "nutrition")

    @tool
    def get_ingredient_quantity(self, ingredient_name):
        return self._ingredient_field(ingredient_name, "quantity")

    @tool
    def get_ingredients_by_category(self, category):
        c = category.lower()
        return {"category": category, "ingredients": [i["name"] for i in self.ingredients.values()
                                                      if i["category"].lower() == c]}

    @tool
    def find_ingredient_category(self, ingredient_name):
        return self._ingredient_field(ingredient_name, "category")

    @tool
    def get_current_menu(self, user_id):
        return {"user_id": user_id, "recipes": list(self.user_menus.get(user_id, []))}

    @tool
    def get_current_shopping_list(self, user_id):
        lines = self.user_shopping_lists.get(user_id, {})
        return {"user_id": user_id, "items": [dict(l) for l in lines.values()]}

    def _tally(self, recipes, field: str) -> list[str]:
        found: set[str] = set()
        for name in recipes:
            recipe = self._recipe(name)
            if recipe is not None:
                found.update(x for x in recipe[field] if x)
        return sorted(found)

    @tool
    def tally_total_nutritional_characteristics(self, user_id, recipes):
        return {"user_id": user_id, "recipes": recipes,
                "nutritional_characteristics": self._tally(recipes, "nutritional_characteristics")}

    @tool
    def tally_total_tastes(self, user_id, recipes):
        return {"user_id": user_id, "recipes": recipes, "tastes": self._tally(recipes, "taste")}

    @tool
    def compute_total_nutritions(self, user_id, ingredients):
        totals = {n: 0.0 for n in NUTRIENTS}
        for item in ingredients:
            name = item.get("ingredient_name", "").lower()
            quantity = item.get("quantity", 0)
            if isinstance(quantity, str):
                try:
                    quantity = float(quantity)
                except ValueError:
                    continue
            ingredient = self.ingredients.get(name)
            if ingredient is None:
                continue
            for n in NUTRIENTS:
                totals[n] += (ingredient["nutrition"].get(n) or 0) * quantity
        return {"user_id": user_id, "total_nutrition": {n: round(v, 2) for n, v in totals.items()}}

    # --- writes -------------------------------------------------------------------------
    @tool
    def add_recipe_to_menu(self, user_id, recipe_name):
        key = recipe_name.lower()
        if key not in self.recipes:
            return error(f"Recipe '{recipe_name}' not found.")
        menu = self._user_entry("user_menus", user_id, create=list)
        if key in menu:
            return success(f"Recipe '{recipe_name}' already in menu.", menu=list(menu))
        menu.append(key)
        return success(f"Recipe '{recipe_name}' added to menu.", menu=list(menu))

    @tool
    def remove_recipe_from_menu(self, user_id, recipe_name):
        if user_id not in self.user_menus:
            return error(f"No menu found for user '{user_id}'.")
        menu = self.user_menus[user_id]
        key = recipe_name.lower()
        if key in menu:
            menu = self._user_entry("user_menus", user_id)
            menu.remove(key)
            return success(f"Recipe '{recipe_name}' removed from menu.", menu=list(menu))
        return error(f"Recipe '{recipe_name}' not found in menu.", menu=list(menu))

    @tool
    def add_to_shopping_list(self, user_id, ingredient_name, quantity):
        if isinstance(quantity, str):
            try:
                quantity = float(quantity)
            except ValueError:
                return error("Quantity must be a valid number.")
        if quantity <= 0:
            return error("Quantity must be greater than 0.")
        key = ingredient_name.lower()
        lines = self._user_entry("user_shopping_lists", user_id, create=dict)
        if key in lines:
            lines[key]["quantity"] += quantity
        else:
            lines[key] = {"ingredient_name": key, "quantity": quantity}
        return success(f"Added {quantity} x {ingredient_name} to shopping list.")

    @tool
    def remove_from_shopping_list(self, user_id, ingredient_name):
        if user_id not in self.user_shopping_lists:
            return error(f"No shopping list found for user '{user_id}'.")
        lines = self.user_shopping_lists[user_id]
        key = ingredient_name.lower()
        if key in lines:
            del self._user_entry("user_shopping_lists", user_id)[key]
            return success(f"Removed '{ingredient_name}' from shopping list.")
        return error(f"'{ingredient_name}' not found in shopping list.")
