"""Shared fixtures: where ../shared is, and small builders for trajectories."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "egobench"


@pytest.fixture(scope="session")
def shared() -> Path:
    """The shared EgoBench folder (verdicts, recorded trajectories), or skip."""
    if not (SHARED / "trajectories" / "verdicts.json").exists():
        pytest.skip(f"{SHARED} is absent: the conformance data lives beside the repository in ../shared")
    return SHARED


def traj(*calls: dict, task_id: int = 1, **extra) -> dict:
    """A trajectory whose calls all come in one tool_calls entry."""
    return {"task_id": task_id, "tool_calls": [{"turn": 0, "calls": list(calls), "results": []}], **extra}


def call(tool: str, **params) -> dict:
    return {"tool_name": tool, "parameters": params}
