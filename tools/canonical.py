"""Canonical JSON and the state hash.

EgoBench compares final states by the SHA-256 of a canonical JSON text (SCORING.md A6).
To reproduce the official hashes byte for byte we use exactly the serialisation the
reference uses: integral floats become integers, every other float is kept unrounded,
keys are sorted at every level, Python's default separators, non-ASCII written raw.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def normalise(value: Any, round_digits: int | None = None) -> Any:
    """Return ``value`` with integral floats as ints and tuples as lists.

    ``round_digits`` (used by the ``strict`` profile only) rounds floats first, so that
    0.1 + 0.2 and 0.3 hash alike.
    """
    if isinstance(value, float):
        if round_digits is not None and value == value and value not in (float("inf"), float("-inf")):
            value = round(value, round_digits)
        return int(value) if value.is_integer() else value
    if isinstance(value, dict):
        return {k: normalise(v, round_digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [normalise(v, round_digits) for v in value]
    return value


def canonical_json(value: Any, round_digits: int | None = None) -> str:
    """Serialise the normalised value the way the reference evaluator does."""
    return json.dumps(normalise(value, round_digits), sort_keys=True, ensure_ascii=False)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def state_hash(snapshot: Any, round_digits: int | None = None) -> str:
    """SHA-256 (lower-case hex) of a state snapshot in canonical form."""
    return sha256_hex(canonical_json(snapshot, round_digits))


def hash_normalised(value: Any) -> str:
    """SHA-256 of a value that :func:`normalise` has already processed."""
    return sha256_hex(json.dumps(value, sort_keys=True, ensure_ascii=False))
