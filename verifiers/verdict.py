"""The verdict of one task: what every verifier concluded, in one flat record."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Verdict:
    scenario: str  # task file stem, e.g. "retail6"
    task_id: Any
    tool_success: bool
    result_success: bool
    joint_success: bool
    matched_calls: int
    gt_calls: int
    agent_calls: int
    gt_hash: str | None
    agent_hash: str | None
    diff: list[str] = field(default_factory=list)
    error_category: str | None = None
    user_has_issue: bool = False
    profile: str = "egobench"
    missing_gt_calls: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    excluded: str | None = None  # strict profile: why the task is left out of metrics
    profile_pairs_by: str = "task_id"  # the member that names tasks under the profile
    answers: dict | None = None  # communicated-answer check (verifiers.answers); apart from joint success

    def to_dict(self) -> dict[str, Any]:
        """The record; files paired by ``scenario_id`` (the 2026 release) name the task by
        it too, as the official verdicts do."""
        out = asdict(self)
        if self.profile_pairs_by == "scenario_id":
            out["scenario_id"] = self.task_id
        del out["profile_pairs_by"]
        return out


@dataclass
class InvalidEntry:
    """A GT task that got no verdict (left out of every count, as the reference does)."""

    scenario: str
    task_id: Any
    reason: str
