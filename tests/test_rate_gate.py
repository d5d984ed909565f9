"""Adaptive concurrency: a provider that accepts 4 calls at a time and answers 429 to the
rest (a real HTTP server on 127.0.0.1), reached by 32 calls at once."""

import asyncio
import threading
import time

from llm_server import LoopbackLLM, http_error, reply

from egoeval.model_client import ModelClient, RateGate

CAPACITY = 4


def provider():
    """A responder with room for CAPACITY calls at a time, and what it saw."""
    lock, seen = threading.Lock(), {"now": 0, "rejected": 0, "served": 0}

    def respond(body: dict):
        with lock:
            if seen["now"] >= CAPACITY:
                seen["rejected"] += 1
                return http_error(429, **{"Retry-After": "0.05"})
            seen["now"] += 1
        time.sleep(0.1)
        with lock:
            seen["now"] -= 1
            seen["served"] += 1
        return reply("ok")
    return respond, seen


def burst(gate: RateGate | None, n: int = 32) -> dict:
    respond, seen = provider()
    with LoopbackLLM(respond) as server:
        client = ModelClient("openai/limited", api_base=server.api_base, api_key="k", cache=False, backoff=0.01,
                             max_backoff=0.05, max_retries=60, timeout=5, gate=gate)

        async def go():
            return await asyncio.gather(*(client.complete([{"role": "user", "content": f"q{i}"}]) for i in range(n)))

        results = asyncio.run(go())
    assert [r.text for r in results] == ["ok"] * n  # nothing lost either way
    return seen


def test_the_cap_follows_the_provider_and_the_storm_stops():
    gate = RateGate()
    gated = burst(gate)
    ungated = burst(None)
    assert gate.cuts >= 1 and 1 <= gate.limit <= 2 * CAPACITY  # settled near what the provider takes
    assert gate.in_flight == 0
    assert gated["rejected"] < 0.8 * ungated["rejected"], (gated, ungated)


def test_no_pushback_means_no_cap():
    gate = RateGate()

    async def go():
        slots = [await gate.acquire() for _ in range(50)]
        for _ in slots:
            gate.release()
        gate.succeeded(0)

    asyncio.run(go())
    assert gate.limit is None and gate.in_flight == 0


def test_one_halving_per_burst_then_one_more_slot_per_cap_of_successes():
    gate = RateGate()

    async def go():
        admitted = [await gate.acquire() for _ in range(16)]
        for generation in admitted:  # the whole burst is rejected: one cut, not sixteen
            gate.rate_limited(generation)
        assert gate.limit == 8 and gate.cuts == 1
        for generation in admitted:  # late successes of the old burst do not undo the cut
            gate.release()
            gate.succeeded(generation)
        assert gate.limit == 8
        quiet = [await gate.acquire() for _ in range(3)]
        for generation in quiet * 4:  # a cap nobody fills does not grow
            gate.succeeded(generation)
        for _ in quiet:
            gate.release()
        assert gate.limit == 8
        full = [await gate.acquire() for _ in range(8)]
        for generation in full:  # a filled cap grows by one after a cap's worth of successes
            gate.release()
            gate.succeeded(generation)
        assert gate.limit == 9
        waiting = [asyncio.ensure_future(gate.acquire()) for _ in range(10)]
        await asyncio.sleep(0)
        assert sum(w.done() for w in waiting) == 9 and gate.in_flight == 9  # the tenth waits for a slot
        gate.release()
        await asyncio.sleep(0)
        assert all(w.done() for w in waiting)

    asyncio.run(go())


def test_a_timeout_while_waiting_for_a_slot_is_the_providers_time():
    gate = RateGate()
    client = ModelClient("openai/limited", api_base="http://127.0.0.1:9/v1", api_key="k", cache=False, gate=gate)

    async def go():
        await gate.acquire()
        gate.rate_limited(0)  # cap 1, taken: the next call must wait
        try:
            await asyncio.wait_for(client.complete([{"role": "user", "content": "hi"}]), 0.2)
        except asyncio.TimeoutError:
            pass

    asyncio.run(go())
    assert client.cut_short_while_waiting and client.waiting == 0
