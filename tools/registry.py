"""One tool registry for every scenario: schemas for agents, and call execution.

Schemas: the suite ships EgoBench's own schema files (identifier key ``tool_name``,
some wrapped in ``{"type": "function", "function": ...}``); agents see them in the
OpenAI function-calling form. Execution follows the EgoBench runner (TOOLS.md 1):
errors are results, never exceptions, and every result is logged as a JSON string.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from egoeval.tools.egobench import ENVIRONMENTS, ScenarioEnv
from egoeval.tools.egobench.base import normalise_result


@dataclass
class ToolResult:
    """What one call produced, in the EgoBench log shape plus an error category."""

    tool_name: str
    parameters: Any
    content: str  # the normalised return value as JSON text
    error: str | None = None  # None, "malformed_call", "unknown_tool", "tool_error"

    def to_log(self) -> dict:
        return {"role": "tool", "tool_name": self.tool_name, "parameters": self.parameters, "content": self.content}


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

    def raw_schemas(self, scenario: str) -> list[dict]:
        from egoeval.tasks import egobench as suite

        return suite.tool_schemas(scenario)

    def schemas(self, scenario: str) -> list[dict]:
        """OpenAI-style function schemas (``{"type": "function", "function": {"name", ...}}``)."""
        out = []
        for entry in self.raw_schemas(scenario):
            fn = entry.get("function", entry)
            out.append({"type": "function", "function": {
                "name": fn["tool_name"], "description": fn.get("description", ""),
                "parameters": fn.get("parameters", {"type": "object", "properties": {}})}})
        return out

    def execute(self, env: ScenarioEnv, call: Any) -> ToolResult:
        """Run one call the way the EgoBench runner does; never raises."""
        if not isinstance(call, dict):
            return ToolResult("unknown", {}, _dump({"error": "Tool call is not an object"}), "malformed_call")
        name = call.get("tool_name") or call.get("name")
        if not name or not isinstance(name, str):
            return ToolResult("unknown", {}, _dump({"error": "Missing tool identifier ('tool_name' or 'name')"}),
                              "malformed_call")
        params = call["parameters"] if "parameters" in call else call.get("arguments", {})
        if name not in env.members:
            return ToolResult(name, params, _dump({"error": f"Tool '{name}' not found"}), "unknown_tool")
        try:
            value = env.invoke(name, params)
        except Exception as exc:  # noqa: BLE001 - a failing tool is a result
            return ToolResult(name, params, _dump({"error": str(exc)}), "tool_error")
        try:
            return ToolResult(name, params, _dump(normalise_result(value)))
        except (TypeError, ValueError) as exc:
            return ToolResult(name, params, _dump({"error": f"result is not JSON: {exc}"}), "tool_error")
