"""Agents and users by name, as ``egoeval run --agent/--user`` takes them.

Agents: ``oracle``, ``null``, ``human``, ``replay:LOG`` (a log file or a log dir), and
``litellm:PROVIDER/MODEL``. Users: ``scripted`` and ``litellm:PROVIDER/MODEL``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from egoeval.agents import Agent, HumanAgent, NullAgent, OracleAgent, ReplayAgent, recorded_episodes
from egoeval.users import MODES, ScriptedUser, User

AGENTS = ("oracle", "null", "human", "replay:LOG", "litellm:MODEL")
USERS = ("scripted", "litellm:MODEL")


class UnknownPlayer(ValueError):
    """An agent or user name egoeval does not know."""


def log_file(path: str | Path) -> Path:
    """A log given as its file or as the log dir holding ``run.jsonl``."""
    from egoeval.runner import LOG_NAME

    p = Path(path)
    return p / LOG_NAME if p.is_dir() else p


def make_agent_factory(spec: str, settings: dict | None = None) -> tuple[Callable[[], Agent], dict | None]:
    """(a factory of fresh agents, the recorded episodes for a replay agent or None)."""
    settings = settings or {}
    if spec == "oracle":
        return OracleAgent, None
    if spec == "null":
        return NullAgent, None
    if spec == "human":
        return HumanAgent, None
    if spec.startswith("replay:"):
        path = log_file(spec.split(":", 1)[1])
        if not path.is_file():
            raise UnknownPlayer(f"replay log {path} does not exist")
        return ReplayAgent, recorded_episodes(path)
    if spec.startswith("litellm:"):
        from egoeval.litellm_agent import LiteLLMAgent

        model = spec.split(":", 1)[1]
        return (lambda: LiteLLMAgent(model, **settings)), None
    raise UnknownPlayer(f"unknown agent {spec!r}; choose one of: {', '.join(AGENTS)}")


def make_user_factory(spec: str, mode: str, settings: dict | None = None) -> Callable[[], User]:
    settings = settings or {}
    if mode not in MODES:
        raise UnknownPlayer(f"unknown mode {mode!r}; choose one of: {', '.join(MODES)}")
    if spec == "scripted":
        return lambda: ScriptedUser(mode)
    if spec.startswith("litellm:"):
        from egoeval.llm_user import LLMUser

        model = spec.split(":", 1)[1]
        return lambda: LLMUser(model, mode, **settings)
    raise UnknownPlayer(f"unknown user {spec!r}; choose one of: {', '.join(USERS)}")
