"""The task model shared by every suite."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Task:
    """One task: a video, a brief for the simulated user, a seed state and ground truth.

    ``id`` is ``<suite>/<file>/<task_id>``, e.g. ``egobench/retail1/7``. ``ground_truth``
    holds the calls exactly as the suite ships them (``{"tool_name", "parameters"}``).
    """

    id: str
    suite: str
    scenario: str
    file: str
    task_id: int
    instruction: str
    video: str
    scene_description: str
    ground_truth: list[dict]
    key: str = ""
    value: list[Any] = field(default_factory=list)
    analysis: str | None = None
    seed: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "suite": self.suite, "scenario": self.scenario, "file": self.file,
            "task_id": self.task_id, "instruction": self.instruction, "analysis": self.analysis,
            "video": self.video, "scene_description": self.scene_description,
            "ground_truth": self.ground_truth, "key": self.key, "value": self.value,
            "seed": self.seed, "extra": self.extra,
        }
