"""Agents and users by name, as ``egoeval run --agent/--user`` takes them.

Agents: ``oracle``, ``null``, ``human``, ``replay:LOG`` (a log file or a log dir), and
``litellm:PROVIDER/MODEL``. Users: ``scripted`` and ``litellm:PROVIDER/MODEL``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

from egoeval.agents import Agent, HumanAgent, NullAgent, OracleAgent, ReplayAgent, recorded_episodes
from egoeval.users import MODES, ScriptedUser, User

AGENTS = ("oracle", "null", "human", "replay:LOG", "litellm:MODEL")
USERS = ("scripted", "litellm:MODEL")


#: What a model's settings may hold (``--model-config`` YAML, ``defaults`` and per model).
SETTINGS = ("protocol", "api_base", "api_key", "temperature", "seed", "max_tokens", "timeout", "max_retries",
            "backoff", "max_backoff", "cache", "extra", "max_rewrites", "audio_input")


class UnknownPlayer(ValueError):
    """An agent or user name egoeval does not know, or settings it cannot take."""


def load_model_config(path: str | Path | None) -> dict:
    """Read a model-settings YAML file: ``defaults:`` for every model, ``models:`` per
    ``provider/model`` name. Unknown keys are refused (a typo should not pass silently)."""
    if not path:
        return {"defaults": {}, "models": {}}
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise UnknownPlayer(f"{path}: cannot read the model config: {exc}") from None
    if not isinstance(data, dict) or set(data) - {"defaults", "models"}:
        raise UnknownPlayer(f"{path}: expected top-level keys 'defaults' and 'models'")
    out = {"defaults": data.get("defaults") or {}, "models": data.get("models") or {}}
    for where, block in [("defaults", out["defaults"]), *((f"models.{k}", v) for k, v in out["models"].items())]:
        if not isinstance(block, dict) or set(block) - set(SETTINGS):
            bad = sorted(set(block) - set(SETTINGS)) if isinstance(block, dict) else block
            raise UnknownPlayer(f"{path}: {where}: unknown settings {bad}; allowed: {', '.join(SETTINGS)}")
    return out


def settings_for(model: str, config: dict, **overrides) -> dict:
    """A model's settings: the config's defaults, then its own entry, then the command line."""
    import os

    merged = {**config.get("defaults", {}), **config.get("models", {}).get(model, {}),
              **{k: v for k, v in overrides.items() if v is not None}}
    if merged.get("api_base") and not merged.get("api_key"):
        key = os.environ.get("EGOEVAL_API_KEY")
        if key is None and model.split("/", 1)[0] in ("openai", "hosted_vllm") and not os.environ.get("OPENAI_API_KEY"):
            key = "sk-local"  # OpenAI-compatible local servers want some key
        if key:
            merged["api_key"] = key
    return merged


_SECRET = re.compile(r"(key|secret|token|password|passwd|authorization|credentials?)$", re.IGNORECASE)


def redact(value: Any) -> Any:
    """Settings as they may be logged: no secrets, at any depth (keys named like
    ``api_key``, ``aws_secret_access_key``, ``Authorization``; passwords in URLs)."""
    if isinstance(value, dict):
        return {k: ("***" if isinstance(k, str) and _SECRET.search(k) and v else redact(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v) for v in value]
    if isinstance(value, str):
        return re.sub(r"(://[^/:@\s]+):[^/@\s]+@", r"\1:***@", value)
    return value


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
        from egoeval.model_client import RateGate

        model, gate = spec.split(":", 1)[1], RateGate()  # one cap for the run's calls to this model
        return (lambda: LiteLLMAgent(model, gate=gate, **{k: v for k, v in settings.items() if k != "max_rewrites"})), \
            None
    raise UnknownPlayer(f"unknown agent {spec!r}; choose one of: {', '.join(AGENTS)}")


def make_user_factory(spec: str, mode: str, settings: dict | None = None) -> Callable[[], User]:
    settings = settings or {}
    if mode not in MODES:
        raise UnknownPlayer(f"unknown mode {mode!r}; choose one of: {', '.join(MODES)}")
    if spec == "scripted":
        return lambda: ScriptedUser(mode)
    if spec.startswith("litellm:"):
        from egoeval.llm_user import LLMUser
        from egoeval.model_client import RateGate

        model, gate = spec.split(":", 1)[1], RateGate()
        return lambda: LLMUser(model, mode, gate=gate,
                               **{k: v for k, v in settings.items() if k not in ("protocol", "audio_input")})
    raise UnknownPlayer(f"unknown user {spec!r}; choose one of: {', '.join(USERS)}")
