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


def has_multimodal_error(calls: list[tuple[Any, Any]], gt_task: dict, query_tools: frozenset[str],
                         expected_restaurant: str | None = None, case_insensitive_restaurant: bool = False,
                         expand_lists: bool = False, key_aliases: dict[str, tuple[str, ...]] | None = None) -> bool:
    """Step 2. ``query_tools`` are the tools whose arguments show what the agent recognised;
    ``expected_restaurant`` is the restaurant a multi-restaurant file is set in (or None).
    The newest analysis reads a list argument element by element (``expand_lists``) and
    looks a key up under its aliases (household ``name`` is also ``item_name``)."""
    expected = expected_restaurant
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
    names = (key_aliases or {}).get(key, (key,))
    seen: list[Any] = []
    for tool, params in calls:
        if not (isinstance(tool, str) and tool in query_tools and isinstance(params, dict)):
            continue
        name = next((n for n in names if n in params), None)
        if name is None:
            continue
        value = params[name]
        seen += value if expand_lists and isinstance(value, list) else [value]
    return any(not any(_recognised(p, v) for p in seen) for v in values)


def has_hallucination(calls: list[tuple[Any, Any]], instruction: Any) -> bool:
    """Step 3: a call names another user than the instruction's ``User ID:``."""
    m = USER_ID_RE.search(instruction) if isinstance(instruction, str) else None
    if not m:
        return False
    uid = m.group(1)
    return any(isinstance(params, dict) and "user_id" in params and params["user_id"] != uid
               for _, params in calls)


def ground_truth_user_ids(gt_task: dict) -> set:
    """The non-null ``user_id`` values of a task's GT calls (the newest analysis' step 3)."""
    ids = set()
    for call in gt_task.get("ground_truth") or []:
        params = call.get("parameters") if isinstance(call, dict) else None
        if isinstance(params, dict) and params.get("user_id") is not None:
            try:
                ids.add(params["user_id"])
            except TypeError:  # an unhashable id names no user
                continue
    return ids


def uses_other_user(calls: list[tuple[Any, Any]], expected: set) -> bool:
    """Step 3 of the newest analysis: a call names a user the ground truth never does."""
    if not expected:
        return False
    for _, params in calls:
        if isinstance(params, dict) and "user_id" in params:
            try:
                if params["user_id"] not in expected:
                    return True
            except TypeError:
                return True
    return False


def classify(gt_task: dict, trajectory: dict, *, tool_success: bool, result_success: bool,
             matched_calls: int, gt_calls: int, query_tools: frozenset[str] = frozenset(),
             expected_restaurant: str | None = None, fold_unknown: bool = False,
             case_insensitive_restaurant: bool = False, newest: bool = False,
             key_aliases: dict[str, tuple[str, ...]] | None = None) -> str:
    """The error category of one trajectory, given the verdict of its task. The suite's
    scoring context says which tools are queries and which restaurant a file is set in;
    ``newest`` selects the 2026 analysis (list arguments read element by element, users
    checked against the ground truth's, docs/egobench2/scoring.md Part E)."""
    if tool_success and result_success:
        return "correct"
    tool_calls = trajectory.get("tool_calls", [])
    if has_syntax_error(tool_calls):
        return "syntax_error"
    calls = _analysis_calls(tool_calls)
    if has_multimodal_error(calls, gt_task, query_tools, expected_restaurant, case_insensitive_restaurant,
                            expand_lists=newest, key_aliases=key_aliases):
        return "multimodal_error"
    if (uses_other_user(calls, ground_truth_user_ids(gt_task)) if newest
            else has_hallucination(calls, gt_task.get("Instruction", ""))):
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
