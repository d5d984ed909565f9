"""Speed and memory of the runner. Prints figures; asserts nothing.

Run from the repository root: ``python bench/runner_bench.py [--episodes 200] [--skip-memory]``.

* **Throughput**: 200 episodes of the LiteLLM agent against the loopback
  OpenAI-compatible server (tests/llm_server.py) answering every call after 300 ms, at
  concurrency 32; wall time against the ideal ``calls x latency / concurrency``
  (goal: within 1.3x).
* **Harness overhead per agent step** with no model latency: the null and oracle agents
  with the scripted user over EgoBench without video (logging, tools, scoring included;
  goal <= 2 ms).
* **Peak memory** with 64 concurrent episodes of 16 frames each (demo clips, an agent
  that holds its episode open for a second so all 64 overlap; goal <= 2 GB).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from egoeval.agents import AgentTurn, NullAgent, OracleAgent  # noqa: E402
from egoeval.observation import ObservationConfig  # noqa: E402
from egoeval.runner import Limits, RunConfig, Runner  # noqa: E402
from egoeval.suites import load_tasks  # noqa: E402
from egoeval.users import ScriptedUser  # noqa: E402


def play(tasks, agent, log_dir, concurrency, observation=None, epochs=1, mode="easy"):
    cfg = RunConfig(suite=tasks[0].suite, mode=mode, observation=observation or ObservationConfig(no_video=True),
                    max_concurrency=concurrency, epochs=epochs, limits=Limits(episode_timeout=3600))
    runner = Runner(cfg, tasks, agent, lambda: ScriptedUser(mode), log_dir)
    started = time.perf_counter()
    outcomes = asyncio.run(runner.run())
    return outcomes, time.perf_counter() - started, runner


def steps_of(runner) -> int:
    from egoeval.trajectory import iter_events

    return sum(1 for e in iter_events(runner.log_path) if e["event"] == "tool_calls"
               or (e["event"] == "message" and e.get("role") == "agent"))


def _requests(api_base: str) -> int:
    import json
    import urllib.request

    with urllib.request.urlopen(api_base + "/stats") as r:
        return json.load(r)["requests"]


def throughput(n: int, latency: float, concurrency: int, workers: int, tmp: Path) -> None:
    """``egoeval run`` with the LiteLLM agent, the loopback server in its own process; the
    time is the span from the first episode's start to the last one's end in the log."""
    import subprocess

    from egoeval.trajectory import iter_events

    repo = Path(__file__).resolve().parents[1]
    server = subprocess.Popen([sys.executable, str(repo / "tests" / "llm_server.py"), "--delay", str(latency)],
                              stdout=subprocess.PIPE, text=True)
    log_dir = tmp / f"throughput-{concurrency}-{workers}"
    try:
        api_base = server.stdout.readline().strip()
        before = _requests(api_base)
        subprocess.run([sys.executable, "-m", "egoeval", "run", "--suite", "egobench",
                        "--agent", "litellm:openai/bench", "--agent-api-base", api_base, "--no-video",
                        "--no-model-cache", "--quiet", "--max-concurrency", str(concurrency), "--workers", str(workers),
                        "--log-dir", str(log_dir), "--tasks", ",".join(t.id for t in load_tasks("egobench")[:n])],
                       check=True, stdout=subprocess.DEVNULL, cwd=tmp)
        calls = _requests(api_base) - before
    finally:
        server.kill()
    events = list(iter_events(log_dir / "run.jsonl"))
    starts = [e["time"] for e in events if e["event"] == "episode_start"]
    ends = [e for e in events if e["event"] == "episode_end"]
    wall = max(e["time"] for e in ends) - min(starts)
    ideal = calls * latency / concurrency
    errors = sum(e["reason"] in ("infra_error", "agent_error") for e in ends)
    print(f"throughput: {len(ends)} episodes, {calls} model calls at {latency * 1000:.0f} ms, concurrency "
          f"{concurrency}, {workers} worker process{'es' if workers > 1 else ''}: {wall:.2f} s; ideal {ideal:.2f} s; "
          f"ratio {wall / ideal:.2f}x (goal <= 1.3x); errors {errors}")


def overhead(tmp: Path) -> None:
    tasks = load_tasks("egobench")
    for name, agent in (("null", NullAgent), ("oracle", OracleAgent)):
        outcomes, wall, runner = play(tasks, agent, tmp / f"overhead-{name}", 8)
        steps = steps_of(runner)
        print(f"harness overhead, {name} agent: {len(outcomes)} episodes, {steps} agent steps in {wall:.2f} s: "
              f"{wall / steps * 1000:.3f} ms per step (goal <= 2 ms), {wall / len(outcomes) * 1000:.2f} ms per episode")


def client_cost(tmp: Path, n: int = 200) -> None:
    """CPU per model call of LiteLLM itself (zero latency, server in its own process)."""
    import subprocess

    from egoeval.model_client import ModelClient
    from egoeval.tasks.egobench import tool_schemas
    from egoeval.tools.registry import ToolRegistry

    server = subprocess.Popen([sys.executable, str(Path(__file__).resolve().parents[1] / "tests" / "llm_server.py")],
                              stdout=subprocess.PIPE, text=True)
    try:
        api_base = server.stdout.readline().strip()
        tools = ToolRegistry().schemas(tool_schemas("kitchen"))
        for label, with_tools in (("without tools", None), ("with the 28 kitchen tool schemas", tools)):
            client = ModelClient("openai/bench", api_base=api_base, api_key="k", cache=False)

            async def go():
                await client.complete([{"role": "user", "content": "warm up"}], with_tools)
                started = time.perf_counter()
                for i in range(n):
                    await client.complete([{"role": "user", "content": f"call {i}"}], with_tools)
                return time.perf_counter() - started

            cpu = time.process_time()
            wall = asyncio.run(go())
            print(f"LiteLLM client cost {label}: {wall / n * 1000:.2f} ms wall, "
                  f"{(time.process_time() - cpu) / n * 1000:.2f} ms CPU per call (sequential, zero latency)")
    finally:
        server.kill()


class Holding:
    """Answers after holding the episode open, so concurrent episodes overlap."""

    name = "holding"

    async def start(self, ctx):
        pass

    async def act(self, messages, tools):
        await asyncio.sleep(1.0)
        return AgentTurn(message="ok")


def memory(tmp: Path) -> None:
    from egoeval.tasks.demo import clip_path

    tasks = load_tasks("demo")
    for t in tasks:  # clips are generated once, outside the measurement
        clip_path(t)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    outcomes, wall, _ = play(tasks, Holding, tmp / "memory", 64, observation=ObservationConfig(frames=16), epochs=6,
                             mode="static")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory: {len(outcomes)} episodes of 16 frames, 64 at once, in {wall:.1f} s: peak RSS {peak:.0f} MiB "
          f"(before the run {before:.0f} MiB; goal <= 2048 MiB)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=200)
    ap.add_argument("--latency", type=float, default=0.3)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--skip-memory", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="egoeval-bench-") as tmp:
        os.environ.setdefault("EGOEVAL_CACHE", str(Path(tmp) / "cache"))
        print(f"cores {os.cpu_count()}, python {sys.version.split()[0]}")
        overhead(Path(tmp))
        throughput(args.episodes, args.latency, args.concurrency, 1, Path(tmp))
        throughput(args.episodes, args.latency, args.concurrency, 2, Path(tmp))
        throughput(args.episodes, args.latency, args.concurrency // 2, 1, Path(tmp))
        client_cost(Path(tmp))
        if not args.skip_memory:
            memory(Path(tmp))


if __name__ == "__main__":
    main()
