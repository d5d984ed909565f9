"""The EgoBench error taxonomy (SCORING.md A8): one category for every trajectory.

The cascade is checked in order and the first category that applies wins:
correct, syntax_error, multimodal_error, hallucination_error, logic_error,
memory_error, over_operation_error, unknown.
"""

from __future__ import annotations

import re
from typing import Any

CATEGORIES = ("correct", "syntax_error", "multimodal_error", "hallucination_error", "logic_error",
              "memory_error", "over_operation_error", "unknown")

USER_ID_RE = re.compile(r"User ID:\s*(\w+)")

QUERY_TOOLS = {
    "retail": frozenset({
        "get_price", "get_tax_rate", "get_category", "get_discount", "get_nutrition",
        "find_products_by_nutritional_characteristic", "find_products_by_taste",
        "find_products_by_country_of_origin", "find_products_by_price_range", "list_discounted_products",
    }),
    "restaurant": frozenset({
        "get_dish_price", "get_dish_discount", "get_dish_nutrition", "get_dish_allergens", "get_tax_rate",
        "get_dish_taste_profile", "get_user_order_summary", "get_set_meal_details", "find_dishes_by_category",
        "find_dishes_by_nutritional_tag", "find_dishes_by_taste", "find_set_meals_containing_dish",
        "list_all_discounted_dishes", "filter_dishes_by_price_range", "compute_total_payment",
        "compute_total_tax", "compute_total_nutrition",
    }),
    "kitchen": frozenset({
        "get_current_menu", "get_cooking_steps", "get_recipe_allergens", "get_recipe_taste",
        "get_recipe_ingredients", "get_ingredient_shelf_life", "get_ingredient_location",
        "get_ingredient_nutrition", "get_ingredient_quantity", "get_current_shopping_list",
        "get_recipe_nutritional_characteristics", "find_recipes_by_allergen", "find_recipes_by_taste",
        "find_recipes_by_ingredient", "find_ingredients_by_expiry_date", "find_ingredients_by_location",
        "find_recipes_by_nutritional_characteristics", "get_ingredients_by_category", "find_ingredient_category",
        "get_all_recipe_names", "get_all_ingredient_names", "tally_total_nutritional_characteristics",
        "tally_total_tastes", "compute_total_nutritions",
    }),
}
QUERY_TOOLS["order"] = QUERY_TOOLS["restaurant"]

ORDER_RESTAURANT = {1: "Annie Italian Restaurant", 2: "Mediterranean Greek Restaurant"}


def has_syntax_error(tool_calls: Any) -> bool:
    """Step 1: the raw ``tool_calls`` list is empty or not well formed."""
    if not tool_calls:
        return True
    if not isinstance(tool_calls, list):
        return True
    for entry in tool_calls:
        if not isinstance(entry, dict):
            return True
        if "calls" in entry:
            if not isinstance(entry["calls"], list):
                return True
            if any(_bad_call(c) for c in entry["calls"]):
                return True
        elif "call" in entry:
            if _bad_call(entry["call"]):
                return True
        else:
            return True
    return False


def _bad_call(call: Any) -> bool:
    return (not isinstance(call, dict) or ("tool_name" not in call and "name" not in call)
            or "parameters" not in call)


def _analysis_calls(tool_calls: Any) -> list[tuple[Any, Any]]:
    """(tool, unfiltered parameters) of every object call, in order."""
    from egoeval.verifiers.calls import flatten_calls, identifier

    return [(identifier(c), c.get("parameters", {})) for c in flatten_calls(tool_calls) if isinstance(c, dict)]


def _recognised(p: Any, v: Any) -> bool:
    if isinstance(p, str) and isinstance(v, str):
        pl, vl = p.strip().lower(), v.strip().lower()
        return (pl == vl or v.lower() in p.lower() or pl in vl or vl in pl
                or bool(set(p.lower().split()) & set(v.lower().split())))
    return p == v


def has_multimodal_error(calls: list[tuple[Any, Any]], gt_task: dict, scenario: str, variant: int,
                         case_insensitive_restaurant: bool = False) -> bool:
    expected = ORDER_RESTAURANT.get(variant) if scenario == "order" else None
    if expected is not None:
        last = None
        for _, params in calls:
            if isinstance(params, dict) and isinstance(params.get("restaurant_name"), str):
                last = params["restaurant_name"]
        if last is not None:
            if case_insensitive_restaurant:
                if last.strip().lower() != expected.lower():
                    return True
            elif last != expected:
                return True
    key, values = gt_task.get("key"), gt_task.get("value")
    if not key or not values or not calls:
        return False
    queries = QUERY_TOOLS.get(scenario, frozenset())
    seen = [params[key] for tool, params in calls
            if isinstance(tool, str) and tool in queries and isinstance(params, dict) and key in params]
    return any(not any(_recognised(p, v) for p in seen) for v in values)


def has_hallucination(calls: list[tuple[Any, Any]], instruction: Any) -> bool:
    m = USER_ID_RE.search(instruction) if isinstance(instruction, str) else None
    if not m:
        return False
    uid = m.group(1)
    return any(isinstance(params, dict) and "user_id" in params and params["user_id"] != uid
               for _, params in calls)


def classify(gt_task: dict, trajectory: dict, *, tool_success: bool, result_success: bool,
             matched_calls: int, gt_calls: int, scenario: str, variant: int,
             fold_unknown: bool = False, case_insensitive_restaurant: bool = False) -> str:
    """The error category of one trajectory, given the verdict of its task."""
    if tool_success and result_success:
        return "correct"
    tool_calls = trajectory.get("tool_calls", [])
    if has_syntax_error(tool_calls):
        return "syntax_error"
    calls = _analysis_calls(tool_calls)
    if has_multimodal_error(calls, gt_task, scenario, variant, case_insensitive_restaurant):
        return "multimodal_error"
    if has_hallucination(calls, gt_task.get("Instruction", "")):
        return "hallucination_error"
    diff = gt_calls - matched_calls
    if diff >= 2:
        return "logic_error"
    if diff == 1:
        return "memory_error"
    if matched_calls == gt_calls and not result_success:
        return "over_operation_error"
    return "over_operation_error" if fold_unknown else "unknown"


def error_rates(counts: dict[str, int]) -> dict[str, Any]:
    """The successive-denominator rates of the EgoBench error analysis."""
    c = {k: counts.get(k, 0) for k in CATEGORIES}
    total = sum(counts.values())
    syntax_ok = total - c["syntax_error"]
    no_mm = syntax_ok - c["multimodal_error"] - c["hallucination_error"]
    no_logic = no_mm - c["logic_error"]
    tool_ok = c["correct"] + c["over_operation_error"]

    def rate(n: int, d: int) -> float:
        return n / d if d else 0.0

    return {
        "syntax_error_rate": rate(c["syntax_error"], total),
        "multimodal_error_rate": rate(c["multimodal_error"], syntax_ok),
        "hallucination_rate": rate(c["hallucination_error"], syntax_ok),
        "logic_reasoning_error_rate": rate(c["logic_error"], no_mm),
        "memory_common_sense_error_rate": rate(c["memory_error"], no_logic),
        "over_operation_error_rate": rate(c["over_operation_error"], tool_ok),
        "denominators": {"total": total, "syntax_correct": syntax_ok, "no_multimodal_error": syntax_ok - c["multimodal_error"],
                         "no_hallucination": no_mm, "no_logic_error": no_logic, "tool_correct": tool_ok},
    }
