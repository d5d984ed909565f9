"""Canonical JSON and the state hash.

EgoBench compares final states by the SHA-256 of a canonical JSON text (SCORING.md A6).
To reproduce the official hashes byte for byte we use exactly the serialisation the
reference uses: integral floats become integers, every other float is kept unrounded,
keys are sorted at every level, Python's default separators, non-ASCII written raw.
"""

from __future__ import annotations

import hashlib
import json
from json.encoder import encode_basestring  # what json.dumps(ensure_ascii=False) uses for strings
from typing import Any


_PLAIN = frozenset({str, int, bool, type(None)})


def normalise(value: Any, round_digits: int | None = None) -> Any:
    """Return ``value`` with integral floats as ints and tuples as lists.

    ``round_digits`` (used by the ``strict`` profile only) rounds floats first, so that
    0.1 + 0.2 and 0.3 hash alike. This walk runs over every replayed state, so plain
    scalars inside containers are handled inline rather than by a recursive call each.
    """
    t = type(value)
    if t is dict:
        out = {}
        for k, v in value.items():
            out[k] = v if type(v) in _PLAIN else normalise(v, round_digits)
        return out
    if t is list or t is tuple:
        return [v if type(v) in _PLAIN else normalise(v, round_digits) for v in value]
    if t in _PLAIN:
        return value
    if isinstance(value, float):
        if round_digits is not None and value == value and value not in (float("inf"), float("-inf")):
            value = round(value, round_digits)
        return int(value) if value.is_integer() else value
    if isinstance(value, dict):
        return {k: normalise(v, round_digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [normalise(v, round_digits) for v in value]
    return value  # other scalars, and Frozen sections (already canonical)


def canonical_json(value: Any, round_digits: int | None = None) -> str:
    """Serialise the normalised value the way the reference evaluator does."""
    return json.dumps(normalise(value, round_digits), sort_keys=True, ensure_ascii=False)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def state_hash(snapshot: Any, round_digits: int | None = None) -> str:
    """SHA-256 (lower-case hex) of a state snapshot in canonical form."""
    return sha256_hex(canonical_json(snapshot, round_digits))


class Frozen:
    """A section of a state snapshot whose canonical text is already known.

    Catalogs are large and, in almost every replay, untouched copies of the seed's.
    Environments share them between clones (copy-on-write) and hand them to the hash
    as ``Frozen`` so that their text is computed once per seed instead of once per
    replay. ``value`` is the plain section, for diffs and fallbacks.
    """

    __slots__ = ("text", "value")

    def __init__(self, text: str, value: Any) -> None:
        self.text = text
        self.value = value


_frozen_cache: dict[tuple[int, int | None], tuple[Any, Frozen]] = {}


def frozen_section(source: Any, project: Any, round_digits: int | None) -> Frozen:
    """The Frozen text of ``project(source)``, cached by the identity of ``source``.

    Only call this for a ``source`` that is never mutated again (a shared section).
    """
    key = (id(source), round_digits)
    hit = _frozen_cache.get(key)
    if hit is not None and hit[0] is source:
        return hit[1]
    value = project(source)
    frozen = Frozen(canonical_json(value, round_digits), value)
    if len(_frozen_cache) > 8192:
        _frozen_cache.clear()
    _frozen_cache[key] = (source, frozen)  # holding ``source`` keeps its id unique
    return frozen


def thaw(value: Any) -> Any:
    """The plain value of a snapshot that may contain Frozen sections (at any depth)."""
    if isinstance(value, Frozen):
        return value.value
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    return value


def _contains_frozen(value: Any, depth: int = 3) -> bool:
    if isinstance(value, Frozen):
        return True
    if depth and isinstance(value, dict):
        return any(_contains_frozen(v, depth - 1) for v in value.values())
    return False


def snapshot_text(snapshot: Any, round_digits: int | None = None) -> str:
    """Canonical text of a snapshot with Frozen sections; byte-equal to canonical_json."""
    if isinstance(snapshot, Frozen):
        return snapshot.text
    if (isinstance(snapshot, dict) and all(type(k) is str for k in snapshot)
            and _contains_frozen(snapshot)):
        items = (f"{encode_basestring(k)}: {snapshot_text(snapshot[k], round_digits)}"
                 for k in sorted(snapshot))
        return "{" + ", ".join(items) + "}"
    return canonical_json(thaw(snapshot), round_digits)
