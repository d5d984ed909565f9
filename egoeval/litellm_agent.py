"""The LiteLLM agent: any model as the service agent.

Two tool-call protocols:

- ``native`` (default): the registry's schemas go in ``tools=``; calls come back as
  function calls. Arguments that are not valid JSON are kept as their raw text, so the
  call fails as a tool error (the agent's mistake, recorded), as in EgoBench.
- ``json``: EgoBench's JSON-in-text protocol for models without function calling. The
  tool schemas are described in the system prompt; a reply that contains JSON objects
  (or a list of them) with ``tool_name`` / ``name`` / ``tool_call`` is a batch of calls,
  anything else a message for the user. Tool results go back as a user message.
  Unlike the reference parser, which only finds objects nested one level deep, any
  nesting is found (calls whose parameters hold lists of objects are common here).

Frames arrive as base64 image parts in the conversation (the runner puts them there).
With ``audio_input`` the agent takes audio: a spoken user's messages carry
``input_audio`` parts too (:mod:`egoeval.spoken`). A model that answers in speech
(OpenAI's audio output, asked for with ``extra: {modalities: [text, audio], audio:
{voice: alloy, format: wav}}`` in the model config) has its audio passed on to be
transcribed for the user.
The episode's seed is sent as the sampling seed unless one is configured, so epochs
differ where the provider honours it.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from egoeval.agents import AgentError, AgentTurn, EpisodeContext, ToolCall
from egoeval.model_client import ModelClient

PROTOCOLS = ("native", "json")
JSON_PROTOCOL = (
    "\n\nTools. To call tools, reply with only JSON: one object "
    '{{"tool_name": NAME, "parameters": {{...}}}} or a list of such objects (they run in order). '
    "Tool results come back in the next message. To talk to the user, reply in plain text without such "
    "JSON. The tools:\n{tools}"
)


def _call_key(obj: Any) -> bool:
    """A call object: ``tool_call`` or ``tool_name``, or ``name`` *with* parameters or
    arguments (``{"name": "Mouton Cadet", "qty": 2}`` in a reply is data, not a call)."""
    if not isinstance(obj, dict):
        return False
    return "tool_call" in obj or "tool_name" in obj or ("name" in obj and ("parameters" in obj or "arguments" in obj))


def _as_call(obj: dict) -> ToolCall:
    inner = obj.get("tool_call")
    if isinstance(inner, dict):
        obj = inner
    elif isinstance(inner, str):  # {"tool_call": "get_cart", "parameters": {...}}
        obj = {**obj, "tool_name": inner}
    name = obj.get("tool_name") or obj.get("name") or ""
    args = obj["parameters"] if "parameters" in obj else obj.get("arguments", {})
    return ToolCall(str(name), args)


def _calls_in(obj: Any) -> list[ToolCall]:
    """Calls in a parsed JSON value, looking inside wrappers (``{"calls": [...]}``)."""
    if _call_key(obj):
        return [_as_call(obj)]
    if isinstance(obj, list):
        return [c for x in obj for c in _calls_in(x)]
    if isinstance(obj, dict):
        return [c for v in obj.values() if isinstance(v, (list, dict)) for c in _calls_in(v)]
    return []


def parse_text_calls(text: str | None) -> list[ToolCall]:
    """Tool calls written as JSON in a reply (see the module docstring); [] for none."""
    if not text:
        return []
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`")
        body = body[body.find("\n") + 1:] if "\n" in body else body
    try:
        whole = json.loads(body)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, (dict, list)):
        return _calls_in(whole)
    decoder, calls, i = json.JSONDecoder(), [], 0
    while i < len(text):
        if text[i] in "{[":
            try:
                obj, end = decoder.raw_decode(text, i)
            except json.JSONDecodeError:
                i += 1
                continue
            calls += _calls_in(obj)
            i = end
            continue
        i += 1
    return calls


def _parse_arguments(raw: str) -> Any:
    try:
        return json.loads(raw) if raw.strip() else {}
    except json.JSONDecodeError:
        return raw


def to_text_protocol(messages: list[dict], tools: list[dict]) -> list[dict]:
    """The conversation for a model without function calling: calls as JSON text, results
    as a user message, tool descriptions in the system prompt."""
    described = json.dumps([t["function"] for t in tools], ensure_ascii=False)
    out: list[dict] = []
    results: list[dict] = []

    def flush() -> None:
        if results:
            out.append({"role": "user", "content": "Tool results:\n" + json.dumps(results, ensure_ascii=False)})
            results.clear()

    for m in messages:
        if m["role"] == "tool":
            results.append({"tool_name": m.get("name", ""), "content": m["content"]})
            continue
        flush()
        if m["role"] == "system":
            out.append({"role": "system", "content": m["content"] + JSON_PROTOCOL.format(tools=described)})
        elif m["role"] == "assistant" and m.get("tool_calls"):
            calls = [{"tool_name": c["function"]["name"], "parameters": _parse_arguments(c["function"]["arguments"])}
                     for c in m["tool_calls"]]
            out.append({"role": "assistant", "content": json.dumps(calls, ensure_ascii=False)})
        else:
            out.append(m)
    flush()
    return out


class LiteLLMAgent:
    name = "litellm"

    def __init__(self, model: str, protocol: str = "native", audio_input: bool = False, **client: Any) -> None:
        if protocol not in PROTOCOLS:
            raise ValueError(f"unknown tool-call protocol {protocol!r}; choose one of {', '.join(PROTOCOLS)}")
        self.model = model
        self.protocol = protocol
        self.accepts_audio = bool(audio_input)  # a spoken user's audio is sent to it (egoeval.spoken)
        self.client = ModelClient(model, **client)
        self.seed: int | None = None

    @property
    def waiting_on_provider(self) -> bool:
        """True while a call waits out a provider's retry (the runner does not charge it to the agent)."""
        return self.client.waiting > 0 or self.client.cut_short_while_waiting

    async def start(self, ctx: EpisodeContext) -> None:
        self.seed = ctx.seed

    async def act(self, messages: list[dict], tools: list[dict]) -> AgentTurn:
        if self.protocol == "json":
            names = _tool_names(messages)
            done = await self.client.complete(to_text_protocol(_name_tools(messages, names), tools), seed=self.seed)
            calls = parse_text_calls(done.text)
            message = None if calls else (done.text or "")
        else:
            done = await self.client.complete(messages, tools, seed=self.seed)
            calls = [ToolCall(c["name"], _parse_arguments(c["arguments"]), c["id"]) for c in done.tool_calls]
            message = done.text if not calls else None
        audio = None
        if done.audio and not calls:
            try:
                audio = base64.b64decode(done.audio["data"], validate=True)
            except ValueError:
                raise AgentError("the model's audio reply is not valid base64") from None
        return AgentTurn(message=message, tool_calls=calls, usage=done.usage, latency=done.latency,
                         retries=done.retries, cached=done.cached, audio=audio,
                         audio_transcript=done.audio.get("transcript") if audio else None)


def _tool_names(messages: list[dict]) -> dict[str, str]:
    return {c["id"]: c["function"]["name"] for m in messages if m.get("role") == "assistant"
            for c in m.get("tool_calls") or []}


def _name_tools(messages: list[dict], names: dict[str, str]) -> list[dict]:
    return [{**m, "name": names.get(m.get("tool_call_id", ""), "")} if m.get("role") == "tool" else m
            for m in messages]
