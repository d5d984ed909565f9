"""Agents: what plays the service side of an episode.

Every agent follows one protocol: :meth:`Agent.start` once per episode with the
:class:`EpisodeContext`, then :meth:`Agent.act` with the conversation so far (OpenAI
chat messages: system, user with frames, assistant with ``tool_calls``, tool results)
and the tool schemas; it answers with an :class:`AgentTurn`: a message for the user, or
tool calls (several at once allowed), never both required. Failures are typed so the
runner can tell them apart: :class:`AgentError` is the agent's fault (it counts against
it), :class:`InfraError` is the provider's or the machine's (it does not).

Offline agents live here: ``oracle`` (replays the ground truth as the user reveals the
task), ``null`` (never calls a tool), ``replay`` (re-plays a recorded log) and ``human``
(a person at the terminal, for debugging tasks). The LiteLLM agent is in
:mod:`egoeval.litellm_agent`.
"""

from __future__ import annotations

import asyncio
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TextIO

from egoeval.task import Task


class AgentError(Exception):
    """The agent failed (counts against it): e.g. a reply that is neither text nor calls."""


class InfraError(Exception):
    """The provider or the machine failed (never counted as an agent failure)."""


@dataclass
class ToolCall:
    """One call as the agent wrote it. ``arguments`` is the parsed object, or the raw
    text when the agent's JSON did not parse (the tool then fails, as in EgoBench)."""

    name: str
    arguments: Any
    id: str = ""

    def as_logged(self) -> dict:
        """The EgoBench call shape (what the scorers read)."""
        return {"tool_name": self.name, "parameters": self.arguments}


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float = 0.0

    def add(self, other: "Usage") -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cost += other.cost


@dataclass
class AgentTurn:
    """What the agent did on one step."""

    message: str | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    latency: float = 0.0
    retries: list[dict] = field(default_factory=list)  # infrastructure retries, for the log
    cached: bool = False  # served by the model-call cache
    audio: bytes | None = None  # a spoken reply (WAV or MP3), transcribed for the user (egoeval.spoken)
    audio_transcript: str | None = None  # the provider's own transcript of it, when it gives one


@dataclass
class EpisodeContext:
    """What an agent may know about its episode besides the conversation.

    ``steps`` is how many user messages the (scripted) user will reveal the task in, or
    None when the user is a model and nobody knows; only the oracle uses it.
    """

    task: Task
    epoch: int
    seed: int
    mode: str
    steps: int | None = None
    replay: dict | None = None  # for the replay agent: the recorded episode's events
    profile: str | None = None  # the scoring profile (the oracle sends what it accepts); None: the suite's default
    max_user_turns: int = 10
    persona: dict | None = None  # the simulated user's persona (tasks/personas), if any

    def to_log(self) -> dict:
        return {"task": self.task.id, "epoch": self.epoch, "seed": self.seed, "mode": self.mode}


class Agent(Protocol):
    name: str

    async def start(self, ctx: EpisodeContext) -> None: ...

    async def act(self, messages: list[dict], tools: list[dict]) -> AgentTurn: ...


def user_turns(messages: list[dict]) -> int:
    return sum(1 for m in messages if m.get("role") == "user")


class NullAgent:
    """Answers politely and never calls a tool: every task must fail (a floor)."""

    name = "null"

    async def start(self, ctx: EpisodeContext) -> None:
        pass

    async def act(self, messages: list[dict], tools: list[dict]) -> AgentTurn:
        return AgentTurn(message="I understand. Is there anything else I can help you with?")


class OracleAgent:
    """Replays the task's ground truth, spread over the user's messages.

    After the k-th of n user messages it has sent the first ceil(k * calls / n) ground
    truth calls, so a step-by-step user sees the work happen step by step; with a
    static user or an unknown number of steps it sends them all at once. Every task
    whose ground truth is sound must reach joint success (a ceiling).
    """

    name = "oracle"

    def __init__(self) -> None:
        self.calls: list[dict] = []
        self.sent = 0
        self.steps: int | None = None

    async def start(self, ctx: EpisodeContext) -> None:
        from egoeval.suites import suite_of

        suite = suite_of(ctx.task.id)
        self.calls = suite.oracle_calls(ctx.task, suite.profile(ctx.profile))  # exactly what `validate` sends
        self.sent = 0
        self.steps = ctx.steps if ctx.mode != "static" else None

    async def act(self, messages: list[dict], tools: list[dict]) -> AgentTurn:
        seen = user_turns(messages)
        due = len(self.calls) if not self.steps else math.ceil(min(seen, self.steps) * len(self.calls) / self.steps)
        if self.sent < due:
            batch = self.calls[self.sent:due]
            self.sent = due
            return AgentTurn(tool_calls=[ToolCall(c.get("tool_name") or c.get("name", ""),
                                                  c.get("parameters", c.get("arguments", {})))
                                         for c in batch])
        # report what the tools answered since the oracle last spoke (the values a user asked for)
        results = []
        for m in reversed(messages):
            if m.get("role") == "assistant" and not m.get("tool_calls"):
                break
            if m.get("role") == "tool":
                results.insert(0, str(m.get("content")))
        told = f" Results: {'; '.join(results)}" if results else ""
        return AgentTurn(message=f"Done: {self.sent} of {len(self.calls)} steps completed.{told}")


class ReplayAgent:
    """Re-plays the agent side of a recorded episode, in its recorded order.

    Given the events of the recorded episode (``EpisodeContext.replay``), each act
    returns the next recorded tool-call batch or agent message; when the recording runs
    out it says so. With the same user, a replay reproduces the recorded trajectory.
    """

    name = "replay"

    def __init__(self) -> None:
        self.steps: list[AgentTurn] = []

    async def start(self, ctx: EpisodeContext) -> None:
        if ctx.replay is None:
            raise InfraError(f"the replayed log has no finished episode for {ctx.task.id} epoch {ctx.epoch}")
        self.steps = []
        for ev in ctx.replay["events"]:
            if ev.get("event") == "tool_calls":
                self.steps.append(AgentTurn(tool_calls=[
                    ToolCall(c.get("tool_name") or c.get("name", "") if isinstance(c, dict) else "",
                             c.get("parameters", c.get("arguments", {})) if isinstance(c, dict) else c)
                    for c in ev.get("calls") or []]))
            elif ev.get("event") == "message" and ev.get("role") == "agent":
                self.steps.append(AgentTurn(message=ev.get("content") or ""))

    async def act(self, messages: list[dict], tools: list[dict]) -> AgentTurn:
        if not self.steps:
            return AgentTurn(message="(end of the replayed recording)")
        return self.steps.pop(0)


def recorded_episodes(path: str | Path) -> dict[tuple[str, int], dict]:
    """The finished episodes of an egoeval log, keyed by (task id, epoch), with their
    events in order (what the replay agent plays back)."""
    from egoeval.trajectory import iter_events

    current: dict[str, dict] = {}
    done: dict[tuple[str, int], dict] = {}
    for ev in iter_events(path):
        eid = ev.get("episode")
        if ev.get("event") == "episode_start":
            current[eid] = {"task": ev.get("task"), "epoch": ev.get("epoch", 1), "events": []}
        elif eid in current:
            current[eid]["events"].append(ev)
            if ev.get("event") == "episode_end":
                rec = current.pop(eid)
                done[(rec["task"], rec["epoch"])] = rec
    return done


class HumanAgent:
    """A person plays the agent at the terminal: type a reply, or a call as
    ``call TOOL {"arg": ...}`` (several lines of calls, then an empty line, make a batch)."""

    name = "human"

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.shown = 0

    async def start(self, ctx: EpisodeContext) -> None:
        self.shown = 0
        print(f"== {ctx.task.id} (epoch {ctx.epoch}) — you are the agent; tools: "
              f"reply with text, or 'call NAME {{json}}' lines", file=self.stdout)

    def _show(self, messages: list[dict]) -> None:
        for m in messages[self.shown:]:
            role = m.get("role")
            content = m.get("content")
            if isinstance(content, list):
                content = " ".join(p.get("text", "[image]") if p.get("type") == "text" else "[image]"
                                   for p in content)
            if role in ("user", "tool"):
                print(f"[{role}] {content}", file=self.stdout)
        self.shown = len(messages)

    async def act(self, messages: list[dict], tools: list[dict]) -> AgentTurn:
        self._show(messages)
        calls: list[ToolCall] = []
        while True:
            print("> ", end="", file=self.stdout, flush=True)
            line = await asyncio.to_thread(self.stdin.readline)  # other episodes go on while a person types
            if not line:  # end of input: the person left
                raise AgentError("the human agent's input ended")
            line = line.strip()
            if line.startswith("call "):
                name, _, raw = line[5:].strip().partition(" ")
                try:
                    args = json.loads(raw) if raw.strip() else {}
                except json.JSONDecodeError:
                    args = raw
                calls.append(ToolCall(name, args))
                continue
            if calls:
                return AgentTurn(tool_calls=calls)
            if line:
                return AgentTurn(message=line)

