"""Rubric judge, VitaBench style: atomic yes/no items judged over sliding windows.

A task's rubric is a list of atomic, binary items ("The agent tells the user the total
tax: 15.75", "The agent calls add_to_cart with {...}"). The trajectory, one turn per
dialogue message (an agent turn carries the tool calls it made and their results), is
cut into windows of ``w`` turns that overlap by ``delta``. An LLM judge reads one window
at a time with the rubric's state so far and says, per item, ``met`` (the window's new
turns satisfy it), ``negated`` (they undo or contradict it) or ``unchanged``. The state
persists across windows: set when met, reset when later negated. Turns a window shares
with the previous one are shown as context and marked so; only the new turns may change
the state, so nothing is counted twice. The score: every item met, and the fraction met.

Where rubrics come from, first match wins: a rubric file given by the caller (task id ->
list of item texts or ``{"id", "text"}`` objects), the suite's ``rubrics.json`` beside
its tasks, else derived from the ground truth: one item per fact the agent must report
(:mod:`.answers`) and one per state-changing ground-truth call.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STATUSES = ("met", "negated", "unchanged")
JUDGEMENTS = ".rubric.jsonl"  # a log's judgements beside it: run.jsonl -> run.rubric.jsonl (egoeval judge)
WINDOW, OVERLAP = 10, 2
RESULT_CHARS = 400  # a tool result is cut to this many characters in the transcript

SYSTEM = (
    "You judge a conversation between a user and an AI assistant that uses tools, against a rubric of atomic "
    "yes/no items. You see the conversation one window of turns at a time; the rubric's state so far (met or "
    "unmet) carries over from earlier windows. Decide each item from the NEW turns of this window only (turns "
    "marked 'context' were judged before and are shown so you can follow the conversation): \"met\" if the new "
    "turns satisfy the item, \"negated\" if they undo or contradict it (the assistant retracts or corrects the "
    "value, removes what it added, says it did not do it), \"unchanged\" otherwise. Reply with only JSON: "
    "{\"items\": {\"<item id>\": \"met\" | \"negated\" | \"unchanged\", ...}} naming every item id.")


@dataclass(frozen=True)
class RubricItem:
    id: str
    text: str


def _items(entries: Any, where: str) -> list[RubricItem]:
    if not isinstance(entries, list):
        raise ValueError(f"{where}: a rubric is a list of items")
    items = []
    for n, e in enumerate(entries, 1):
        if isinstance(e, str):
            items.append(RubricItem(f"item-{n}", e))
        elif isinstance(e, dict) and isinstance(e.get("text"), str):
            items.append(RubricItem(str(e.get("id") or f"item-{n}"), e["text"]))
        else:
            raise ValueError(f"{where}: item {n} is neither a text nor an object with a 'text'")
    if len({i.id for i in items}) != len(items):
        raise ValueError(f"{where}: two items share an id")
    return items


def load_rubrics(path: str | Path) -> dict[str, list[RubricItem]]:
    """A rubric file: a JSON object, task id -> list of items. Raises ValueError if malformed."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read a rubric file: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object mapping task ids to rubrics")
    return {task: _items(entries, f"{path}: {task}") for task, entries in data.items()}


def rubric_for(task: Any, rubrics: dict[str, list[RubricItem]] | None = None) -> list[RubricItem]:
    """The rubric of ``task`` (see the module docstring for where it comes from)."""
    if rubrics and task.id in rubrics:
        return rubrics[task.id]
    from egoeval.suites import suite_of

    suite = suite_of(task.id)
    shipped = suite.data_file("rubrics.json")
    if shipped is not None and shipped.exists():
        suite_rubrics = load_rubrics(shipped)
        if task.id in suite_rubrics:
            return suite_rubrics[task.id]
    return suite.rubric_items(task)


def derive_rubric(facts: list, results: list[tuple[dict, Any, bool]]) -> list[RubricItem]:
    """Items from the ground truth: the facts to report, then the state-changing calls
    (``results`` as :func:`egoeval.verifiers.answers.ground_truth_results` gives them)."""
    items = []
    for n, fact in enumerate(facts, 1):
        what = _quantity(fact.label.split(" (")[0])
        text = (f"The agent tells the user the {what}: {fact.value}" if fact.kind == "number"
                else f"The agent tells the user that '{fact.value}' is among the {what}")
        items.append(RubricItem(f"tell-{n}", text))
    actions = [call for call, _, changed in results if changed]
    for n, call in enumerate(actions, 1):
        args = json.dumps(call.get("parameters") or {}, ensure_ascii=False, sort_keys=True)
        items.append(RubricItem(f"do-{n}", f"The agent calls {call.get('tool_name')} with {args}"))
    return items


def _quantity(key: str) -> str:
    """A fact's key in words: ``fiber_g`` -> "total fiber (g)", ``total`` -> "total to pay"."""
    if key == "total" or key == "total_payment":
        return "total to pay"
    name, _, unit = key.rpartition("_")
    if unit in ("g", "mg", "kcal") and name:
        return f"total {name.replace('_', ' ')} ({unit})"
    return key.replace("_", " ")


def _call_line(call: Any, result: Any) -> str:
    name = call.get("tool_name") or call.get("name")
    args = json.dumps(call.get("parameters", call.get("arguments", {})), ensure_ascii=False, default=str)
    content = result.get("content") if isinstance(result, dict) else result
    return f"[calls {name}({args})" + (f" -> {str(content)[:RESULT_CHARS]}]" if content is not None else "]")


def transcript(trajectory: Any) -> list[str]:
    """One line per dialogue message; an agent's line starts with the calls of its turn.
    Calls no agent message follows (an episode cut off after them) close the transcript.
    Both entry shapes are read (``calls``/``results`` lists and the older ``call``/``result``);
    whatever is malformed is left out, never raised on."""
    if not isinstance(trajectory, dict):
        return []
    calls_by_turn: dict[str, list[str]] = {}
    entries = trajectory.get("tool_calls")
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        if isinstance(entry.get("calls"), list):
            results = entry.get("results") if isinstance(entry.get("results"), list) else []
            pairs = [(c, results[n] if n < len(results) else None) for n, c in enumerate(entry["calls"])]
        else:
            pairs = [(entry.get("call"), entry.get("result"))]
        calls_by_turn.setdefault(repr(entry.get("turn")), []).extend(
            _call_line(c, r) for c, r in pairs if isinstance(c, dict))
    lines = []
    dialogue = trajectory.get("dialogue")
    for message in dialogue if isinstance(dialogue, list) else []:
        if not isinstance(message, dict):
            continue
        role, content = message.get("role"), message.get("content")
        calls = calls_by_turn.pop(repr(message.get("turn")), []) if role == "agent" else []
        lines.append(f"{role}: " + " ".join(calls + [str(content if content is not None else "")]))
    lines += [f"agent: {' '.join(calls)}" for calls in calls_by_turn.values() if calls]
    return lines


def windows(n: int, w: int = WINDOW, delta: int = OVERLAP) -> list[tuple[int, int, int]]:
    """(start, first new turn, end) of each window over ``n`` turns: ``w`` turns each, the
    next starting ``w - delta`` later; a window with no new turn is not made."""
    if w < 1 or not 0 <= delta < w:
        raise ValueError(f"a window of {w} turns cannot overlap by {delta}")
    out, start = [], 0
    while start < n:
        new = start + delta if out else 0
        if new >= n:
            break
        out.append((start, new, min(start + w, n)))
        start += w - delta
    return out


def _prompt(items: list[RubricItem], state: dict[str, bool], turns: list[str], window: tuple[int, int, int]) -> list:
    start, new, end = window
    rubric = "\n".join(f"- {i.id} [{'met' if state[i.id] else 'unmet'} so far]: {i.text}" for i in items)
    shown = "\n".join(f"[turn {k + 1}{', context' if k < new else ''}] {turns[k]}" for k in range(start, end))
    return [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": f"Rubric:\n{rubric}\n\nConversation turns {start + 1}-{end} of {len(turns)}:"
                                        f"\n{shown}"}]


def _checker(items: list[RubricItem]):
    def check(answer: Any) -> dict[str, str]:
        given = answer["items"]
        if not isinstance(given, dict):
            raise TypeError("'items' must be an object mapping item ids to a status")
        out = {}
        for item in items:
            status = str(given[item.id]).strip().lower() if item.id in given else None
            if status not in STATUSES:
                raise ValueError(f"item {item.id!r} needs one of {', '.join(STATUSES)}, got {given.get(item.id)!r}")
            out[item.id] = status
        return out
    return check


async def judge_rubric_async(items: list[RubricItem], turns: list[str], judge: Any, w: int = WINDOW,
                             delta: int = OVERLAP, attempts: int = 3) -> dict:
    """Judge one trajectory's ``turns`` against ``items``. A judge that fails (no usable
    JSON after ``attempts``, or a provider error) gives a result with ``error`` set and
    ``passed`` None, never an exception."""
    from egoeval.agents import AgentError, InfraError

    from .judge import JudgeError, ask_json_async

    spans = windows(len(turns), w, delta)
    state = {i.id: False for i in items}
    history: dict[str, list[dict]] = {i.id: [] for i in items}
    result: dict[str, Any] = {"judge_model": getattr(judge, "model", None), "w": w, "delta": delta,
                              "turns": len(turns), "windows": len(spans) if items else 0, "error": None}
    for k, span in enumerate(spans if items else [], 1):
        try:
            verdicts = await ask_json_async(judge, _prompt(items, state, turns, span), _checker(items), attempts)
        except (JudgeError, AgentError, InfraError) as exc:
            result["error"] = f"window {k}: {exc}"
            break
        for item_id, status in verdicts.items():
            if status != "unchanged":
                state[item_id] = status == "met"
                history[item_id].append({"window": k, "status": status})
    met = sum(state.values())
    result["items"] = [{"id": i.id, "text": i.text, "met": state[i.id], "history": history[i.id]} for i in items]
    result.update(met=met, total=len(items), fraction=round(met / len(items), 4) if items else None,
                  passed=None if result["error"] or not items else met == len(items))
    return result


def judgements_path(log: str | Path) -> Path:
    """Where a log's judgements live: beside it, named after it (one file per log)."""
    log = Path(log)
    return log.with_name(log.stem + JUDGEMENTS)


def read_judgements(log: str | Path) -> dict[str, dict]:
    """A log's rubric judgements by episode id (empty when it was never judged; a torn or
    foreign line is skipped, never raised on)."""
    path = judgements_path(log)
    out: dict[str, dict] = {}
    if not path.is_file():
        return out
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("episode_id"), str):
            out[record["episode_id"]] = record
    return out


def summarise(judgements: list[dict]) -> dict:
    """Judgements in sum: episodes judged, how many met every item, the mean fraction met,
    the judge models and the errors. Records are read as untrusted input: one whose
    ``passed`` is not a boolean or whose ``fraction`` is not a number counts as not judged."""
    scored = [j for j in judgements if isinstance(j.get("passed"), bool) and isinstance(j.get("fraction"), (int, float))]
    passed = sum(j["passed"] for j in scored)
    return {"episodes": len(scored), "passed": passed,
            "pass_rate": round(100 * passed / len(scored), 2) if scored else 0.0,
            "mean_fraction": round(sum(j["fraction"] for j in scored) / len(scored), 4) if scored else 0.0,
            "judge_models": sorted({str(j.get("judge_model")) for j in judgements}),
            "errors": sum(bool(j.get("error")) for j in judgements)}


def judge_rubric(items: list[RubricItem], turns: list[str], judge: Any, w: int = WINDOW, delta: int = OVERLAP,
                 attempts: int = 3) -> dict:
    """:func:`judge_rubric_async` for synchronous callers."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, judge_rubric_async(items, turns, judge, w, delta, attempts)).result()
