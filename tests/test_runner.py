"""The closed loop with offline agents: end reasons, the log, verdicts, resume, epochs."""

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from egoeval.agents import AgentTurn, HumanAgent, InfraError, NullAgent, OracleAgent, ToolCall, Usage
from egoeval.cli import main
from egoeval.observation import ObservationConfig
from egoeval.runner import ConfigMismatch, Limits, RunConfig, Runner, episode_id
from egoeval.scoring import score_paths
from egoeval.suites import load_tasks
from egoeval.trajectory import iter_events, read_log
from egoeval.users import ScriptedUser

NO_VIDEO = ObservationConfig(no_video=True)


def run(tasks, agent=OracleAgent, log_dir=None, mode="easy", **config):
    cfg = RunConfig(suite=tasks[0].suite, mode=mode, **config)
    runner = Runner(cfg, tasks, agent, lambda: ScriptedUser(mode), log_dir)
    return runner, asyncio.run(runner.run())


def verdicts(log: Path) -> dict[str, dict]:
    return {ev["episode"]: ev for ev in iter_events(log) if ev.get("event") == "verdict"}


def rescored(log: Path, profile="egobench") -> dict[str, bool]:
    report = score_paths([str(log)], profile)
    return {f"{v.scenario}/{v.task_id}": v.joint_success for v in report.verdicts}


# --- end to end on the demo suite --------------------------------------------------------

def test_egoeval_run_with_no_arguments_plays_the_oracle_on_the_demo_suite(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "12 episodes" in out and "joint 12" in out
    log = next(tmp_path.glob("logs/*/run.jsonl"))
    assert f"log: {log.relative_to(tmp_path)}" in out
    header, episodes = read_log(log)
    assert header["config"]["agent"] == "oracle" and header["config"]["user"] == "scripted"
    assert header["config"]["egoeval_version"] and "git_commit" in header["config"]
    assert len(episodes) == 12 and all(ep.finished and ep.end_reason == "user_stop" for ep in episodes)
    # frames the agent saw are in the log, with their manifest
    obs = [ev for ev in iter_events(log) if ev["event"] == "observation"]
    assert len(obs) == 12 and all(len(o["manifest"]["frame_sha256"]) == 8 for o in obs)
    # the verdicts written during the run are what `egoeval score` recomputes
    logged = verdicts(log)
    assert all(v["joint_success"] for v in logged.values())
    again = score_paths([str(log)], "egobench").verdicts
    canon = lambda d: json.dumps({k: v for k, v in d.items() if k not in ("event", "episode", "answers")},  # noqa: E731
                                 sort_keys=True)  # answers: a separate component of the run's verdicts
    assert sorted(canon(v.to_dict()) for v in again) == sorted(canon(v) for v in logged.values())
    assert main(["score", str(log.parent), "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["overall"]["joint_success"] == 12 and scored["overall"]["tasks"] == 12


def test_null_agent_fails_every_demo_task(tmp_path):
    _, outcomes = run(load_tasks("demo"), NullAgent, tmp_path, observation=NO_VIDEO)
    assert len(outcomes) == 12 and not any(o.verdict["joint_success"] for o in outcomes)
    assert set(rescored(tmp_path / "run.jsonl").values()) == {False}


# --- the whole EgoBench suite ------------------------------------------------------------

def test_oracle_over_all_egobench_tasks_matches_validate_and_exports_identically(tmp_path, capsys):
    from egoeval.validate import validate

    tasks = load_tasks("egobench")
    assert len(tasks) == 1044
    _, outcomes = run(tasks, OracleAgent, tmp_path / "run", mode="static", observation=NO_VIDEO,
                      max_concurrency=16)
    log = tmp_path / "run" / "run.jsonl"
    obs = [ev for ev in iter_events(log) if ev["event"] == "observation"]
    assert {o["kind"] for o in obs} == {"none"} and "--no-video" in obs[0]["reason"]
    report = validate("egobench")
    failed_in_validate = {f["task"] for f in report.oracle_failures}
    ran = {o.task: o.verdict["joint_success"] for o in outcomes}
    assert {t for t, ok in ran.items() if not ok} == failed_in_validate
    assert sum(ran.values()) == report.oracle_joint_success
    # exported EgoBench-format files score exactly as the log does
    assert main(["export", str(tmp_path / "run"), "--out", str(tmp_path / "exported")]) == 0
    capsys.readouterr()
    files = sorted((tmp_path / "exported").glob("*_static.json"))
    assert len(files) == 21
    exported = score_paths([str(f) for f in files], "egobench")
    logged = score_paths([str(log)], "egobench")
    key = lambda v: (v.scenario, v.task_id)  # noqa: E731
    assert sorted((key(v), v.to_dict()) for v in exported.verdicts) == \
        sorted((key(v), v.to_dict()) for v in logged.verdicts)


# --- limits and failures -----------------------------------------------------------------

class Scripted:
    """An agent that plays a fixed list of turns (callables may raise or sleep)."""

    name = "scripted-agent"

    def __init__(self, turns):
        self.turns = list(turns)
        self.seen: list[list[dict]] = []

    async def start(self, ctx):
        pass

    async def act(self, messages, tools):
        self.seen.append(list(messages))
        step = self.turns.pop(0) if self.turns else AgentTurn(message="ok")
        if callable(step):
            step = await step()
        return step


def one_task():
    return load_tasks("demo", pattern="demo/retail/1")


def play(turns, tmp_path, **config):
    agent = Scripted(turns)
    config.setdefault("observation", NO_VIDEO)
    runner, outcomes = run(one_task(), lambda: agent, tmp_path, **config)
    return agent, outcomes[0], runner


def test_tool_cap_ends_the_episode_after_the_batch_that_crosses_it(tmp_path):
    calls = [ToolCall("get_price", {"product_name": "Mouton Cadet"}) for _ in range(3)]
    _, outcome, runner = play([AgentTurn(tool_calls=list(calls)) for _ in range(10)], tmp_path,
                              limits=Limits(max_tool_calls=4))
    assert outcome.reason == "tool_cap" and outcome.verdict is not None
    ev = [e for e in iter_events(runner.log_path) if e["event"] == "tool_calls"]
    assert len(ev) == 2 and sum(len(e["calls"]) for e in ev) == 6


def test_timeout_agent_error_and_infra_error(tmp_path):
    async def slow():
        await asyncio.sleep(5)

    _, timed_out, _ = play([slow], tmp_path / "a", limits=Limits(episode_timeout=0.2))
    assert timed_out.reason == "timeout" and timed_out.verdict is not None

    async def broken():
        raise ValueError("model returned garbage")

    _, bug, _ = play([broken], tmp_path / "b")
    assert bug.reason == "agent_error" and "ValueError: model returned garbage" in bug.error
    assert bug.verdict["joint_success"] is False

    async def provider_down():
        raise InfraError("HTTP 503 after 5 retries")

    _, infra, runner = play([provider_down], tmp_path / "c")
    assert infra.reason == "infra_error" and infra.verdict is None
    end = [e for e in iter_events(runner.log_path) if e["event"] == "episode_end"][0]
    assert end["reason"] == "infra_error" and "503" in end["error"]
    assert score_paths([str(runner.log_path)], "egobench").verdicts == []  # counted apart


def test_token_budget_and_turn_limit(tmp_path):
    _, spent, _ = play([AgentTurn(message="hi", usage=Usage(600, 500))], tmp_path / "a",
                       limits=Limits(token_budget=1000))
    assert spent.reason == "token_budget"
    chatty = Scripted([AgentTurn(message="Could you tell me more?")] * 20)
    runner = Runner(RunConfig(observation=NO_VIDEO, limits=Limits(max_user_turns=2)), one_task(),
                    lambda: chatty, lambda: ScriptedUser("easy"), tmp_path / "b")
    [outcome] = asyncio.run(runner.run())
    assert outcome.reason in ("turn_limit", "user_stop")
    _, episodes = read_log(runner.log_path)
    assert max(d["turn"] for d in episodes[0].dialogue) <= 2


def test_bad_tool_calls_are_results_and_the_episode_goes_on(tmp_path):
    turns = [AgentTurn(tool_calls=[ToolCall("get_price", "{not json"), ToolCall("teleport", {}),
                                   ToolCall("add_to_cart", {"user_id": "demo_shopper_01"})]),
             AgentTurn(message="Sorry, let me try again.")]
    agent, outcome, runner = play(turns, tmp_path)
    assert outcome.reason == "user_stop"
    ev = [e for e in iter_events(runner.log_path) if e["event"] == "tool_calls"][0]
    assert ev["errors"] == ["tool_error", "unknown_tool", "tool_error"]
    assert ev["calls"][0] == {"tool_name": "get_price", "parameters": "{not json"}
    # the agent saw the three results as tool messages with matching ids
    after = agent.seen[1]
    tool_msgs = [m for m in after if m["role"] == "tool"]
    assistant = [m for m in after if m["role"] == "assistant"][0]
    assert [m["tool_call_id"] for m in tool_msgs] == [c["id"] for c in assistant["tool_calls"]]
    assert "not found" in tool_msgs[1]["content"]


def test_the_agent_sees_frames_and_media_tool_images(tmp_path):
    turns = [AgentTurn(tool_calls=[ToolCall("get_frame_at", {"second": 1.0})]), AgentTurn(message="I see it.")]
    agent, outcome, runner = play(turns, tmp_path, observation=ObservationConfig(frames=4), media_tools=True)
    assert outcome.reason == "user_stop"
    first = agent.seen[0][1]["content"]
    assert sum(p["type"] == "image_url" for p in first) == 4 and first[-1]["type"] == "text"
    images = agent.seen[1][-1]
    assert images["role"] == "user" and images["content"][-1]["image_url"]["url"].startswith("data:image/jpeg")
    ev = [e for e in iter_events(runner.log_path) if e["event"] == "tool_calls"][0]
    assert ev["results"][0]["frame_manifest"]["indices"] and ev["errors"] == [None]


# --- resume, epochs, replay ----------------------------------------------------------------

def test_epochs_get_distinct_seeds_and_resume_skips_finished_episodes(tmp_path):
    tasks = load_tasks("demo", scenario="retail")
    runner, outcomes = run(tasks, OracleAgent, tmp_path, observation=NO_VIDEO, epochs=2, mode="hard")
    assert len(outcomes) == 6
    starts = [e for e in iter_events(runner.log_path) if e["event"] == "episode_start"]
    seeds = {(e["task"], e["epoch"]): e["seed"] for e in starts}
    assert all(seeds[(t.id, 1)] != seeds[(t.id, 2)] for t in tasks)
    again, more = run(tasks, OracleAgent, tmp_path, observation=NO_VIDEO, epochs=3, mode="hard")
    assert {o.episode for o in more} == {episode_id(t.id, 3) for t in tasks}
    with pytest.raises(ConfigMismatch, match="agent"):
        Runner(RunConfig(agent="null", mode="hard", observation=NO_VIDEO), tasks, NullAgent,
               ScriptedUser, tmp_path).pending()


def test_a_torn_log_is_repaired_and_unfinished_episodes_are_redone(tmp_path):
    tasks = load_tasks("demo")
    runner, _ = run(tasks, OracleAgent, tmp_path / "full", observation=NO_VIDEO)
    reference = {k: v["joint_success"] for k, v in verdicts(runner.log_path).items()}
    # keep the first 40 lines (some episodes finished, one cut mid-way) and tear the last line
    lines = runner.log_path.read_text().splitlines(keepends=True)
    partial = tmp_path / "partial"
    partial.mkdir()
    (partial / "run.jsonl").write_text("".join(lines[:40]) + lines[40][: len(lines[40]) // 2])
    _, before = read_log(partial / "run.jsonl")
    finished_before = {ep.episode for ep in before if ep.finished}
    resumed, outcomes = run(tasks, OracleAgent, partial, observation=NO_VIDEO)
    assert {o.episode for o in outcomes} == {episode_id(t.id, 1) for t in tasks} - finished_before
    ends = Counter(e["episode"] for e in iter_events(resumed.log_path) if e["event"] == "episode_end")
    assert set(ends.values()) == {1} and len(ends) == 12
    assert {k: v["joint_success"] for k, v in verdicts(resumed.log_path).items()} == reference


def test_sigkill_mid_run_then_resume(tmp_path):
    log_dir = tmp_path / "killed"
    cmd = [sys.executable, "-m", "egoeval", "run", "--suite", "egobench", "--tasks", "order*,restaurant*",
           "--mode", "static", "--no-video", "--quiet", "--log-dir", str(log_dir), "--max-concurrency", "4"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    log = log_dir / "run.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if log.exists() and log.read_bytes().count(b'"episode_end"') >= 60:
            break
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL, "the run ended before it could be killed"
    _, first = read_log(log)
    done_before = sum(ep.finished for ep in first)
    total = len(load_tasks("egobench", pattern="order*,restaurant*"))
    assert 0 < done_before < total
    resumed = subprocess.run(cmd, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    events = list(iter_events(log))
    ends = Counter(e["episode"] for e in events if e["event"] == "episode_end")
    assert len(ends) == total and set(ends.values()) == {1}
    assert all(v["joint_success"] for v in verdicts(log).values()) and len(verdicts(log)) == total


def test_replay_agent_reproduces_a_recorded_run(tmp_path, capsys):
    tasks = load_tasks("demo")
    recorded, _ = run(tasks, OracleAgent, tmp_path / "rec", observation=NO_VIDEO)
    assert main(["run", "--agent", f"replay:{tmp_path / 'rec'}", "--no-video", "--quiet",
                 "--log-dir", str(tmp_path / "rep")]) == 0
    capsys.readouterr()
    strip = lambda evs: [(e["event"], e.get("calls"), e.get("content")) for e in evs  # noqa: E731
                         if e["event"] in ("tool_calls", "message")]
    rec = {e: [] for e in verdicts(recorded.log_path)}
    rep = {e: [] for e in rec}
    for store, path in ((rec, recorded.log_path), (rep, tmp_path / "rep" / "run.jsonl")):
        for ev in iter_events(path):
            if ev.get("episode") in store:
                store[ev["episode"]].append(ev)
    assert all(strip(rec[e]) == strip(rep[e]) for e in rec)


def test_human_agent_reads_calls_and_replies_from_the_terminal(tmp_path):
    typed = io.StringIO('call get_price {"product_name": "Mouton Cadet"}\n\nIt costs 208.\nDone.\n')
    shown = io.StringIO()
    runner = Runner(RunConfig(observation=NO_VIDEO), one_task(), lambda: HumanAgent(typed, shown),
                    lambda: ScriptedUser("easy"), tmp_path)
    [outcome] = asyncio.run(runner.run())
    assert outcome.reason == "user_stop"
    ev = [e for e in iter_events(runner.log_path) if e["event"] in ("tool_calls", "message")]
    assert ev[1]["calls"] == [{"tool_name": "get_price", "parameters": {"product_name": "Mouton Cadet"}}]
    assert ev[2]["content"] == "It costs 208." and "[user] My user ID is demo_shopper_01" in shown.getvalue()


# --- videos --------------------------------------------------------------------------------

def test_videos_are_found_by_stem_ignoring_case_and_missing_ones_are_infra_errors(tmp_path, capsys):
    from clips import make_clip

    from egoeval.videos import find_video

    folder = tmp_path / "videos" / "nested"
    folder.mkdir(parents=True)
    make_clip(folder / "RETAIL1.MOV", frames=30)
    assert find_video("retail1.mp4", tmp_path / "videos") == folder / "RETAIL1.MOV"
    tasks = load_tasks("egobench", pattern="retail1/1,kitchen1/1")
    runner = Runner(RunConfig(suite="egobench", observation=ObservationConfig(frames=2)), tasks, OracleAgent,
                    lambda: ScriptedUser("easy"), tmp_path / "log", video_dir=tmp_path / "videos")
    outcomes = {o.task: o for o in asyncio.run(runner.run())}
    assert outcomes["egobench/retail1/1"].verdict["joint_success"] is True
    missing = outcomes["egobench/kitchen1/1"]
    assert missing.reason == "infra_error" and "is not in" in missing.error
    assert main(["tasks", "check-videos", "--video-dir", str(tmp_path / "videos")]) == 1
    out = capsys.readouterr().out
    assert "missing retail1.mp4" not in out and "missing" in out and "videos found" in out


def test_files_a_tool_writes_are_rendered_for_the_agent_to_inspect(tmp_path):
    from egoeval.tools.registry import ToolImage

    def inspector(path):
        if path.name == "broken.mp4":
            raise ValueError("the converter crashed")
        return [ToolImage(b"\xff\xd8fake-jpeg", "image/jpeg", f"{path.name}, page 1")]

    turns = [AgentTurn(tool_calls=[ToolCall("cut_clip", {"start_second": 0.5, "end_second": 1.5,
                                                         "file_name": "clip.mp4"}),
                                   ToolCall("cut_clip", {"start_second": 0, "end_second": 1,
                                                         "file_name": "broken.mp4"})]),
             AgentTurn(message="The clip looks right.")]
    agent = Scripted(turns)
    cfg = RunConfig(observation=ObservationConfig(frames=2), media_tools=True)
    runner = Runner(cfg, one_task(), lambda: agent, lambda: ScriptedUser("easy"), tmp_path, inspector=inspector)
    [outcome] = asyncio.run(runner.run())
    assert outcome.reason == "user_stop"
    seen = agent.seen[1][-1]["content"]
    texts = [p["text"] for p in seen if p["type"] == "text"]
    assert "Rendered clip.mp4:" in texts and "clip.mp4, page 1" in texts
    assert any("broken.mp4 could not be rendered: ValueError: the converter crashed" in t for t in texts)
    inspections = [e for e in iter_events(runner.log_path) if e["event"] == "inspection"]
    assert [i["file"] for i in inspections] == ["clip.mp4", "broken.mp4"] and inspections[0]["images"][0]["bytes"] == 11
    calls = [e for e in iter_events(runner.log_path) if e["event"] == "tool_calls"][0]
    assert calls["results"][0]["artifacts"] == ["clip.mp4"]


def test_settings_from_the_environment_and_a_dotenv_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("# run settings\nEGOEVAL_AGENT=null\nexport EGOEVAL_TASKS='demo/retail/*'\n")
    monkeypatch.setenv("EGOEVAL_LOG_DIR", str(tmp_path / "from-env"))
    try:
        assert main(["run", "--no-video", "--quiet"]) == 0
    finally:
        os.environ.pop("EGOEVAL_AGENT", None)
        os.environ.pop("EGOEVAL_TASKS", None)
    assert "3 episodes" in capsys.readouterr().out
    header, episodes = read_log(tmp_path / "from-env" / "run.jsonl")
    assert header["config"]["agent"] == "null" and len(episodes) == 3


def test_import_egobench_results_then_score_the_log(shared, tmp_path, capsys):
    files = [str(p) for p in sorted((shared / "trajectories").glob("*_easy.json"))]
    assert main(["import", *files, "--out", str(tmp_path / "imported.jsonl")]) == 0
    assert "309 episodes" in capsys.readouterr().out
    direct = score_paths(files, "egobench")
    via_log = score_paths([str(tmp_path / "imported.jsonl")], "egobench")
    assert direct.overall["joint_success"] == via_log.overall["joint_success"]
    assert sorted(v.to_dict()["joint_success"] for v in direct.verdicts) == \
        sorted(v.to_dict()["joint_success"] for v in via_log.verdicts)


def test_worker_processes_share_one_log_exactly_once(tmp_path, capsys):
    log_dir = tmp_path / "workers"
    args = ["run", "--suite", "egobench", "--tasks", "order*", "--mode", "static", "--no-video", "--quiet",
            "--workers", "3", "--log-dir", str(log_dir)]
    assert main(args) == 0
    out = capsys.readouterr().out
    total = len(load_tasks("egobench", pattern="order*"))
    assert f"{total} episodes" in out and f"joint {total}" in out
    events = list(iter_events(log_dir / "run.jsonl"))
    assert sum(e["event"] == "header" for e in events) == 1
    ends = Counter(e["episode"] for e in events if e["event"] == "episode_end")
    assert len(ends) == total and set(ends.values()) == {1}
    assert main(args) == 0 and "0 episodes" in capsys.readouterr().out  # resumed: nothing left


# --- what an independent review found ------------------------------------------------------

def test_misbehaving_agents_are_agent_errors_and_the_run_goes_on(tmp_path):
    async def cancels():
        raise asyncio.CancelledError()

    async def returns_none():
        return None

    bad_args = AgentTurn(tool_calls=[ToolCall("get_price", {"product_name": {"a", "set"}})])
    for n, turn in enumerate([cancels, returns_none, bad_args, AgentTurn(message=42)]):
        _, outcome, _ = play([turn], tmp_path / str(n))
        assert outcome.reason == "agent_error" and outcome.verdict is not None, (n, outcome)


def test_a_user_who_stops_at_once_ends_the_episode(tmp_path):
    from egoeval.users import UserReply

    class Leaves:
        name, steps = "leaves", None

        async def start(self, ctx):
            return UserReply("STOP", stop=True)

        async def respond(self, message):
            raise AssertionError("never asked")

    agent = Scripted([])
    runner = Runner(RunConfig(observation=NO_VIDEO), one_task(), lambda: agent, Leaves, tmp_path)
    [outcome] = asyncio.run(runner.run())
    assert outcome.reason == "user_stop" and agent.seen == []


def test_scripted_user_answers_a_repeated_id_question_once_per_step(tmp_path):
    asks = [AgentTurn(message="Could you confirm your user ID?")] * 12
    _, outcome, runner = play(asks, tmp_path)
    assert outcome.reason == "user_stop"
    said = [e["content"] for e in iter_events(runner.log_path) if e["event"] == "message" and e["role"] == "user"]
    assert said.count("My user ID is demo_shopper_01.") == 2 and said[-1] == "STOP"  # once for each of 2 steps


def test_a_second_run_on_the_same_log_dir_is_refused(tmp_path, capsys):
    from egoeval.cli_run import _lock

    held = _lock(tmp_path)
    try:
        assert main(["run", "--no-video", "--quiet", "--log-dir", str(tmp_path)]) == 2
        assert "another egoeval run is using" in capsys.readouterr().err
    finally:
        held.close()


def test_an_event_after_a_torn_fragment_is_kept(tmp_path):
    from egoeval.trajectory import LogWriter

    log = tmp_path / "run.jsonl"
    with LogWriter(log, suite="demo", fsync=False) as w:
        w.write({"event": "episode_start", "episode": "a", "task": "demo/retail/1"})
    with open(log, "a") as fh:  # worker 1 killed mid-write; worker 2 appends after its fragment
        fh.write('{"event": "tool_calls", "episode": "b", "calls": [{"tool_na')
        fh.write('{"event": "episode_end", "episode": "a", "reason": "user_stop", "counters": {}}\n')
        fh.write('{"event": "message", "episode": "a", "role": "user", "turn": 1, "content": "x"}\n')
    kinds = [e["event"] for e in iter_events(log)]
    assert kinds == ["header", "episode_start", "episode_end", "message"]
