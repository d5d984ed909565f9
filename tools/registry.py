"""One tool registry for every scenario: schemas for agents, and call execution.

Schemas: the suite ships EgoBench's own schema files (identifier key ``tool_name``,
some wrapped in ``{"type": "function", "function": ...}``); agents see them in the
OpenAI function-calling form. Execution follows the EgoBench runner (TOOLS.md 1):
errors are results, never exceptions, and every result is logged as a JSON string.

An episode may also carry media tools (:class:`~egoeval.tools.media_tools.MediaTools`,
bound to the task's videos); their results add images for the agent and, for frames,
the manifest that ties a score to the exact pixels the model saw.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from egoeval.tools.egobench import ENVIRONMENTS, ScenarioEnv
from egoeval.tools.egobench.base import normalise_result

if TYPE_CHECKING:
    from egoeval.tools.toolset import Toolset

#: Error categories of a :class:`ToolResult` (None when the call succeeded).
ERROR_CATEGORIES = ("malformed_call", "unknown_tool", "tool_error", "media_error", "render_error")


class ToolError(Exception):
    """Raised by a tool to fail with a category other than ``tool_error``."""

    def __init__(self, message: str, category: str = "tool_error") -> None:
        super().__init__(message)
        self.category = category


@dataclass(frozen=True)
class ToolImage:
    """An image a tool hands back to the agent: a video frame, later a rendered page."""

    data: bytes = field(repr=False)
    mime: str
    caption: str

    def data_url(self) -> str:
        return f"data:{self.mime};base64,{base64.b64encode(self.data).decode('ascii')}"

    def to_log(self) -> dict:
        """What the log keeps: the caption and a hash, not the bytes (the manifest can rebuild them)."""
        return {"caption": self.caption, "mime": self.mime, "bytes": len(self.data),
                "sha256": hashlib.sha256(self.data).hexdigest()}


@dataclass
class ToolOutput:
    """A tool's return value with images (and a frame manifest) for the agent."""

    value: Any
    images: list[ToolImage] = field(default_factory=list)
    manifest: dict | None = None
    artifacts: list[str] = field(default_factory=list)  # workspace files the call wrote


@dataclass
class ToolResult:
    """What one call produced, in the EgoBench log shape plus an error category."""

    tool_name: str
    parameters: Any
    content: str  # the normalised return value as JSON text
    error: str | None = None  # None or one of ERROR_CATEGORIES
    images: list[ToolImage] = field(default_factory=list)
    manifest: dict | None = None  # the frame manifest, for frame-returning media tools
    artifacts: list[str] = field(default_factory=list)  # workspace files the call wrote (the runner may render them)

    def to_log(self) -> dict:
        entry = {"role": "tool", "tool_name": self.tool_name, "parameters": self.parameters, "content": self.content}
        if self.images:
            entry["images"] = [im.to_log() for im in self.images]
        if self.manifest is not None:
            entry["frame_manifest"] = self.manifest
        if self.artifacts:
            entry["artifacts"] = self.artifacts
        return entry

    def content_parts(self) -> list[dict]:
        """The result as OpenAI-style content parts: the JSON text, then each image with its caption."""
        parts: list[dict] = [{"type": "text", "text": self.content}]
        for im in self.images:
            parts.append({"type": "text", "text": im.caption})
            parts.append({"type": "image_url", "image_url": {"url": im.data_url()}})
        return parts


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


class ToolRegistry:
    """Tool schemas and execution for the scenario environments."""

    def __init__(self, environments: dict[str, type[ScenarioEnv]] | None = None) -> None:
        self.environments = environments or ENVIRONMENTS

    def scenarios(self) -> list[str]:
        return list(self.environments)

    def new_env(self, scenario: str, seed: dict) -> ScenarioEnv:
        return self.environments[scenario].from_seed(seed)

    def schemas(self, raw: list[dict], extra: "Sequence[Toolset]" = ()) -> list[dict]:
        """OpenAI-style function schemas (``{"type": "function", "function": {"name", ...}}``):
        the scenario's tools first (``raw``, as the suite ships them, ``tool_name`` entries),
        then those of the episode's extra tool sets (media, office)."""
        out = []
        for entry in raw:
            fn = entry.get("function", entry)
            out.append({"type": "function", "function": {
                "name": fn["tool_name"], "description": fn.get("description", ""),
                "parameters": fn.get("parameters", {"type": "object", "properties": {}})}})
        return out + [s for toolset in extra for s in toolset.schemas()]

    def execute(self, env: ScenarioEnv, call: Any, extra: "Sequence[Toolset]" = ()) -> ToolResult:
        """Run one call the way the EgoBench runner does; never raises.

        A name the scenario does not know goes to the first of ``extra`` (the episode's
        media and office tools) that has it; their names never clash with a scenario's
        (a test checks it).
        """
        if not isinstance(call, dict):
            return ToolResult("unknown", {}, _dump({"error": "Tool call is not an object"}), "malformed_call")
        name = call.get("tool_name") or call.get("name")
        if not name or not isinstance(name, str):
            return ToolResult("unknown", {}, _dump({"error": "Missing tool identifier ('tool_name' or 'name')"}),
                              "malformed_call")
        params = call["parameters"] if "parameters" in call else call.get("arguments", {})
        toolset: Any = env if name in env.members else next((t for t in extra if name in t.members), None)
        if toolset is None:
            return ToolResult(name, params, _dump({"error": f"Tool '{name}' not found"}), "unknown_tool")
        try:
            value = toolset.invoke(name, params)
        except Exception as exc:  # noqa: BLE001 - a failing tool is a result
            category = exc.category if isinstance(exc, ToolError) else "tool_error"
            return ToolResult(name, params, _dump({"error": str(exc)}), category)
        output = value if isinstance(value, ToolOutput) else ToolOutput(value)
        try:
            return ToolResult(name, params, _dump(normalise_result(output.value)), images=output.images,
                              manifest=output.manifest, artifacts=output.artifacts)
        except (TypeError, ValueError) as exc:
            return ToolResult(name, params, _dump({"error": f"result is not JSON: {exc}"}), "tool_error")
