"""Reading tool calls out of recorded trajectories (SCORING.md A2).

Recorded logs are untrusted input: entries may be strings, calls may lack a tool name,
parameters may be lists. These helpers never assume a shape; they reproduce the
reference's reading rules and leave judging the content to the verifiers.
"""

from __future__ import annotations

from typing import Any


def flatten_calls(tool_calls: Any) -> list[Any]:
    """The agent's calls, in order, from a ``tool_calls`` list.

    For each object entry: every element of a ``calls`` list, else the single ``call``
    value (older log format). Other entries contribute nothing. Elements are returned as
    they are, objects or not.
    """
    calls: list[Any] = []
    if not isinstance(tool_calls, list):
        return calls
    for entry in tool_calls:
        if not isinstance(entry, dict):
            continue
        if isinstance(entry.get("calls"), list):
            calls.extend(entry["calls"])
        elif "call" in entry:
            calls.append(entry["call"])
    return calls


def identifier(call: dict) -> Any:
    """``tool_name``, or ``name`` when that is missing or empty (may be any type)."""
    return call.get("tool_name") or call.get("name")


def parameters(call: dict, accept_arguments: bool = False) -> Any:
    """The call's ``parameters`` (absent: ``{}``); ``arguments`` only if asked (Q3)."""
    if "parameters" in call:
        return call["parameters"]
    if accept_arguments and "arguments" in call:
        return call["arguments"]
    return {}
