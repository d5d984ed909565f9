"""What the warehouse and household environments share: per-user action lists, seeded
with the same rules (3 to 5 users named ``<kind>_user_NN``, each with 3 to 5 actions);
the reference's messages differ only in the scenario's words."""

from __future__ import annotations

import re
from typing import Any, Callable


def load_action_lists(sections: Any, section: str, kind: str, user_prefix: str,
                      make_action: Callable[[Any], dict]) -> dict[str, list[dict]]:
    """Validated action lists of a seed: ``sections`` is its ``section`` member (e.g.
    ``equipment_action_lists``), ``kind`` the word the messages use ("equipment",
    "household"), ``user_prefix`` the user-id form (``warehouse_user``); raises
    ValueError with the reference's message on the first problem."""
    user_re = re.compile(rf"{re.escape(user_prefix)}_\d{{2}}")
    if not isinstance(sections, list) or not 3 <= len(sections) <= 5:
        raise ValueError(f"{section} must contain 3 to 5 users")
    lists: dict[str, list[dict]] = {}
    for raw in sections:
        if set(raw) != {"user_id", "actions"}:
            raise ValueError(f"each {kind} action list must contain only user_id and actions")
        user = raw.get("user_id")
        if not isinstance(user, str) or user_re.fullmatch(user) is None:
            raise ValueError(f"action-list user_id must use {user_prefix}_NN format")
        if user in lists:
            raise ValueError(f"duplicate action-list user_id: {user}")
        entries = raw.get("actions")
        if not isinstance(entries, list) or not 3 <= len(entries) <= 5:
            raise ValueError("actions must be a list containing 3 to 5 entries")
        lists[user] = [make_action(e) for e in entries]
    return lists
