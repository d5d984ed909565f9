"""Aggregate verdicts the way the official evaluator does (SCORING.md A7).

Per run file: success rates over its valid tasks, MicroAcc (matched / GT calls) and
average task accuracy, also over the tasks without a simulated-user issue. Across
files every rate is a task-weighted mean of the file rates; for MicroAcc this is *not*
the pooled ratio (quirk Q17), which the ``strict`` profile uses instead.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from egoeval.taxonomy import CATEGORIES, error_rates


def _answer_counts(vs: list) -> dict[str, Any]:
    """The communicated-answer component over the tasks that ask for a reported value
    (pooled; kept apart from the official rates)."""
    asked = [v for v in vs if v.answers and v.answers.get("expected")]
    passed = sum(bool(v.answers.get("passed")) for v in asked)
    return {"answers_tasks": len(asked), "answers_passed": passed,
            "answers_rate": passed / len(asked) if asked else 0.0}


def _rates(vs: list) -> dict[str, Any]:
    n = len(vs)
    matched = sum(v.matched_calls for v in vs)
    gt = sum(v.gt_calls for v in vs)
    return {
        "tasks": n,
        "tool_success": sum(v.tool_success for v in vs),
        "result_success": sum(v.result_success for v in vs),
        "joint_success": sum(v.joint_success for v in vs),
        "matched_calls": matched,
        "gt_calls": gt,
        "agent_calls": sum(v.agent_calls for v in vs),
        "tool_success_rate": sum(v.tool_success for v in vs) / n if n else 0.0,
        "result_success_rate": sum(v.result_success for v in vs) / n if n else 0.0,
        "joint_success_rate": sum(v.joint_success for v in vs) / n if n else 0.0,
        "micro_acc": matched / gt if gt else 0.0,
        "avg_task_accuracy": sum(v.matched_calls / v.gt_calls for v in vs if v.gt_calls > 0) / n if n else 0.0,
        **_answer_counts(vs),
    }


def file_summary(verdicts: Iterable) -> dict[str, Any]:
    """Metrics of one run file over its counted (valid, not excluded) verdicts."""
    vs = [v for v in verdicts if not v.excluded]
    out = _rates(vs)
    out["filtered"] = _rates([v for v in vs if not v.user_has_issue])
    out["user_issue_tasks"] = sum(v.user_has_issue for v in vs)
    return out


_WEIGHTED = ("tool_success_rate", "result_success_rate", "joint_success_rate", "micro_acc", "avg_task_accuracy")
_SUMMED = ("tasks", "tool_success", "result_success", "joint_success", "matched_calls", "gt_calls", "agent_calls",
           "answers_tasks", "answers_passed")


def _combine(parts: list[dict], pooled_micro: bool) -> dict[str, Any]:
    out: dict[str, Any] = {k: sum(p[k] for p in parts) for k in _SUMMED}
    n = out["tasks"]
    for k in _WEIGHTED:
        out[k] = sum(p[k] * p["tasks"] for p in parts) / n if n else 0.0
    out["pooled_micro_acc"] = out["matched_calls"] / out["gt_calls"] if out["gt_calls"] else 0.0
    out["answers_rate"] = out["answers_passed"] / out["answers_tasks"] if out["answers_tasks"] else 0.0
    if pooled_micro:
        out["micro_acc"] = out["pooled_micro_acc"]
    return out


def overall_summary(files: dict[str, dict], verdicts: Iterable, pooled_micro: bool = False) -> dict[str, Any]:
    """Combine file summaries (A7) and count error categories (A8)."""
    parts = list(files.values())
    out = _combine(parts, pooled_micro)
    out["filtered"] = _combine([p["filtered"] for p in parts], pooled_micro)
    counts = Counter(v.error_category for v in verdicts if v.error_category and not v.excluded)
    out["error_category_counts"] = {c: counts[c] for c in CATEGORIES if counts[c]}
    out["error_rates"] = error_rates(dict(counts))
    return out
