"""Builds ``tasks.json`` of the demo suite: 12 tasks over synthetic clips.

Ground truth is produced with the environments: parameter values (prices, categories,
tax rates, discounts) are read from the EgoBench seed databases through a fresh
environment, and conditional branches are decided by querying it, exactly as a
correct agent would. Run ``python -m egoeval.tasks.demo.build`` after changing a task;
a test checks that the shipped file equals this builder's output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from egoeval.suites import get_suite

HERE = Path(__file__).parent
ANNIE, GREEK = "Annie Italian Restaurant", "Mediterranean Greek Restaurant"


def _env(scenario: str):
    return get_suite("egobench").scoring_context(f"{scenario}1").fresh_env()


def call(name: str, **params: Any) -> dict:
    return {"tool_name": name, "parameters": params}


def cart_add(user: str, product: str, qty: int) -> dict:
    p = _env("retail").products[product.lower()]
    return call("add_to_cart", user_id=user, product_name=product, qty=qty, category=p["category"],
                price=p["price"], tax_rate=p["tax_rate"], discount=p["discount"])


def price(scenario: str, name: str) -> float:
    env = _env(scenario)
    return env.products[name.lower()]["price"] if scenario == "retail" else env.store.catalog[name.lower()]["price"]


def clip(kind: str, labels: list[str], points: list[int], seed: int, prices: list[str] | None = None,
         title: str = "") -> dict:
    d: dict[str, Any] = {"kind": kind, "labels": labels, "points": points, "seed": seed}
    if prices:
        d["prices"] = prices
    if title:
        d["title"] = title
    return d


def task(n: int, scenario: str, instruction: str, clip_spec: dict, gt: list[dict], key: str, value: list,
         scene: str) -> dict:
    return {"task_id": n, "scenario": scenario, "variant": 1, "Instruction": instruction, "clip": clip_spec,
            "ground_truth": gt, "key": key, "value": value, "scene_description": scene}


def retail() -> list[dict]:
    shelf1 = ["Souda Red Wine", "ZONIN Chianti", "Riumi Moscato", "Mouton Cadet", "Malbec Reserva"]
    shelf2 = ["Olivier Chardonnay", "Lerpin Merlot", "Casa del Rio", "Champagne Brut"]
    first, other = shelf2[0], shelf2[2]
    chosen = first if price("retail", first) < 150 else other
    shelf3 = ["Terra Alta Rosé", "Zinfandel Estate", "LA VIGNA Malbec", "Merlot Oyster Bay"]
    return [
        task(1, "retail", "You are shopping for wine (User ID: demo_shopper_01). Ask the AI Service Agent to add two "
             "bottles of the second wine you pointed at with your index finger to your cart.",
             clip("shelf", shelf1, [1, 3], seed=101), [cart_add("demo_shopper_01", shelf1[3], 2)],
             "second pointed bottle", [shelf1[3]], "A wine shelf with five labelled bottles; the hand points at two."),
        task(2, "retail", "You are a budget-conscious shopper (User ID: demo_shopper_02). Ask the AI Service Agent for "
             "the price of the first bottle you pointed at. If it costs less than $150, ask it to add one of that "
             "bottle to your cart; otherwise ask it to add one of the other bottle you pointed at.",
             clip("shelf", shelf2, [0, 2], seed=102),
             [call("get_price", product_name=first), cart_add("demo_shopper_02", chosen, 1)],
             "pointed bottles", [first, other], "Four bottles; the hand points at the first, then the third."),
        task(3, "retail", "You are checking your cart (User ID: bill_sue_119). You already have two bottles of the "
             "wine you pointed at in your cart. Ask the AI Service Agent to remove both of them.",
             clip("shelf", shelf3, [2], seed=103),
             [call("remove_from_cart", user_id="bill_sue_119", product_name=shelf3[2], qty=2)],
             "pointed bottle", [shelf3[2]], "Four bottles of the user's cart; the hand points at one."),
    ]


def kitchen() -> list[dict]:
    counter1 = ["Broccoli", "Tomatoes", "Salmon", "Eggs", "Tofu", "Rice"]
    counter2 = ["Chicken", "Cod", "Eggs", "Lemon"]
    env = _env("kitchen")
    recipes = env.find_recipes_by_ingredient(counter2[1])
    names = recipes.get("recipes") if isinstance(recipes, dict) else recipes
    assert isinstance(names, list) and len(names) == 1, names  # the instruction says "the recipe"
    counter3 = ["Broccoli", "Beef", "Rice", "Carrots"]
    return [
        task(4, "kitchen", "You are planning meals (User ID: demo_cook_01). Ask the AI Service Agent to add the "
             "first ingredient you pointed at to your shopping list, quantity 2.",
             clip("counter", counter1, [2, 4], seed=201),
             [call("add_to_shopping_list", user_id="demo_cook_01", ingredient_name=counter1[2], quantity=2)],
             "first pointed ingredient", [counter1[2]], "Six labelled ingredients on a worktop; two are pointed at."),
        task(5, "kitchen", "You want to cook with what you pointed at (User ID: demo_cook_02). Ask the AI Service "
             "Agent which recipe uses that ingredient, then ask it to add that recipe to your menu.",
             clip("counter", counter2, [1], seed=202),
             [call("find_recipes_by_ingredient", ingredient_name=counter2[1]),
              call("add_recipe_to_menu", user_id="demo_cook_02", recipe_name=names[0])],
             "pointed ingredient", [counter2[1]], "Four ingredients; the hand points at one."),
        task(6, "kitchen", "You already have enough of the ingredient you pointed at (User ID: cook_001). Ask the AI "
             "Service Agent to remove it from your shopping list.",
             clip("counter", counter3, [1], seed=203),
             [call("remove_from_shopping_list", user_id="cook_001", ingredient_name=counter3[1])],
             "pointed ingredient", [counter3[1]], "Four ingredients from the user's list; one is pointed at."),
    ]


def _menu_prices(scenario: str, names: list[str]) -> list[str]:
    return [f"${price(scenario, n):g}" for n in names]


def restaurant() -> list[dict]:
    menu1 = ["Lasagne", "Mushroom soup", "Annie's pizza", "Grilled salmon", "Cheesecake"]
    menu2 = ["Coppa", "Speck", "Brie", "Gorgonzola"]
    a, b = menu2[0], menu2[3]
    cheaper_first = price("restaurant", a) < price("restaurant", b)
    branch = call("add_dish_to_order", user_id="demo_diner_02", dish_name=a if cheaper_first else b,
                  quantity=2 if cheaper_first else 1)
    menu3 = ["Green olives", "Tomato & garlic bruschetta", "French fries", "Tiramisu'"]
    return [
        task(7, "restaurant", "You are ordering dinner (User ID: demo_diner_01). Ask the AI Service Agent to order "
             "one of each dish you pointed at on the menu.",
             clip("menu", menu1, [2, 4], seed=301, prices=_menu_prices("restaurant", menu1)),
             [call("add_dish_to_order", user_id="demo_diner_01", dish_name=menu1[2], quantity=1),
              call("add_dish_to_order", user_id="demo_diner_01", dish_name=menu1[4], quantity=1)],
             "pointed dishes", [menu1[2], menu1[4]], "A printed menu of five dishes; two are pointed at."),
        task(8, "restaurant", "You are comparing two dishes (User ID: demo_diner_02). Ask the AI Service Agent for "
             "the prices of the two dishes you pointed at. If the first is cheaper, order two of it; otherwise "
             "order one of the second.",
             clip("menu", menu2, [0, 3], seed=302),
             [call("get_dish_price", dish_name=a), call("get_dish_price", dish_name=b), branch],
             "pointed dishes", [a, b], "A menu of four dishes without prices; two are pointed at."),
        task(9, "restaurant", "You are sharing a starter (User ID: demo_diner_03). Ask the AI Service Agent to order "
             "three portions of the second dish you pointed at.",
             clip("menu", menu3, [0, 2], seed=303, prices=_menu_prices("restaurant", menu3)),
             [call("add_dish_to_order", user_id="demo_diner_03", dish_name=menu3[2], quantity=3)],
             "second pointed dish", [menu3[2]], "A menu of four dishes; two are pointed at."),
    ]


def order() -> list[dict]:
    annie = ["Salame Milano", "Mortadella", "Coppa", "Speck", "Brie"]
    greek = ["Greek Salad", "Moussaka", "Tzatziki", "Grilled Octopus"]
    annie2 = ["Lasagne", "Mushroom soup", "Cheesecake"]

    def add(restaurant: str, user: str, dish: str, quantity: int) -> dict:
        return call("add_dish_to_order", restaurant_name=restaurant, user_id=user, dish_name=dish, quantity=quantity)

    return [
        task(10, "order", f"You are ordering a takeaway from {ANNIE} (User ID: demo_eater_01). Ask the AI Service "
             "Agent to order one portion of the dish you pointed at on the menu.",
             clip("menu", annie, [3], seed=401, title=ANNIE), [add(ANNIE, "demo_eater_01", annie[3], 1)],
             "pointed dish", [annie[3]], f"The menu of {ANNIE}; one dish is pointed at."),
        task(11, "order", f"You are ordering from {GREEK} (User ID: demo_eater_02). Ask the AI Service Agent to order "
             "one of each of the two dishes you pointed at.",
             clip("menu", greek, [0, 1], seed=402, title=GREEK),
             [add(GREEK, "demo_eater_02", greek[0], 1), add(GREEK, "demo_eater_02", greek[1], 1)],
             "pointed dishes", greek[:2], f"The menu of {GREEK}; two dishes are pointed at."),
        task(12, "order", f"You are ordering for friends from {ANNIE} (User ID: demo_eater_03). Ask the AI Service "
             "Agent to order two portions of the first dish you pointed at and one of the second.",
             clip("menu", annie2, [2, 0], seed=403, title=ANNIE),
             [add(ANNIE, "demo_eater_03", annie2[2], 2), add(ANNIE, "demo_eater_03", annie2[0], 1)],
             "pointed dishes", [annie2[2], annie2[0]], f"The menu of {ANNIE}; two dishes are pointed at."),
    ]


def build() -> list[dict]:
    return retail() + kitchen() + restaurant() + order()


if __name__ == "__main__":
    (HERE / "tasks.json").write_text(json.dumps(build(), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {HERE / 'tasks.json'}")
