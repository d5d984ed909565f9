"""Communicated answers: did the agent *tell* the user what the task asked it to report?

State hashes miss values that leave no trace in the database ("calculate the total tax",
"confirm the price"). The facts an agent must communicate are derived from the ground
truth: its report-type calls (totals, tax, payment, nutrition sums, prices, tallies of
tastes and characteristics) are replayed on the task's seed and their results become
expected facts. The agent's messages are then searched for each: numbers within a
stated tolerance, whatever their formatting ("$1,348.70", "1348.7"), names
case-insensitively. Nutrition facts are the nutrients the instruction names (calories
when it names none).

A per-suite override file (``answers_overrides.json`` beside the suite's tasks, task id
-> list of facts, or ``null`` for none) corrects the derivation where it is wrong. This
is its own verdict component (``answers``), never folded into EgoBench's joint success.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

NUTRIENTS = {"calori": "calories_kcal", "kcal": "calories_kcal", "energy": "calories_kcal", "protein": "protein_g",
             "fat": "fat_g", "carb": "carbs_g", "sugar": "sugar_g", "sodium": "sodium_mg", "salt": "sodium_mg",
             "fiber": "fiber_g", "fibre": "fiber_g"}
MONEY_TOLERANCE = 0.01
NUTRITION_TOLERANCE = 0.01  # relative
_NUMBER = re.compile(r"(?<![\w.])[-+]?\$?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?")


@dataclass(frozen=True)
class Fact:
    kind: str  # "number" or "name"
    value: Any
    label: str  # where it comes from, e.g. "total_tax (compute_total_tax)"
    tolerance: float = 0.0  # absolute for money; relative (fraction) when ``relative``
    relative: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


def _nutrients(instruction: str) -> list[str]:
    """The nutrients the instruction asks to total (in its sentences that ask for a total or
    a sum, not in its conditions: "if the sugar content is above 5 g" is not a request)."""
    asks = [s.lower() for s in re.split(r"(?<=[.!?])\s+", instruction)
            if re.search(r"\b(total|sum|calculate|compute|tally)\b", s, re.IGNORECASE)]
    found = [field for sentence in asks for key, field in NUTRIENTS.items() if key in sentence]
    return list(dict.fromkeys(found)) or ["calories_kcal"]


#: tools whose results are values the user asked for (besides every ``tally_total*``)
REPORT_TOOLS = frozenset({"compute_total_payment", "compute_total_tax", "compute_total_nutrition",
                          "compute_total_nutritions", "get_price", "get_dish_price"})


def reports(name: Any) -> bool:
    """Whether a call to tool ``name`` can give a fact (see :func:`facts_from_call`)."""
    return isinstance(name, str) and (name in REPORT_TOOLS or name.startswith("tally_total"))


def facts_from_call(name: str, result: Any, instruction: str) -> list[Fact]:
    """The facts one report-type call's result gives (none for other calls)."""
    if not reports(name):
        return []
    if not isinstance(result, dict) or "error" in result or result.get("status") in ("partial_success", "error", "failed"):
        return []  # a total over items the tool could not find is no fact (retail8/16's GT misnames a key)
    label = lambda key: f"{key} ({name})"  # noqa: E731
    if name == "compute_total_payment":
        key = "total" if "total" in result else "total_payment"
        return [Fact("number", result[key], label(key), MONEY_TOLERANCE)] if isinstance(result.get(key), (int, float)) else []
    if name == "compute_total_tax" and isinstance(result.get("total_tax"), (int, float)):
        return [Fact("number", result["total_tax"], label("total_tax"), MONEY_TOLERANCE)]
    if name in ("compute_total_nutrition", "compute_total_nutritions") and isinstance(result.get("total_nutrition"), dict):
        totals = result["total_nutrition"]
        return [Fact("number", totals[k], label(k), NUTRITION_TOLERANCE, relative=True)
                for k in _nutrients(instruction) if isinstance(totals.get(k), (int, float))]
    if name in ("get_price", "get_dish_price"):
        items = result.get("products") or result.get("dishes") or []
        prices = [i.get("price") for i in items if isinstance(i, dict)] if isinstance(items, list) else []
        if isinstance(result.get("price"), (int, float)):
            prices.append(result["price"])
        return [Fact("number", p, label("price"), MONEY_TOLERANCE) for p in prices if isinstance(p, (int, float))]
    for key in ("tastes", "nutritional_characteristics"):
        if name.startswith("tally_total") and isinstance(result.get(key), list):
            return [Fact("name", str(v), label(key)) for v in result[key]]
    return []


def read_overrides(path: Path) -> dict:
    """A suite's ``answers_overrides.json`` (task id -> facts or null); {} when absent."""
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def expected_facts(task: Any) -> list[Fact]:
    """The facts ``task`` asks the agent to report, as its suite derives them."""
    from egoeval.suites import suite_of

    return suite_of(task.id).expected_facts(task)


def derive_facts(results: list[tuple[dict, Any, bool]], instruction: str) -> list[Fact]:
    """The facts the report-type calls among ``results`` (see :func:`ground_truth_results`)
    give, in call order, each once."""
    facts: list[Fact] = []
    for call, value, _ in results:
        for fact in facts_from_call(str(call.get("tool_name")), value, instruction):
            if fact not in facts:
                facts.append(fact)
    return facts


def ground_truth_results(env: Any, calls: list[dict], track_changes: bool = False) -> list[tuple[dict, Any, bool]]:
    """Each of ``calls`` (the ground truth as a correct agent sends it) run on ``env``, a
    fresh environment seeded for the task: (call, its result as JSON data or None,
    whether it changed the state; hashing the state is asked for with ``track_changes``,
    else False). The facts to report and the rubric's actions both come from here."""
    from egoeval.tools.registry import ToolRegistry

    registry = ToolRegistry()
    out: list[tuple[dict, Any, bool]] = []
    before = env.state_hash() if track_changes else ""
    for call in calls:
        result = registry.execute(env, call)
        try:
            value = json.loads(result.content)
        except ValueError:
            value = None
        after = env.state_hash() if track_changes else ""
        out.append((call, value, after != before))
        before = after
    return out


def numbers_in(text: str) -> list[float]:
    """Every number written in ``text`` ("1,348.70", "$391.5", "12") as a float."""
    return [float(whole.replace(",", "") + (frac or "")) for whole, frac in _NUMBER.findall(text or "")]


def said(fact: Fact, text: str, numbers: list[float]) -> bool:
    if fact.kind == "number":
        target = float(fact.value)
        limit = abs(target) * fact.tolerance if fact.relative else fact.tolerance
        return any(abs(n - target) <= limit + 1e-9 for n in numbers)
    name = str(fact.value).lower()
    lowered = text.lower()
    return name in lowered or name.replace("_", " ") in lowered


def agent_messages(trajectory: dict) -> list[str]:
    """What the agent said in a trajectory (either format), in order."""
    dialogue = trajectory.get("dialogue") if isinstance(trajectory, dict) else None
    return [d["content"] for d in dialogue if isinstance(d, dict) and d.get("role") == "agent"
            and isinstance(d.get("content"), str)] if isinstance(dialogue, list) else []


def check_answers(facts: list[Fact], agent_messages: list[str]) -> dict:
    """Which expected facts the agent's messages state (the ``answers`` verdict component)."""
    text = "\n".join(m for m in agent_messages if isinstance(m, str))
    numbers = numbers_in(text)
    missing = [f.to_dict() for f in facts if not said(f, text, numbers)]
    return {"expected": len(facts), "stated": len(facts) - len(missing), "missing": missing,
            "passed": not missing}
