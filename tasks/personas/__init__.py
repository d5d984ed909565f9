"""Personas for the LLM user: ECom-Bench's dimensions (emotion, patience, style) and
VitaBench's behaviour types, as data (``personas.json``). ``egoeval run --persona NAME``
or ``--persona random`` (one per episode, chosen with the episode's seed)."""

from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).parent


def personas() -> list[dict]:
    return json.loads((HERE / "personas.json").read_text(encoding="utf-8"))


def names() -> list[str]:
    return [p["name"] for p in personas()]


def pick(name: str | None, seed: int) -> dict | None:
    """The persona called ``name``, a seeded random one for ``random``, or None."""
    if not name:
        return None
    table = personas()
    if name == "random":
        return random.Random(seed).choice(table)
    for p in table:
        if p["name"] == name:
            return p
    raise KeyError(f"unknown persona {name!r}; choose one of: random, {', '.join(names())}")
