"""LLM judges: which model judges, and asking it for JSON that a checker accepts.

Judges are ordinary LiteLLM models (:class:`egoeval.model_client.ModelClient`), so any
provider or OpenAI-compatible server works and every reply is cached. A judge's reply
is untrusted: :func:`ask_json` extracts the JSON object, hands it to a checker, and on
malformed output asks again, telling the judge what was wrong (a different request, so
the cache never replays the bad answer; the rejected reply is also dropped from the cache,
so a later run asks afresh). When every attempt fails it raises
:class:`JudgeError` with the last reply, which callers record as a result.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, Callable, TypeVar

T = TypeVar("T")


class JudgeError(Exception):
    """The judge gave no acceptable answer (after its retries)."""


def judge_client(model: str | None = None, api_base: str | None = None, cache: Any = True) -> Any:
    """A judge model: ``model`` (a LiteLLM ``provider/model``), else ``$EGOEVAL_JUDGE_MODEL``
    (with ``$EGOEVAL_JUDGE_API_BASE``); None when neither names one."""
    model = model or os.environ.get("EGOEVAL_JUDGE_MODEL")
    if not model:
        return None
    from egoeval.model_client import ModelClient, RateGate
    from egoeval.players import settings_for

    settings = settings_for(model, {}, api_base=api_base or os.environ.get("EGOEVAL_JUDGE_API_BASE"))
    return ModelClient(model, cache=cache, gate=RateGate(),  # its concurrent calls adapt to the provider's limits
                       **{k: v for k, v in settings.items() if k in ("api_base", "api_key")})


def json_object(text: str | None) -> Any:
    """The first JSON object in a reply (models wrap JSON in prose or code fences)."""
    text = text or ""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            return decoder.raw_decode(text, start)[0]
        except ValueError:
            start = text.find("{", start + 1)
    raise ValueError("the reply holds no JSON object")


async def ask_json_async(judge: Any, messages: list[dict], check: Callable[[Any], T], attempts: int = 3) -> T:
    """``check(reply's JSON object)``, asking again (up to ``attempts`` calls in all) while
    the reply is not JSON or ``check`` rejects it (raises ValueError/KeyError/TypeError)."""
    conversation = list(messages)
    text = ""
    for _ in range(max(1, attempts)):
        text = (await judge.complete(conversation)).text or ""
        try:
            return check(json_object(text))
        except (ValueError, KeyError, TypeError) as exc:
            forget = getattr(judge, "forget", None)
            if forget is not None:  # a rejected reply must not be served from the cache next time
                forget(conversation)
            conversation = conversation + [
                {"role": "assistant", "content": text},
                {"role": "user", "content": f"That reply cannot be used ({exc}). Reply with the JSON object only, "
                                            f"in exactly the format asked for."}]
    raise JudgeError(f"judge {judge.model} gave no usable answer in {attempts} attempts; last reply: {text[:200]!r}")


def ask_json(judge: Any, messages: list[dict], check: Callable[[Any], T], attempts: int = 3) -> T:
    """:func:`ask_json_async` for synchronous callers (run in a thread of its own, since a
    caller may already be inside an event loop)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, ask_json_async(judge, messages, check, attempts)).result()
