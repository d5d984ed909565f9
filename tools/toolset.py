"""What the per-episode tool sets (media, office) share: a table of tools with JSON
schemas, argument checking, and failures turned into categorised :class:`ToolError`s.

A tool is a method whose first docstring paragraph is its description for the model.
The registry dispatches a call to the first tool set that has the name
(``ToolRegistry.execute(env, call, extra=[media, office])``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable

from egoeval.tools.registry import ToolError, ToolOutput
from egoeval.tools.workspace import Workspace, WorkspaceError

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,), "array": (list,)}


def prop(kind: str, description: str, **extra: Any) -> dict:
    """One parameter's schema."""
    return {"type": kind, "description": description, **extra}


def check_arguments(schema: dict, params: Any) -> dict:
    """Check call parameters against a flat JSON schema; raise ``ToolError`` saying what is wrong."""
    if not isinstance(params, dict):
        raise ToolError(f"parameters must be an object, not {type(params).__name__}")
    props, required = schema["properties"], schema.get("required", [])
    for name in required:
        if name not in params:
            raise ToolError(f"missing required parameter {name!r}")
    for name, value in params.items():
        if name not in props:
            raise ToolError(f"unexpected parameter {name!r} (expected: {', '.join(props)})")
        spec = props[name]
        kinds = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]
        ok = any(isinstance(value, _JSON_TYPES[k]) and not (k != "boolean" and isinstance(value, bool)) for k in kinds)
        if not ok:
            raise ToolError(f"parameter {name!r} must be a {' or '.join(kinds)}, not {type(value).__name__}")
        if isinstance(value, float) and not math.isfinite(value):
            raise ToolError(f"parameter {name!r} must be a finite number")
        if "enum" in spec and value not in spec["enum"]:
            raise ToolError(f"parameter {name!r} must be one of {spec['enum']}, not {value!r}")
        if "minimum" in spec and value < spec["minimum"] or "maximum" in spec and value > spec["maximum"]:
            raise ToolError(f"parameter {name!r} must be within {spec.get('minimum')}..{spec.get('maximum')}")
    return params


class Toolset:
    """A set of tools bound to one episode (see the module docstring).

    Subclasses call :meth:`add` for each tool and list in ``failures`` the exception
    types their tools raise for bad input, with the category each becomes.
    """

    failures: tuple[tuple[type[BaseException], str], ...] = ()

    def __init__(self, workspace: Workspace | None = None) -> None:
        self.workspace = workspace
        self._tools: dict[str, tuple[dict, Callable[..., Any]]] = {}
        self.members: dict[str, tuple[str, ...]] = {}

    def add(self, name: str, schema: dict, fn: Callable[..., Any]) -> None:
        self._tools[name] = (schema, fn)
        self.members[name] = tuple(schema["properties"])

    def schemas(self) -> list[dict]:
        """OpenAI-style function schemas."""
        return [{"type": "function", "function": {
            "name": name, "description": " ".join((fn.__doc__ or name).strip().split("\n\n")[0].split()),
            "parameters": schema}} for name, (schema, fn) in self._tools.items()]

    def invoke(self, name: str, params: Any) -> ToolOutput:
        """Run tool ``name``; raises ``ToolError`` (with its category) on any failure."""
        schema, fn = self._tools[name]
        args = check_arguments(schema, params)
        try:
            return fn(**args)
        except ToolError as exc:
            raise ToolError(self.hide_paths(str(exc)), exc.category) from exc
        except WorkspaceError as exc:
            raise ToolError(str(exc)) from exc
        except Exception as exc:  # noqa: BLE001 - mapped below, or re-raised
            for kind, category in self.failures:
                if isinstance(exc, kind):
                    raise ToolError(self.hide_paths(str(exc) or type(exc).__name__), category) from exc
            if isinstance(exc, (OSError, ValueError, RuntimeError, KeyError, IndexError, TypeError)):
                raise ToolError(self.hide_paths(f"{type(exc).__name__}: {exc}")) from exc
            raise

    def hide_paths(self, message: str) -> str:
        """Host paths never reach the agent: workspace paths become workspace names."""
        if self.workspace is not None:
            root = str(self.workspace.root.resolve())
            message = message.replace(root + "/", "").replace(str(self.workspace.root) + "/", "")
        return message

    def need_workspace(self) -> Workspace:
        if self.workspace is None:
            raise ToolError("this episode has no workspace to write files to")
        return self.workspace

    def workspace_file(self, name: str, suffixes: tuple[str, ...], must_exist: bool = False) -> Path:
        """A workspace path for ``name`` whose type is one of ``suffixes``."""
        path = self.need_workspace().path(name, must_exist=must_exist)
        if path.suffix.lower() not in suffixes:
            raise ToolError(f"{name!r} must be a {' or '.join(suffixes)} file")
        return path
