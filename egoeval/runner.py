"""The closed loop: play each (task, epoch) as an episode, log every event, score it.

An episode: the agent is shown the task's video (an observation, built off the event
loop) and the simulated user's first message; it answers with tool calls (run against a
fresh scenario environment, errors included as results) or with a message for the user;
the user replies, until the user says STOP or a limit ends it. Every episode ends with
a reason (:data:`END_REASONS`) and, unless the machine or the provider failed
(``infra_error``), a verdict from the same scorer ``egoeval score`` uses.

The log (``<log-dir>/run.jsonl``, see :mod:`egoeval.trajectory`) is written event by
event as it happens. Re-running with the same log dir skips every episode that has its
``episode_end`` and redoes the rest (and those that ended on an infrastructure error);
a killed run loses at most its in-flight episodes.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from egoeval.agents import Agent, AgentError, AgentTurn, EpisodeContext, InfraError, ToolCall, Usage
from egoeval.observation import ObservationConfig, observe
from egoeval.suites import get_suite, suite_of
from egoeval.task import Task
from egoeval.trajectory import Episode, LogWriter, episode_audio, episode_workspace, read_log
from egoeval.users import User

END_REASONS = ("user_stop", "turn_limit", "tool_cap", "token_budget", "timeout", "agent_error", "infra_error")
LOG_NAME = "run.jsonl"

SCENARIO_ROLES = {
    "retail": "a shop assistant in a supermarket (products, wines, prices, the customer's cart)",
    "kitchen": "a kitchen assistant (ingredients, recipes, the user's menu and shopping list)",
    "restaurant": "a waiter in a restaurant (the menu, dishes, set meals, the diner's order)",
    "order": "a food-ordering assistant (restaurant menus, dishes, the customer's order)",
}
SYSTEM_PROMPT = (
    "You are an AI service agent acting as {role}. The user wears smart glasses: the images you are given "
    "are frames of what the user sees, from their own point of view, in time order. Help the user with "
    "what they ask, using the tools to look things up and to change their records; never invent results. "
    "Ask for the user's ID when a tool needs it. Reply briefly and clearly."
)


@dataclass
class Limits:
    max_user_turns: int = 10
    max_tool_calls: int = 200
    episode_timeout: float = 600.0  # seconds of wall clock per episode
    token_budget: int | None = None  # input + output tokens per episode


@dataclass
class RunConfig:
    """Everything that decides what a run does (recorded in the log header)."""

    suite: str = "demo"
    tasks: str | None = None  # glob(s) over task ids
    agent: str = "oracle"
    user: str = "scripted"
    mode: str = "easy"
    observation: ObservationConfig = field(default_factory=ObservationConfig)
    epochs: int = 1
    seed: int = 0
    max_concurrency: int = 8
    limits: Limits = field(default_factory=Limits)
    profile: str | None = None  # a scoring profile of the suite; None: the suite's default
    media_tools: bool = False
    office_tools: bool = False
    persona: str | None = None  # a persona name, "random", or None (tasks/personas)
    data_dir: str | None = None  # where the suite reads its data (a clone, --egobench-dir), None: shipped
    spoken_user: str | None = None  # a text-to-speech backend: user messages also as audio (egoeval.spoken)
    spoken_voice: str | None = None
    system_prompt: str | None = None
    agent_settings: dict = field(default_factory=dict)
    user_settings: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        from egoeval.players import redact

        return asdict(self) | {"observation": self.observation.to_dict(), "agent_settings": redact(self.agent_settings),
                               "user_settings": redact(self.user_settings)}

    def identity(self) -> dict:
        """What must match for a log dir to be resumed: everything that changes what an
        episode does (tasks, epochs and concurrency may change; timeouts and retries too)."""
        from egoeval.players import redact

        def sampling(settings: dict) -> dict:
            return redact({k: v for k, v in settings.items()
                           if k in ("protocol", "temperature", "seed", "max_tokens", "extra", "max_rewrites",
                                    "audio_input")})

        spoken = {"spoken_user": self.spoken_user, "spoken_voice": self.spoken_voice} if self.spoken_user else {}
        spoken |= {"data_dir": self.data_dir} if self.data_dir else {}  # absent from older logs: same meaning
        return {"suite": self.suite, "agent": self.agent, "user": self.user, "mode": self.mode,
                "observation": self.observation.to_dict(), "seed": self.seed, "profile": self.profile,
                "media_tools": self.media_tools, "office_tools": self.office_tools, "persona": self.persona,
                **spoken, "max_user_turns": self.limits.max_user_turns,
                "max_tool_calls": self.limits.max_tool_calls, "token_budget": self.limits.token_budget,
                "system_prompt": self.system_prompt, "agent_settings": sampling(self.agent_settings),
                "user_settings": sampling(self.user_settings)}


class ConfigMismatch(Exception):
    """A log dir holds a run with another configuration."""


def episode_id(task_id: str, epoch: int) -> str:
    return f"{task_id}@{epoch}"


def longest_first(work: list[tuple[Task, int]]) -> list[tuple[Task, int]]:
    """Episodes expected to take longest go first (by how many requests the task makes),
    so a concurrent run does not end waiting on a few long episodes started last. The
    sort is stable: equal lengths keep suite order."""
    from egoeval.users import task_steps

    length = {t.id: len(task_steps(t)) + len(t.ground_truth) for t, _ in work}
    return sorted(work, key=lambda item: -length[item[0].id])


def shard_of(eid: str, n: int) -> int:
    """The worker shard of an episode: stable, so every worker agrees without talking."""
    return int.from_bytes(hashlib.sha256(eid.encode()).digest()[:4], "big") % n


def episode_seed(seed: int, task_id: str, epoch: int) -> int:
    """A seed per (run seed, task, epoch): distinct across epochs, stable across runs."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{task_id}:{epoch}".encode()).digest()[:4], "big")


@dataclass
class EpisodeOutcome:
    episode: str
    task: str
    epoch: int
    reason: str
    error: str | None = None
    verdict: dict | None = None


class EpisodeRecorder:
    """Writes one episode's events and mirrors them into an :class:`Episode`, so the
    verdict given at the end is computed from exactly what the log holds."""

    def __init__(self, writer: LogWriter, eid: str, task: Task, epoch: int, mode: str, seed: int,
                 persona: dict | None = None) -> None:
        self.writer, self.eid = writer, eid
        self.persona = persona  # the simulated user's persona for this episode (logged by name)
        name = persona["name"] if persona else None
        self.episode = Episode(eid, task.id, epoch, mode, persona=name)
        extra = {"persona": name} if name else {}
        self.event("episode_start", task=task.id, epoch=epoch, mode=mode, seed=seed, time=round(time.time(), 3), **extra)

    def event(self, kind: str, /, **fields: Any) -> None:
        ev = {"event": kind, "episode": self.eid, **fields}
        self.writer.write(ev)
        self.episode.apply(ev)


def _call_message(calls: list[ToolCall]) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": c.id, "type": "function", "function": {
            "name": c.name, "arguments": c.arguments if isinstance(c.arguments, str)
            else json.dumps(c.arguments, ensure_ascii=False)}} for c in calls]}


def _step_fields(step: AgentTurn) -> dict:
    fields: dict[str, Any] = {"usage": asdict(step.usage), "latency_s": round(step.latency, 4)}
    if step.retries:
        fields["retries"] = step.retries
    if step.cached:
        fields["cached"] = True
    return fields


class Runner:
    """Runs a suite's episodes with an agent and a user; see the module docstring.

    ``make_agent`` and ``make_user`` build a fresh agent and user per episode.
    ``on_episode`` is called after each finished episode (progress display).
    ``inspector`` is the render-and-look step: given a workspace file a tool call wrote,
    it returns images of it (rendered pages), which the agent sees right after the
    call's results so it can check its work and revise (the renderers plug in here).
    """

    def __init__(self, config: RunConfig, tasks: list[Task], make_agent: Callable[[], Agent],
                 make_user: Callable[[], User], log_dir: str | Path, video_dir: Path | None = None,
                 on_episode: Callable[[EpisodeOutcome], None] | None = None,
                 replay: dict[tuple[str, int], dict] | None = None,
                 inspector: Callable[[Path], list] | None = None, shard: tuple[int, int] | None = None) -> None:
        from dataclasses import replace

        from egoeval.tools.registry import ToolRegistry

        if config.profile is None:  # the log header names the profile that scored the run
            config = replace(config, profile=get_suite(config.suite).default_profile)
        self.config, self.tasks = config, tasks
        self.make_agent, self.make_user = make_agent, make_user
        self.log_dir = Path(log_dir)
        self.log_path = self.log_dir / LOG_NAME
        self.video_dir = video_dir
        self.on_episode = on_episode
        self.replay = replay
        self.inspector = inspector
        self.shard = shard  # (i, n): play only the episodes of shard i of n (a worker process)
        self.registry = ToolRegistry()
        self.profile = get_suite(config.suite).profile(config.profile)  # checked before anything runs

    # --- resume -------------------------------------------------------------------------
    def finished(self) -> set[str]:
        """Episodes of this log dir that need no re-run; checks the configuration matches."""
        if not self.log_path.exists() or self.log_path.stat().st_size == 0:
            return set()
        header, episodes = read_log(self.log_path)
        before = (header.get("config") or {}).get("identity")
        if before is None:
            raise ConfigMismatch(f"{self.log_path} is not the log of an egoeval run (imported or from another tool); "
                                 f"use another --log-dir")
        if before != self.config.identity():
            changed = ", ".join(f"{k}: {before.get(k)!r} -> {v!r}" for k, v in self.config.identity().items()
                                if before.get(k) != v)
            raise ConfigMismatch(f"{self.log_path} holds a run with another configuration ({changed}); "
                                 f"use another --log-dir")
        return {ep.episode for ep in episodes if ep.finished and ep.end_reason != "infra_error"}

    def pending(self) -> list[tuple[Task, int]]:
        done = self.finished()
        todo = [(t, e) for e in range(1, self.config.epochs + 1) for t in self.tasks
                if episode_id(t.id, e) not in done]
        if self.shard is not None:
            i, n = self.shard
            todo = [(t, e) for t, e in todo if shard_of(episode_id(t.id, e), n) == i]
        return longest_first(todo)

    # --- the run ------------------------------------------------------------------------
    def header(self) -> dict:
        """The configuration recorded in the log header."""
        return {**self.config.to_dict(), "identity": self.config.identity(), **_provenance()}

    async def run(self) -> list[EpisodeOutcome]:
        work = self.pending()
        outcomes: list[EpisodeOutcome] = []
        with LogWriter(self.log_path, suite=self.config.suite, config=self.header(), fsync=False,
                       repair=self.shard is None) as writer:
            items: Iterator[tuple[Task, int]] = iter(work)

            async def worker() -> None:
                for task, epoch in items:  # one shared iterator: a bounded queue of work
                    outcome = await self.episode(writer, task, epoch)
                    outcomes.append(outcome)
                    if self.on_episode:
                        self.on_episode(outcome)

            await asyncio.gather(*(worker() for _ in range(max(1, min(self.config.max_concurrency, len(work))))))
        return outcomes

    async def episode(self, writer: LogWriter, task: Task, epoch: int) -> EpisodeOutcome:
        eid = episode_id(task.id, epoch)
        seed = episode_seed(self.config.seed, task.id, epoch)
        from egoeval.tasks.personas import pick

        rec = EpisodeRecorder(writer, eid, task, epoch, self.config.mode, seed, pick(self.config.persona, seed))
        state = _State()
        started = time.monotonic()
        try:
            reason = await asyncio.wait_for(self._play(rec, task, epoch, seed, state),
                                            self.config.limits.episode_timeout)
            error = None
        except asyncio.TimeoutError:
            limit = f"episode exceeded {self.config.limits.episode_timeout:g} s"
            if state.phase == "agent" and not state.provider_waiting():
                reason, error = "timeout", limit
            else:  # the simulated user, the observation or a provider's retry wait used the time up
                reason, error = "infra_error", f"{limit} while {state.phase_text()}"
        except asyncio.CancelledError:
            task_ = asyncio.current_task()
            if task_ is not None and task_.cancelling():
                raise  # the run itself is being cancelled
            reason, error = "agent_error", "the agent raised CancelledError"
        except AgentError as exc:
            reason, error = "agent_error", str(exc) or type(exc).__name__
        except InfraError as exc:
            reason, error = "infra_error", str(exc) or type(exc).__name__
        except Exception as exc:  # noqa: BLE001 - a harness bug ends this episode, not the run
            import traceback

            reason = "infra_error"
            error = f"harness error {type(exc).__name__}: {exc}\n{traceback.format_exc(limit=8)}"
        counters = {"rounds_count": state.turn + 1, "tool_calls_count": state.calls,
                    "input_tokens": state.usage.input_tokens, "output_tokens": state.usage.output_tokens,
                    "tokens_consumed": state.usage.input_tokens + state.usage.output_tokens,
                    "cost": round(state.usage.cost, 6), "user_input_tokens": state.user_usage.input_tokens,
                    "user_output_tokens": state.user_usage.output_tokens, "user_cost": round(state.user_usage.cost, 6),
                    "wall_s": round(time.monotonic() - started, 3)}
        rec.episode.counters = counters
        verdict = None
        if reason != "infra_error":
            verdict = self._score(rec.episode)
            rec.event("verdict", **verdict)
        rec.event("episode_end", reason=reason, error=error, counters=counters, time=round(time.time(), 3))
        writer.sync()
        return EpisodeOutcome(eid, task.id, epoch, reason, error, verdict)

    def _score(self, ep: Episode) -> dict:
        suite = suite_of(ep.task)  # each task is its suite's, scored under that suite's profile of the name
        scored = suite.score_episode(ep.task, ep.as_trajectory(), suite.profile(self.config.profile),
                                     self.workspace_dir(ep.episode))
        if suite.verdict_kind != "calls":
            return scored
        return scored.verdicts[0].to_dict() if scored.verdicts else {  # answers included, apart from joint
            "invalid": scored.invalid[0].reason if scored.invalid else "no verdict"}

    async def _play(self, rec: EpisodeRecorder, task: Task, epoch: int, seed: int, state: "_State") -> str:
        from egoeval.media.errors import MediaError
        from egoeval.videos import VideoMissing

        cfg, limits = self.config, self.config.limits
        user = self.make_user()
        agent = self.make_agent()
        ctx = EpisodeContext(task, epoch, seed, cfg.mode, profile=cfg.profile, max_user_turns=limits.max_user_turns,
                             persona=rec.persona,
                             replay=self.replay.get((task.id, epoch)) if self.replay is not None else None)
        state.agent = agent
        state.phase = "observation"
        try:
            obs = await asyncio.to_thread(observe, task, cfg.observation, self.video_dir)
        except (VideoMissing, MediaError, OSError) as exc:
            raise InfraError(f"video: {exc}") from exc
        rec.event("observation", **obs.log)
        suite = suite_of(task.id)
        env = suite.new_env(task)
        extra = self._toolsets(task, rec.eid)
        tools = self.registry.schemas(suite.tool_schemas(task), extra=extra)
        state.phase = "user"
        try:
            first = await user.start(ctx)
        except Exception as exc:  # noqa: BLE001 - a failing user is the harness's problem
            raise InfraError(f"user simulator: {exc}") from exc
        state.user_usage.add(first.usage)
        if first.scores is not None:
            rec.event("user_scores", scores=first.scores)
        ctx.steps = getattr(user, "steps", None)
        state.phase = "agent"
        await _call_agent(agent.start(ctx))
        prompt = (cfg.system_prompt or SYSTEM_PROMPT).format(role=SCENARIO_ROLES.get(task.scenario, "a helper"))
        speech = self._spoken(rec.eid, agent)
        state.phase = "speech"
        heard, audio = await _spoken_user(speech, first.content, 0)
        messages: list[dict] = [{"role": "system", "content": prompt},
                                {"role": "user", "content": [*obs.parts, {"type": "text", "text": first.content}, *heard]
                                 if obs.parts or heard else first.content}]
        rec.event("message", role="user", turn=0, content=first.content, **audio)
        if first.stop:
            return "user_stop"
        while True:
            state.phase = "agent"
            step = _checked(await _call_agent(agent.act(messages, tools)))
            state.usage.add(step.usage)
            if step.tool_calls:
                await self._run_calls(rec, env, extra, step, messages, state)
                if state.calls > limits.max_tool_calls:
                    return "tool_cap"
                if _over_budget(state, limits):
                    return "token_budget"
                continue
            text, audio = step.message or "", {}
            if step.audio is not None:  # what the user hears is the transcript of the agent's speech
                state.phase = "speech"
                spoken = await (speech or self._speech_channel(rec.eid)).hear(step.audio, state.turn, step.message,
                                                                            step.audio_transcript)
                text, audio = spoken.text, {"audio": spoken.log}
            rec.event("message", role="agent", turn=state.turn, content=text, **audio, **_step_fields(step))
            messages.append({"role": "assistant", "content": text})
            if _over_budget(state, limits):
                return "token_budget"
            if state.turn + 1 >= limits.max_user_turns:
                return "turn_limit"
            state.phase = "user"
            try:
                reply = await user.respond(text)
            except Exception as exc:  # noqa: BLE001
                raise InfraError(f"user simulator: {exc}") from exc
            state.user_usage.add(reply.usage)
            if reply.scores is not None:
                rec.event("user_scores", scores=reply.scores)
            if reply.stop:
                rec.event("message", role="user", turn=state.turn + 1, content=reply.content)
                return "user_stop"
            state.turn += 1
            state.phase = "speech"
            heard, audio = await _spoken_user(speech, reply.content, state.turn)
            rec.event("message", role="user", turn=state.turn, content=reply.content, **audio)
            messages.append({"role": "user", "content": [{"type": "text", "text": reply.content}, *heard]
                             if heard else reply.content})

    async def _run_calls(self, rec: EpisodeRecorder, env: Any, extra: list, step: AgentTurn,
                         messages: list[dict], state: "_State") -> None:
        state.phase = "tools"
        results = []
        for n, call in enumerate(step.tool_calls):
            call.id = call.id or f"call_{state.turn}_{state.calls + n}"
            logged = call.as_logged()
            if call.name not in env.members and any(call.name in t.members for t in extra):
                # media and office tools decode, render and write files: off the event loop
                results.append(await asyncio.to_thread(self.registry.execute, env, logged, extra))
            else:
                results.append(self.registry.execute(env, logged, extra))
        state.calls += len(step.tool_calls)
        rec.event("tool_calls", turn=state.turn, calls=[c.as_logged() for c in step.tool_calls],
                  results=[r.to_log() for r in results], errors=[r.error for r in results], **_step_fields(step))
        messages.append(_call_message(step.tool_calls))
        images: list[dict] = []
        for call, result in zip(step.tool_calls, results):
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result.content})
            if result.images:
                images += result.content_parts()[1:]
            images += await self._inspect(rec, extra, result.artifacts)
        if images:  # tool messages carry text only: the images follow as a user message
            messages.append({"role": "user", "content": [{"type": "text", "text": "Images returned by the tools:"},
                                                         *images]})

    async def _inspect(self, rec: EpisodeRecorder, extra: list, artifacts: list[str]) -> list[dict]:
        """Render what a call wrote and show it to the agent (logged as ``inspection``)."""
        workspace = next((t.workspace for t in extra if t.workspace is not None), None)
        if self.inspector is None or workspace is None or not artifacts:
            return []
        parts: list[dict] = []
        for name in artifacts:
            try:
                shown = await asyncio.to_thread(self.inspector, workspace.path(name, must_exist=True))
                error = None
            except Exception as exc:  # noqa: BLE001 - a file that cannot be rendered is a result too
                shown, error = [], f"{type(exc).__name__}: {exc}"
            rec.event("inspection", file=name, images=[im.to_log() for im in shown], error=error)
            parts.append({"type": "text", "text": f"Rendered {name}:" if not error else
                          f"{name} could not be rendered: {error}"})
            for im in shown:
                parts += [{"type": "text", "text": im.caption}, {"type": "image_url", "image_url": {"url": im.data_url()}}]
        return parts

    def _speech_channel(self, eid: str) -> Any:
        from egoeval.spoken import SpokenChannel

        return SpokenChannel(episode_audio(self.log_dir, eid), self.log_dir, self.config.spoken_user or "espeak-ng",
                             self.config.spoken_voice)

    def _spoken(self, eid: str, agent: Any) -> Any:
        """The episode's speech channel when the user speaks and the agent can hear, else None."""
        if not self.config.spoken_user or not getattr(agent, "accepts_audio", False):
            return None
        return self._speech_channel(eid)

    def workspace_dir(self, eid: str) -> Path:
        """Where an episode's files live (``egoeval score`` finds them there again)."""
        return episode_workspace(self.log_dir, eid)

    def _toolsets(self, task: Task, eid: str) -> list:
        """The episode's media and office tools, sharing one fresh workspace. Artifact
        tasks always get both; other tasks as configured (media tools need the video)."""
        from egoeval.tools.media_tools import MediaTools
        from egoeval.tools.office_tools import OfficeTools
        from egoeval.tools.workspace import Workspace
        from egoeval.videos import resolve_video

        files = suite_of(task.id).makes_files
        media = (self.config.media_tools or files) and not self.config.observation.no_video
        if not (media or files or self.config.office_tools):
            return []
        folder = self.workspace_dir(eid)
        shutil.rmtree(folder, ignore_errors=True)  # a redone episode starts from an empty workspace
        workspace = Workspace(folder)
        out: list = []
        if media or files:
            out.append(MediaTools({task.video: resolve_video(task, self.video_dir)}, workspace=workspace,
                                  max_side=self.config.observation.max_side))
        if files or self.config.office_tools:
            from egoeval.renderers.render import shared_service

            out.append(OfficeTools(workspace, service=shared_service()))
        return out


@dataclass
class _State:
    turn: int = 0
    calls: int = 0
    usage: Usage = field(default_factory=Usage)  # the agent's
    user_usage: Usage = field(default_factory=Usage)  # the simulated user's
    phase: str = "start"  # what the episode is doing: observation, user, agent, tools, speech
    agent: Any = None

    def provider_waiting(self) -> bool:
        """Whether the agent is waiting out a provider's retry (time that is not the agent's)."""
        return bool(getattr(self.agent, "waiting_on_provider", False))

    def phase_text(self) -> str:
        return {"observation": "preparing the video", "user": "the simulated user was answering",
                "tools": "tools were running", "agent": "the agent's provider was being retried",
                "speech": "speech was being synthesised or transcribed"}.get(
            self.phase, self.phase)


def _over_budget(state: _State, limits: Limits) -> bool:
    return limits.token_budget is not None and \
        state.usage.input_tokens + state.usage.output_tokens > limits.token_budget


async def _spoken_user(speech: Any, text: str, turn: int) -> tuple[list[dict], dict]:
    """(audio parts for the agent, the message event's ``audio`` field) of a user message."""
    if speech is None or not text:
        return [], {}
    part, log = await speech.user_part(text, turn)
    return ([part] if part else []), {"audio": log}


def _checked(step: Any) -> AgentTurn:
    """An agent's answer, or AgentError saying why it is not one (never a harness crash)."""
    if not isinstance(step, AgentTurn):
        raise AgentError(f"the agent returned {type(step).__name__}, not an AgentTurn")
    if step.message is not None and not isinstance(step.message, str):
        raise AgentError(f"the agent's message is a {type(step.message).__name__}, not text")
    if step.audio is not None and not isinstance(step.audio, bytes):
        raise AgentError(f"the agent's audio is a {type(step.audio).__name__}, not bytes")
    for call in step.tool_calls:
        if not isinstance(call, ToolCall) or not isinstance(call.name, str):
            raise AgentError(f"the agent returned a malformed tool call: {call!r}"[:300])
        try:
            json.dumps(call.arguments)
        except (TypeError, ValueError) as exc:
            raise AgentError(f"the arguments of {call.name!r} are not JSON: {exc}") from exc
    if not isinstance(step.usage, Usage):
        step.usage = Usage()
    return step


async def _call_agent(awaitable):
    """Await an agent coroutine; a bug inside an agent is the agent's error, not a crash."""
    try:
        return await awaitable
    except (AgentError, InfraError, asyncio.CancelledError):
        raise
    except Exception as exc:  # noqa: BLE001
        raise AgentError(f"{type(exc).__name__}: {exc}") from exc


def _provenance() -> dict:
    """egoeval version and git commit, for the log header."""
    import subprocess

    from egoeval import __version__

    commit = None
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent, capture_output=True,
                             text=True, timeout=5)
        commit = out.stdout.strip() or None if out.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        pass
    return {"egoeval_version": __version__, "git_commit": commit}
