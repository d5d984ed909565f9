"""Simulated users: the customer side of an episode.

One protocol: :meth:`User.start` gives the first message, :meth:`User.respond` the
reply to each agent message; a reply with ``stop=True`` ends the episode (the user said
STOP). ``steps`` is how many messages the user plans to reveal the task in, when known.

The offline default is the :class:`ScriptedUser`: it reveals the task's analysis steps
(or, without them, the requests of its instruction) one per message (easy), all at once
(static), or one per message with a scenario distractor sentence appended (hard); it
answers the agent's user-id question from the instruction, and says STOP when every step
has been revealed and answered. The LLM user is in :mod:`egoeval.llm_user`.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Protocol

from egoeval.agents import EpisodeContext, Usage
from egoeval.task import Task

MODES = ("easy", "hard", "static")
STOP = "STOP"

_USER_ID = (
    re.compile(r"user[ _]?id\s*(?:is|:)?\s*[:(]?\s*([A-Za-z0-9_.@-]*\d[A-Za-z0-9_.@-]*|[a-z]+_[A-Za-z0-9_.-]+)",
               re.IGNORECASE),
    re.compile(r"\b(?:user|customer)(?: named)?\s+\"?([a-z]+_[A-Za-z0-9_]*\d[A-Za-z0-9_]*)\"?", re.IGNORECASE),
)
_ID_PAREN = re.compile(r"\s*\((?:user[ _]?id)[^)]*\)", re.IGNORECASE)
_FIRST_PERSON = ((r"\byou are\b", "I am"), (r"\byou're\b", "I'm"), (r"\byourself\b", "myself"),
                 (r"\byours\b", "mine"), (r"\byour\b", "my"), (r"\byou\b", "I"))
_ASK_AGENT_INSIDE = re.compile(r"\bask (?:the ai service agent|it) to\s+", re.IGNORECASE)
_ASK_AGENT_FOR = re.compile(r"\b(?:please )?ask the ai service agent for\s+", re.IGNORECASE)
_ASKS_ID = re.compile(r"user[ _-]?id|your id\b", re.IGNORECASE)
_NUMBERING = re.compile(r"^\s*(?:step\s*)?\d+[.)]\s*", re.IGNORECASE)
_ASK_AGENT = re.compile(r"^(?:(?:first|then|next|finally|also|after that|lastly|please),?\s+)?"
                        r"ask the ai service agent to\s+", re.IGNORECASE)


@dataclass
class UserReply:
    content: str
    stop: bool = False
    scores: dict | None = None  # the simulated user's own fidelity scores (LLM user)
    usage: Usage = field(default_factory=Usage)


class User(Protocol):
    name: str
    steps: int | None

    async def start(self, ctx: EpisodeContext) -> UserReply: ...

    async def respond(self, agent_message: str) -> UserReply: ...


def user_id(task: Task) -> str | None:
    """The user id the instruction gives the customer (``User ID: alice_wong_456``,
    ``You are user cook_006``, ``a customer named "tom_harris_123"``)."""
    for pattern in _USER_ID:
        m = pattern.search(task.instruction)
        if m:
            return m.group(1).rstrip(".,;)")
    return None


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", " ".join(text.split())) if s.strip()]


def first_person(text: str) -> str:
    """The instruction speaks to the user ("you pointed at"); the user speaks as "I"."""
    for pattern, repl in _FIRST_PERSON:
        text = re.sub(pattern, repl, text, flags=re.IGNORECASE)
    return text


def task_steps(task: Task) -> list[str]:
    """What the user says, in order, in the first person: the analysis lines (after the
    instruction's sentence that sets today's date, if it has one), or else the sentences
    of the instruction. The user id is left out (the user gives it separately)."""
    if task.analysis and str(task.analysis).strip():
        lines = [_NUMBERING.sub("", ln).strip() for ln in str(task.analysis).splitlines()]
        dated = [s for s in _sentences(task.instruction) if re.search(r"\btoday\b", s, re.IGNORECASE)]
        steps = [ln for ln in lines if ln]
        if dated and steps:
            steps[0] = f"{dated[0]} {steps[0]}"
    else:
        steps = _sentences(task.instruction)
    out = []
    for s in steps or [task.instruction.strip()]:
        s = _ASK_AGENT_FOR.sub("please tell me ", _ASK_AGENT.sub("Please ", _ID_PAREN.sub("", s)))
        s = first_person(_ASK_AGENT_INSIDE.sub("", s)).strip()
        if s:
            out.append(s[0].upper() + s[1:])
    return out


def distractor_pool(task: Task) -> list[str]:
    """The suite's distractor sentences for the task's scenario."""
    from egoeval.suites import suite_of

    return suite_of(task.id).distractors(task)


class ScriptedUser:
    """A deterministic user that needs no model (see the module docstring)."""

    name = "scripted"

    def __init__(self, mode: str = "easy") -> None:
        if mode not in MODES:
            raise ValueError(f"unknown user mode {mode!r}; choose one of {', '.join(MODES)}")
        self.mode = mode
        self.pending: list[str] = []
        self.steps: int | None = None
        self.user_id: str | None = None
        self.answered_id = False
        self.rng = random.Random(0)
        self.pool: list[str] = []

    def plan(self, task: Task, max_messages: int = 10) -> list[str]:
        """The messages this user will send for ``task``: one per step, the last one
        carrying the steps that would not fit in ``max_messages`` (or all in one, static)."""
        steps = task_steps(task)
        if self.mode == "static":
            return [" ".join(steps)]
        keep = max(1, max_messages)
        return steps[:keep - 1] + [" ".join(steps[keep - 1:])] if len(steps) > keep else steps

    async def start(self, ctx: EpisodeContext) -> UserReply:
        self.pending = self.plan(ctx.task, ctx.max_user_turns)
        self.steps = len(self.pending)
        self.user_id = user_id(ctx.task)
        self.rng = random.Random(ctx.seed)
        self.pool = distractor_pool(ctx.task) if self.mode == "hard" else []
        first = self._next()
        if self.user_id and self.user_id not in first:
            first = f"My user ID is {self.user_id}. {first}"
        return UserReply(first)

    def _next(self) -> str:
        text = self.pending.pop(0)
        if self.pool:
            text = f"{text} {self.rng.choice(self.pool)}"
        return text

    async def respond(self, agent_message: str) -> UserReply:
        asks = self.user_id and _ASKS_ID.search(agent_message or "") and "?" in (agent_message or "")
        if asks and not self.answered_id:  # once per step: an agent that keeps asking gets the next step
            self.answered_id = True
            return UserReply(f"My user ID is {self.user_id}.")
        self.answered_id = False
        if not self.pending:
            return UserReply(STOP, stop=True)
        return UserReply(self._next())
