"""Did the agent look at what it made? And if an artifact task failed, why?

From the trajectory's tool calls (EgoBench entries ``{"turn", "calls", "results"}``):

- **verified**: it rendered the final file (``render_to_image``) after its last edit;
- **incomplete**: it rendered the file, but edited it again afterwards;
- **pseudo**: it only read the file's metadata (``read_file`` / ``list_files``), never
  looked at the rendered pages;
- **none**: it never checked the file at all.

An edit is any call whose result lists the file among its ``artifacts``.

A failed artifact task gets one category, in this order: ``non_agent`` (the machine or
the provider failed), ``tool_choice`` (the file was never made), ``tool_parameters`` (a
call on the file failed for its arguments), ``multimodal`` (a criterion that depends on
the video failed: the picture, or the items pointed at), then the self-verification
kind when the agent did not verify (``self_verification_none`` / ``_pseudo`` /
``_incomplete``), else ``artifact_quality``.
"""

from __future__ import annotations

import json
from typing import Any

LOOK = "render_to_image"
METADATA = ("read_file", "list_files")
VIDEO_CRITERIA = ("picture",)


def _calls(tool_calls: list[dict]) -> list[tuple[dict, dict]]:
    out = []
    for entry in tool_calls or []:
        calls = entry.get("calls") or []
        results = entry.get("results") or []
        for n, call in enumerate(calls):
            result = results[n] if n < len(results) and isinstance(results[n], dict) else {}
            out.append((call if isinstance(call, dict) else {}, result))
    return out


def _file_of(call: dict) -> Any:
    params = call.get("parameters")
    return params.get("file_name") if isinstance(params, dict) else None


def self_verification(tool_calls: list[dict], file_name: str) -> str:
    """``verified``, ``incomplete``, ``pseudo`` or ``none`` (see the module docstring)."""
    last_edit, looks, metadata = -1, [], []
    for i, (call, result) in enumerate(_calls(tool_calls)):
        name = call.get("tool_name") or call.get("name")
        if file_name in (result.get("artifacts") or []):
            last_edit = i
        if name == LOOK and _file_of(call) == file_name and not _failed(result):
            looks.append(i)
        elif name in METADATA and (name == "list_files" or _file_of(call) == file_name):
            metadata.append(i)
    if looks:
        return "verified" if max(looks) > last_edit else "incomplete"
    return "pseudo" if metadata else "none"


def _failed(result: dict) -> bool:
    try:
        content = json.loads(result.get("content") or "{}")
    except (TypeError, ValueError):
        return True
    return isinstance(content, dict) and "error" in content


def failure_category(verdict: dict, tool_calls: list[dict], file_name: str, video_items: list[str]) -> str | None:
    """The category of a failed artifact verdict (None when it passed)."""
    if verdict.get("passed"):
        return None
    if verdict.get("non_agent"):
        return "non_agent"
    failed = [c for c in verdict.get("criteria", []) if not c["passed"]]
    if any(c["type"] == "file_exists" for c in failed) or not any(
            file_name in (r.get("artifacts") or []) for _, r in _calls(tool_calls)):
        return "tool_choice"
    if any(_file_of(c) == file_name and _failed(r) for c, r in _calls(tool_calls)):
        return "tool_parameters"
    if any(c["type"] in VIDEO_CRITERIA or (c["type"] == "text_present" and any(
            item.lower() in json.dumps(c).lower() for item in video_items)) for c in failed):
        return "multimodal"
    kind = self_verification(tool_calls, file_name)
    return f"self_verification_{kind}" if kind != "verified" else "artifact_quality"
