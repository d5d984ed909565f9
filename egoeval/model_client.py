"""The one model client: LiteLLM, with retries, accounting and a call cache.

Any ``provider/model`` LiteLLM knows, or any OpenAI-compatible server through
``api_base``. What a run needs beyond a plain call:

- **Retries** with exponential backoff and jitter on rate limits (429), server errors
  (5xx), timeouts, dropped connections and unreadable responses, honouring
  ``Retry-After``. Each retry is reported (the log shows them); when retries run out
  the failure is an :class:`~egoeval.agents.InfraError`: the provider's fault, never
  the agent's. Errors no retry can fix (bad key, unknown model) are infrastructure
  errors at once; a prompt longer than the model's context is the agent's error.
- **Adaptive concurrency** (a :class:`RateGate` shared by a run's clients of one model):
  no limit until the provider answers 429; then the calls in flight are capped, the cap
  halving once per rejected burst and growing by one after a cap's worth of successes
  under it, once it has been filled (additive increase, multiplicative decrease, as TCP
  does), so a
  run at concurrency 32 settles at what the provider accepts instead of retrying in a
  storm. Waiting for a slot is the provider's time, never the agent's.
- **Accounting**: input and output tokens, cost where LiteLLM knows the price, latency.
- **Cache**: an SQLite file keyed by model, messages, tools and sampling parameters
  (not by ``api_base`` or key), so re-running a run makes no network call.

LiteLLM is imported on first use (it takes seconds) with its bundled price map, so
nothing reaches the network at import.
"""

from __future__ import annotations

import asyncio
import email.utils
import hashlib
import json
import os
import random
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from egoeval.agents import AgentError, InfraError, Usage

_litellm = None


def litellm():
    """Import LiteLLM once, offline-safe and quiet; a clear error when it is missing."""
    global _litellm
    if _litellm is None:
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        try:
            import litellm as module
        except ImportError as exc:
            raise InfraError("LiteLLM is not installed: pip install 'litellm[mcp]' (egoeval's model client)") from exc
        module.suppress_debug_info = True
        module.drop_params = True  # a provider that lacks `seed` etc. still gets the call
        _litellm = module
    return _litellm


@dataclass
class Completion:
    text: str | None
    tool_calls: list[dict] = field(default_factory=list)  # {"id", "name", "arguments" (raw text)}
    usage: Usage = field(default_factory=Usage)
    latency: float = 0.0
    retries: list[dict] = field(default_factory=list)
    cached: bool = False
    audio: dict | None = None  # a spoken reply: {"data": base64, "transcript": the provider's or None}

    def to_cache(self) -> str:
        return json.dumps({"text": self.text, "tool_calls": self.tool_calls, "audio": self.audio,
                           "usage": [self.usage.input_tokens, self.usage.output_tokens, self.usage.cost]})

    @classmethod
    def from_cache(cls, text: str) -> "Completion":
        d = json.loads(text)
        return cls(d["text"], d["tool_calls"], Usage(*d["usage"]), cached=True, audio=d.get("audio"))


class CallCache:
    """Model replies on disk (SQLite, safe across processes), keyed by request content."""

    def __init__(self, path: str | Path | None = None) -> None:
        if path is None:
            from egoeval.media.cache import default_root

            path = default_root() / "model_calls.sqlite"
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        with self._db() as db:
            db.execute("CREATE TABLE IF NOT EXISTS calls (key TEXT PRIMARY KEY, model TEXT, reply TEXT, created REAL)")

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            self._local.db = db
        return db

    @staticmethod
    def key(request: dict) -> str:
        return hashlib.sha256(json.dumps(request, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    def get(self, key: str) -> Completion | None:
        row = self._db().execute("SELECT reply FROM calls WHERE key = ?", (key,)).fetchone()
        return Completion.from_cache(row[0]) if row else None

    def delete(self, key: str) -> None:
        self._db().execute("DELETE FROM calls WHERE key = ?", (key,))

    def put(self, key: str, model: str, completion: Completion) -> None:
        self._db().execute("INSERT OR REPLACE INTO calls VALUES (?, ?, ?, ?)",
                           (key, model, completion.to_cache(), time.time()))


def _retry_after(exc: Exception) -> float | None:
    """Seconds from a Retry-After header on the error's HTTP response, if any."""
    value = None
    for headers in (getattr(exc, "litellm_response_headers", None), getattr(exc, "headers", None),
                    getattr(getattr(exc, "response", None), "headers", None)):
        if headers:
            value = headers.get("retry-after") or headers.get("Retry-After")
            if value is not None:
                break
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        return max(0.0, when.timestamp() - time.time())


class EmptyReply(Exception):
    """A reply without a message (retried: providers send these under load)."""


def classify(exc: Exception) -> str:
    """``retry`` (transient), ``infra`` (retrying will not help) or ``agent`` (the
    request itself is the agent's problem, e.g. its context is too long)."""
    lt = litellm()
    if isinstance(exc, lt.ContextWindowExceededError):
        return "agent"
    if isinstance(exc, (lt.AuthenticationError, lt.PermissionDeniedError, lt.NotFoundError,
                        lt.BadRequestError, lt.UnsupportedParamsError)):
        return "infra"
    if isinstance(exc, (lt.RateLimitError, lt.InternalServerError, lt.ServiceUnavailableError, lt.BadGatewayError,
                        lt.Timeout, lt.APIConnectionError, lt.APIError, asyncio.TimeoutError, ConnectionError,
                        json.JSONDecodeError, EmptyReply)):
        return "retry"
    return "retry" if type(exc).__module__.startswith(("httpx", "httpcore", "openai", "aiohttp")) else "infra"


class RateGate:
    """A run's adaptive cap on one model's calls in flight (see the module docstring).
    Used from one event loop: nothing awaits between a check and its update."""

    def __init__(self) -> None:
        self.limit: int | None = None  # None: no cap (the provider has not pushed back)
        self.in_flight = 0
        self.cuts = 0  # how often the cap was lowered
        self._streak = 0
        self._peak = 0  # the most calls in flight since the cap was last set
        self._waiters: list[asyncio.Future] = []

    async def acquire(self) -> int:
        """Wait for a slot; returns the cap's generation the call was admitted under."""
        while self.limit is not None and self.in_flight >= self.limit:
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            finally:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
        self.in_flight += 1
        self._peak = max(self._peak, self.in_flight)
        return self.cuts

    def release(self) -> None:
        self.in_flight -= 1
        self._wake()

    def _wake(self) -> None:
        """Let every waiter look again (they re-check the cap; one loop, so no race)."""
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def rate_limited(self, admitted_under: int) -> None:
        """A 429. Calls admitted before the last cut were part of the burst it answered, so
        they do not cut again (one halving per burst, not one per rejected call)."""
        if admitted_under != self.cuts:
            return
        self.limit = max(1, (self.limit or self.in_flight) // 2)
        self.cuts += 1
        self._streak = 0
        self._peak = 0

    def succeeded(self, admitted_under: int) -> None:
        """A success. It counts toward a larger cap only when the call was admitted under the
        present cap and the cap has been filled (a cap nobody reaches has nothing to learn)."""
        if self.limit is None or admitted_under != self.cuts or self._peak < self.limit:
            return
        self._streak += 1
        if self._streak >= self.limit:
            self.limit += 1
            self._streak = 0
            self._wake()


class ModelClient:
    """Chat completions for one model; see the module docstring."""

    def __init__(self, model: str, api_base: str | None = None, api_key: str | None = None,
                 temperature: float | None = 0.0, seed: int | None = None, max_tokens: int | None = None,
                 timeout: float = 120.0, max_retries: int = 6, backoff: float = 1.0, max_backoff: float = 60.0,
                 cache: CallCache | str | Path | bool | None = True, extra: dict | None = None,
                 gate: RateGate | None = None) -> None:
        self.model, self.api_base, self.api_key = model, api_base, api_key
        self.params = {k: v for k, v in {"temperature": temperature, "seed": seed, "max_tokens": max_tokens,
                                         **(extra or {})}.items() if v is not None}
        self.timeout, self.max_retries = timeout, max_retries
        self.backoff, self.max_backoff = backoff, max_backoff
        self.cache = CallCache() if cache is True else CallCache(cache) if isinstance(cache, (str, Path)) else \
            (cache or None)
        self.gate = gate  # shared with the run's other clients of this model (adaptive concurrency)
        self.waiting = 0  # calls now sleeping before a retry or for a slot (the provider's time, not the caller's)
        self.cut_short_while_waiting = False  # a retry wait was cancelled (e.g. by an episode timeout)

    def _key(self, messages: list[dict], tools: list[dict] | None, seed: int | None) -> tuple[str, dict]:
        params = dict(self.params)
        if seed is not None and "seed" not in params:
            params["seed"] = seed
        request = {"model": self.model, "messages": messages, "tools": tools or None, "params": params}
        return (CallCache.key(request) if self.cache else ""), params

    def forget(self, messages: list[dict], tools: list[dict] | None = None, seed: int | None = None) -> None:
        """Drop the cached reply to this request (one its caller found unusable)."""
        if self.cache:
            self.cache.delete(self._key(messages, tools, seed)[0])

    async def complete(self, messages: list[dict], tools: list[dict] | None = None,
                       seed: int | None = None) -> Completion:
        key, params = self._key(messages, tools, seed)
        if self.cache and (hit := self.cache.get(key)) is not None:
            return hit
        retries: list[dict] = []
        for attempt in range(self.max_retries + 1):
            admitted = await self._slot()
            started = time.monotonic()
            failure: Exception | None = None
            try:
                response = await asyncio.wait_for(self._call(messages, tools, params), self.timeout + 5)
                completion = self._parse(response)
            except Exception as exc:  # noqa: BLE001 - every failure is classified below
                failure = exc
                if self.gate is not None and isinstance(exc, litellm().RateLimitError):
                    self.gate.rate_limited(admitted)  # while this call still counts as in flight
            finally:
                if self.gate is not None:  # the slot is free before any retry wait
                    self.gate.release()
            if failure is not None:
                exc, kind = failure, classify(failure)
                error = f"{type(exc).__name__}: {str(exc)[:300]}"
                if self.gate is not None and isinstance(exc, litellm().RateLimitError):
                    error += f" (calls in flight now capped at {self.gate.limit})"
                if kind == "agent":
                    raise AgentError(error) from exc
                if kind == "infra" or attempt == self.max_retries:
                    raise InfraError(f"{error} (after {attempt} retries)" if attempt else error) from exc
                wait = _retry_after(exc)
                wait = min(self.max_backoff, wait) if wait is not None else \
                    min(self.max_backoff, self.backoff * 2 ** attempt) * random.uniform(0.5, 1.0)
                retries.append({"attempt": attempt + 1, "error": error, "wait_s": round(wait, 3)})
                await self._provider_time(asyncio.sleep(wait))
                continue
            if self.gate is not None:
                self.gate.succeeded(admitted)
            completion.latency = time.monotonic() - started
            completion.retries = retries
            if self.cache:
                self.cache.put(key, self.model, completion)
            return completion
        raise AssertionError("unreachable")  # pragma: no cover

    async def _slot(self) -> int:
        """A slot under the run's cap for this model (time spent waiting is the provider's)."""
        if self.gate is None:
            return 0
        return await self._provider_time(self.gate.acquire())

    async def _provider_time(self, waiting: Any) -> Any:
        """Await a wait that is the provider's doing (a retry's back-off, a slot under its
        cap), marked so the runner never charges it, or its cut-short, to the agent."""
        self.waiting += 1
        try:
            return await waiting
        except asyncio.CancelledError:
            self.cut_short_while_waiting = True  # e.g. an episode timeout while waiting
            raise
        finally:
            self.waiting -= 1

    async def _call(self, messages: list[dict], tools: list[dict] | None, params: dict) -> Any:
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, "timeout": self.timeout,
                                  "num_retries": 0, "max_retries": 0, **params}
        if tools:
            kwargs["tools"] = tools
        if self.api_base:
            kwargs["api_base"] = self.api_base
        if self.api_key:
            kwargs["api_key"] = self.api_key
        return await litellm().acompletion(**kwargs)

    def _parse(self, response: Any) -> Completion:
        try:
            message = response.choices[0].message
        except (AttributeError, IndexError, TypeError) as exc:
            raise EmptyReply(f"the provider's reply has no message: {str(response)[:200]}") from exc
        calls = [{"id": c.id or "", "name": c.function.name or "", "arguments": c.function.arguments or ""}
                 for c in (getattr(message, "tool_calls", None) or [])]
        usage = getattr(response, "usage", None)
        cost = (getattr(response, "_hidden_params", None) or {}).get("response_cost")  # LiteLLM's own figure
        if cost is None:
            try:
                cost = litellm().completion_cost(completion_response=response)
            except Exception:  # noqa: BLE001 - no price known for this model
                cost = 0.0
        cost = float(cost or 0.0)
        audio = getattr(message, "audio", None)
        data = (audio.get("data") if isinstance(audio, dict) else getattr(audio, "data", None)) if audio else None
        spoken = {"data": data, "transcript": audio.get("transcript") if isinstance(audio, dict)
                  else getattr(audio, "transcript", None)} if isinstance(data, str) and data else None
        return Completion(message.content, calls, Usage(getattr(usage, "prompt_tokens", 0) or 0,
                                                        getattr(usage, "completion_tokens", 0) or 0, cost), audio=spoken)
