"""``egoeval run`` (play episodes), ``egoeval export`` / ``egoeval import`` (EgoBench
results format) and ``egoeval tasks check-videos``. Documents are in :mod:`egoeval.cli_docs`,
reports and the viewer in :mod:`egoeval.cli_report`.

Every option of ``run`` can also come from an ``EGOEVAL_<OPTION>`` environment variable
(``EGOEVAL_AGENT``, ``EGOEVAL_VIDEO_DIR``, ``EGOEVAL_MAX_CONCURRENCY`` ...) and from a
``.env`` file in the working directory; the command line wins, then the environment,
then ``.env``. With no arguments, ``egoeval run`` plays the oracle on the demo suite with
the scripted user, offline, and prints the score table and the log path.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

EXIT_OK = 0


def load_dotenv(path: str | Path = ".env") -> None:
    """Put ``KEY=VALUE`` lines of a ``.env`` file into the environment (never overriding)."""
    p = Path(path)
    if not p.is_file():
        return
    for line in p.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        os.environ.setdefault(key.strip(), value.strip().strip("'\""))


def _env(name: str, default=None):
    return os.environ.get(f"EGOEVAL_{name.upper()}", default)


def _positive(kind):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text!r}")
        return value
    return parse


def add_run_parsers(sub, parser_class) -> None:
    load_dotenv()
    r = sub.add_parser("run", help="play a suite's tasks with an agent and a simulated user, log and score them")
    r.add_argument("--suite", default=_env("suite", "demo"), help="a suite name: demo (default), egobench, egobench2, artifacts, or an installed one")
    r.add_argument("--tasks", default=_env("tasks"), metavar="GLOB",
                   help="task ids to run, glob(s) separated by commas, e.g. 'egobench/retail1/*'")
    r.add_argument("--agent", default=_env("agent", "oracle"),
                   help="oracle (default), null, human, replay:LOG, litellm:PROVIDER/MODEL")
    r.add_argument("--agent-api-base", default=_env("agent_api_base"), metavar="URL")
    r.add_argument("--agent-protocol", default=_env("agent_protocol"), choices=("native", "json"),
                   help="tool calls as native function calls (default) or EgoBench's JSON in text")
    r.add_argument("--user", default=_env("user", "scripted"), help="scripted (default) or litellm:PROVIDER/MODEL")
    r.add_argument("--user-api-base", default=_env("user_api_base"), metavar="URL")
    r.add_argument("--model-config", default=_env("model_config"), metavar="YAML",
                   help="model settings: 'defaults:' and per-model 'models:' (temperature, timeout, api_base, ...)")
    r.add_argument("--no-model-cache", action="store_true", help="always call the model (default: cache replies)")
    r.add_argument("--mode", default=_env("mode", "easy"), choices=("easy", "hard", "static"))
    r.add_argument("--persona", default=_env("persona"), metavar="NAME",
                   help="the LLM user's persona (tasks/personas: ECom-Bench and VitaBench types) or 'random'")
    r.add_argument("--spoken-user", nargs="?", const="espeak-ng", default=_env("spoken_user"), metavar="TTS",
                   help="the user's messages also as speech (espeak-ng, offline, default; piper; edge-tts, online) "
                        "to agents that take audio")
    r.add_argument("--spoken-voice", default=_env("spoken_voice"), metavar="VOICE", help="the text-to-speech voice")
    r.add_argument("--agent-audio-input", action="store_true", default=None,
                   help="the LiteLLM agent's model takes audio input (a spoken user's audio is sent to it)")
    look = r.add_mutually_exclusive_group()
    look.add_argument("--frames", type=_positive(int), metavar="N", help="N uniform frames (default 8)")
    look.add_argument("--fps", type=_positive(float), metavar="R", help="frames at R per second")
    look.add_argument("--keyframes", type=_positive(int), metavar="N", help="the N sharpest, distinct frames")
    look.add_argument("--native-video", action="store_true", help="send the video file (providers that take video)")
    look.add_argument("--no-video", action="store_true",
                      help="run without videos (agents that do not look, e.g. the oracle); marked in the log")
    r.add_argument("--contact-sheet", action="store_true", help="send the frames as one contact-sheet image")
    r.add_argument("--max-side", type=_positive(int), default=int(_env("max_side", 448)), metavar="PX")
    r.add_argument("--media-tools", action="store_true", help="give the agent the media tools (frames, audio, ...)")
    r.add_argument("--office-tools", action="store_true",
                   help="give the agent the office tools (slides, documents, workbooks; always on for artifacts)")
    r.add_argument("--epochs", type=_positive(int), default=int(_env("epochs", 1)), metavar="K")
    r.add_argument("--seed", type=int, default=int(_env("seed", 0)))
    r.add_argument("--max-concurrency", type=_positive(int), default=int(_env("max_concurrency", 8)), metavar="N")
    r.add_argument("--workers", type=_positive(int), default=int(_env("workers", 1)), metavar="W",
                   help="worker processes sharing the episodes (and --max-concurrency); for many fast model "
                        "calls, where one process's CPU is the limit")
    r.add_argument("--shard", default=None, help=argparse.SUPPRESS)  # I/W: a worker's share (internal)
    r.add_argument("--report-episodes", action="store_true", help=argparse.SUPPRESS)  # a JSON line per episode
    r.add_argument("--max-turns", type=_positive(int), default=int(_env("max_turns", 10)),
                   help="user turns per episode (default 10)")
    r.add_argument("--max-tool-calls", type=_positive(int), default=int(_env("max_tool_calls", 200)),
                   help="tool calls per episode (default 200)")
    r.add_argument("--episode-timeout", type=_positive(float), default=float(_env("episode_timeout", 600)),
                   metavar="S", help="wall-clock seconds per episode (default 600)")
    r.add_argument("--token-budget", type=_positive(int), metavar="N",
                   default=int(_env("token_budget")) if _env("token_budget") else None)
    r.add_argument("--profile", default=_env("profile"),
                   help="a scoring profile of the suite (default: the suite's own; egobench: egobench or strict)")
    r.add_argument("--log-dir", default=_env("log_dir"), metavar="DIR",
                   help="where the log goes; an existing one is resumed (default logs/<time>-<suite>-<agent>)")
    r.add_argument("--video-dir", default=_env("video_dir"), metavar="DIR",
                   help="folder with the EgoBench videos, e.g. a clone's scenarios/final/video/ (searched by name, "
                        "ignoring case and extension; default: EGOEVAL_VIDEO_DIR or EGOBENCH_VIDEO_DIR)")
    r.add_argument("--egobench-dir", metavar="DIR", help="a clone of the official EgoBench repository: read the "
                   "suite's tasks and seeds from it (default: EGOBENCH_DIR; egobench2 only)")
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.set_defaults(func=cmd_run)

    e = sub.add_parser("export", help="write a log as EgoBench results files (<file>_<mode>.json)")
    e.add_argument("log", help="run.jsonl or its log dir")
    e.add_argument("--out", required=True, metavar="DIR")
    e.set_defaults(func=cmd_export)

    i = sub.add_parser("import", help="turn EgoBench results files into an egoeval log")
    i.add_argument("files", nargs="+", metavar="FILE")
    i.add_argument("--out", required=True, metavar="LOG.jsonl")
    i.add_argument("--suite", default=None, help="the files' suite (default: the first whose format takes the name)")
    i.set_defaults(func=cmd_import)


def _config(args: argparse.Namespace):
    from egoeval.observation import ObservationConfig
    from egoeval.runner import Limits, RunConfig

    obs = ObservationConfig(frames=args.frames or (None if (args.fps or args.keyframes) else 8), fps=args.fps,
                            keyframes=args.keyframes, contact_sheet=args.contact_sheet,
                            native_video=args.native_video, no_video=args.no_video, max_side=args.max_side)
    from egoeval.players import load_model_config, settings_for

    models = load_model_config(args.model_config)
    cache = False if args.no_model_cache else None
    agent_settings = settings_for(args.agent.split(":", 1)[1], models, api_base=args.agent_api_base,
                                  protocol=args.agent_protocol, cache=cache, audio_input=args.agent_audio_input) \
        if args.agent.startswith("litellm:") else {}
    user_settings = settings_for(args.user.split(":", 1)[1], models, api_base=args.user_api_base, cache=cache) \
        if args.user.startswith("litellm:") else {}
    return RunConfig(suite=args.suite, tasks=args.tasks, agent=args.agent, user=args.user, mode=args.mode,
                     observation=obs, epochs=args.epochs, seed=args.seed, max_concurrency=args.max_concurrency,
                     limits=Limits(args.max_turns, args.max_tool_calls, args.episode_timeout, args.token_budget),
                     profile=args.profile, media_tools=args.media_tools, office_tools=args.office_tools,
                     persona=args.persona, spoken_user=args.spoken_user, spoken_voice=args.spoken_voice,
                     agent_settings=agent_settings,
                     user_settings=user_settings)


def _progress(total: int, quiet: bool):
    """(callback per finished episode, context manager) drawing a rich progress bar on stderr."""
    from contextlib import nullcontext

    if quiet or total == 0:
        return (lambda outcome: None), nullcontext()
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, \
        TimeRemainingColumn

    console = Console(stderr=True)
    progress = Progress(TextColumn("[bold]episodes"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[tally]}"),
                        TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(), console=console,
                        disable=not console.is_terminal)
    bar = progress.add_task("run", total=total, tally="")
    tally: Counter = Counter()

    def on_episode(outcome) -> None:
        verdict = outcome.verdict or {}
        tally["ok" if verdict.get("joint_success") else "fail" if outcome.reason != "infra_error" else "infra"] += 1
        progress.update(bar, advance=1, tally=f"ok {tally['ok']} fail {tally['fail']} infra errors {tally['infra']}")

    return on_episode, progress


def _check_speech(config: Any) -> None:
    """Refuse a spoken user that cannot speak here, before any episode runs."""
    from egoeval.media.tts import BACKENDS, available
    from egoeval.players import UnknownPlayer

    if config.spoken_user not in BACKENDS:
        raise UnknownPlayer(f"unknown text-to-speech backend {config.spoken_user!r}; choose one of {', '.join(BACKENDS)}")
    why = available()[config.spoken_user]
    if why:
        raise UnknownPlayer(f"--spoken-user {config.spoken_user}: {why}")
    if not config.agent_settings.get("audio_input"):
        print(f"note: agent {config.agent} is not set to take audio (a LiteLLM agent: --agent-audio-input); "
              f"the user's messages go as text", file=sys.stderr)


def cmd_run(args: argparse.Namespace) -> int:
    from egoeval.cli import CliError, _profile, _suite
    from egoeval.players import UnknownPlayer, make_agent_factory, make_user_factory
    from egoeval.suites import load_tasks

    try:
        config = _config(args)
        if config.persona:
            from egoeval.tasks.personas import pick

            pick(config.persona, 0)
        if config.spoken_user:
            _check_speech(config)
    except (UnknownPlayer, KeyError) as exc:
        raise CliError(str(exc).strip("'\"")) from None
    from egoeval.cli import use_data_dir

    from dataclasses import replace

    suite = _suite(config.suite)
    config = replace(config, data_dir=use_data_dir(suite, args.egobench_dir))  # resuming needs the same data
    _profile(suite, config.profile)
    tasks = load_tasks(config.suite, pattern=config.tasks)
    if not tasks:
        raise CliError(f"no task of suite {config.suite} matches {config.tasks!r}")
    if config.tasks:  # a glob among several that matches nothing is a typo, not a choice
        for glob in (g.strip() for g in config.tasks.split(",") if g.strip()):
            if not load_tasks(config.suite, pattern=glob):
                raise CliError(f"--tasks: {glob!r} matches no task of suite {config.suite}")
    _needs_videos(suite, config, args.video_dir)
    try:
        make_agent, replay = make_agent_factory(config.agent, config.agent_settings)
        make_user = make_user_factory(config.user, config.mode, config.user_settings)
    except (UnknownPlayer, ImportError) as exc:
        raise CliError(str(exc)) from None
    log_dir = Path(args.log_dir or f"logs/{time.strftime('%Y%m%d-%H%M%S')}-{config.suite}-"
                   f"{config.agent.replace('/', '_').replace(':', '-')}")
    if config.agent.startswith("litellm:") or config.user.startswith("litellm:"):
        from egoeval.model_client import litellm

        litellm()  # import it (seconds) before any episode's clock starts
    shard = _shard(args.shard)
    from egoeval.cli import out_dir

    out_dir(log_dir, "--log-dir")
    lock = _lock(log_dir) if shard is None else None
    try:
        return _play(args, config, tasks, make_agent, make_user, replay, log_dir, shard)
    finally:
        if lock is not None:
            lock.close()


def _needs_videos(suite, config, given: str | None) -> None:
    """Stop before the first episode when the suite's videos cannot be there at all
    (rather than record one infrastructure error per episode)."""
    from egoeval.cli import CliError
    from egoeval.videos import video_dir

    if suite.generates_videos or config.observation.no_video:
        return
    folder = video_dir(given)
    if folder is None:
        raise CliError(f"suite {suite.name} plays its tasks' videos: give --video-dir DIR (or set "
                       f"EGOEVAL_VIDEO_DIR or EGOBENCH_VIDEO_DIR); `egoeval tasks check-videos --suite {suite.name} --video-dir DIR` "
                       f"lists what is missing, --no-video runs without them")
    if not folder.is_dir():
        raise CliError(f"--video-dir {folder}: no such folder")


def _play(args: argparse.Namespace, config, tasks: list, make_agent, make_user, replay, log_dir: Path,
          shard: tuple[int, int] | None) -> int:
    """Play the run (or, in a worker, its shard) and print the summary."""
    import asyncio

    from egoeval.cli import CliError, print_score_table
    from egoeval.runner import ConfigMismatch, Runner
    from egoeval.scoring import score_paths
    from egoeval.trajectory import BadInput
    from egoeval.videos import video_dir

    runner = Runner(config, tasks, make_agent, make_user, log_dir, video_dir(args.video_dir), replay=replay,
                    shard=shard)
    try:
        pending = runner.pending()
    except (ConfigMismatch, BadInput) as exc:
        raise CliError(str(exc)) from None
    if shard is not None:  # a worker: play its share, report each episode, print nothing else
        if args.report_episodes:
            runner.on_episode = _report
        asyncio.run(runner.run())
        return EXIT_OK
    done = len(tasks) * config.epochs - len(pending)
    if done:
        print(f"resuming {runner.log_path}: {done} episodes already finished, {len(pending)} to run", file=sys.stderr)
    on_episode, progress = _progress(len(pending), args.quiet)
    runner.on_episode = on_episode
    started = time.monotonic()
    with progress:
        if args.workers > 1 and pending:
            outcomes = _run_workers(args, runner, on_episode)
        else:
            outcomes = asyncio.run(runner.run())
    reasons = Counter(o.reason for o in outcomes)
    print(f"{len(outcomes)} episodes in {time.monotonic() - started:.1f} s"
          + (f"; ended by: {', '.join(f'{k} {v}' for k, v in reasons.most_common())}" if outcomes else ""))
    for o in outcomes:
        if o.reason in ("infra_error", "agent_error"):
            print(f"  {o.reason}: {o.episode}: {o.error}", file=sys.stderr)
    report = score_paths([str(runner.log_path)], runner.config.profile)
    print_score_table(report)
    print(f"log: {runner.log_path}")
    if outcomes and all(o.reason == "infra_error" for o in outcomes):
        print("no episode could be evaluated: every one ended on an infrastructure error (see above)", file=sys.stderr)
        return 1
    return 1 if getattr(args, "workers_failed", False) else EXIT_OK


def _lock(log_dir: Path):
    """Take ``<log dir>/.lock`` (released when the returned file is closed): two runs on
    one log dir would play the same episodes twice."""
    import fcntl

    from egoeval.cli import CliError

    log_dir.mkdir(parents=True, exist_ok=True)
    fh = open(log_dir / ".lock", "w")
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.close()
        raise CliError(f"another egoeval run is using {log_dir}; wait for it or choose another --log-dir") from None
    return fh


def _shard(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    from egoeval.cli import CliError

    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise CliError(f"--shard expects I/N, not {text!r}") from None
    if not 0 <= i < n:
        raise CliError(f"--shard {text}: need 0 <= I < N")
    return i, n


def _report(outcome) -> None:
    """A worker tells its parent about each finished episode: one JSON line on stdout."""
    import json

    verdict = outcome.verdict or {}
    print(json.dumps({"episode": outcome.episode, "task": outcome.task, "epoch": outcome.epoch,
                      "reason": outcome.reason, "error": outcome.error,
                      "joint_success": verdict.get("joint_success")}), flush=True)


def _run_workers(args: argparse.Namespace, runner, on_episode) -> list:
    """Play the run in ``--workers`` processes that append to the same log.

    The parent writes the header (and repairs a torn log) first; each worker plays the
    episodes of its stable shard with its part of the concurrency and reports every
    finished episode on stdout. A worker that dies leaves its in-flight episodes
    unfinished, for the next resume.
    """
    import json
    import math
    import queue
    import subprocess
    import threading

    from egoeval.runner import EpisodeOutcome
    from egoeval.trajectory import LogWriter

    LogWriter(runner.log_path, suite=runner.config.suite, config=runner.header(), fsync=False).close()
    n = args.workers
    per = max(1, math.ceil(runner.config.max_concurrency / n))
    lines: queue.Queue = queue.Queue()
    procs = []
    for i in range(n):
        cmd = [sys.executable, "-m", "egoeval", *args.argv, "--log-dir", str(runner.log_dir), "--workers", "1",
               "--max-concurrency", str(per), "--quiet", "--shard", f"{i}/{n}", "--report-episodes"]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        procs.append(proc)
        threading.Thread(target=lambda p=proc: ([lines.put(ln) for ln in p.stdout], lines.put(None)),
                         daemon=True).start()
    outcomes, open_pipes = [], n
    while open_pipes:
        line = lines.get()
        if line is None:
            open_pipes -= 1
            continue
        try:
            d = json.loads(line)
        except json.JSONDecodeError:
            continue
        outcome = EpisodeOutcome(d["episode"], d["task"], d["epoch"], d["reason"], d["error"],
                                 None if d["joint_success"] is None else {"joint_success": d["joint_success"]})
        outcomes.append(outcome)
        on_episode(outcome)
    failed = [i for i, proc in enumerate(procs) if proc.wait() != 0]
    for i in failed:
        print(f"worker {i} ended with exit code {procs[i].returncode}; its unfinished episodes are played "
              f"on the next run with this --log-dir", file=sys.stderr)
    args.workers_failed = bool(failed)
    return outcomes


def cmd_export(args: argparse.Namespace) -> int:
    from egoeval.cli import CliError
    from egoeval.export import export_log
    from egoeval.players import log_file
    from egoeval.trajectory import BadInput

    from egoeval.cli import out_dir

    out_dir(args.out)
    try:
        report = export_log(log_file(args.log), args.out)
    except BadInput as exc:
        raise CliError(str(exc)) from None
    for f in report.files:
        print(f)
    print(f"{report.trajectories} trajectories in {len(report.files)} files"
          + (f"; {report.placeholders} tasks without an episode got empty placeholders" if report.placeholders else ""))
    for s in report.skipped:
        print(f"skipped: {s}", file=sys.stderr)
    return EXIT_OK


def cmd_import(args: argparse.Namespace) -> int:
    from egoeval.cli import CliError
    from egoeval.export import import_results
    from egoeval.trajectory import BadInput

    from egoeval.cli import out_file

    out_file(args.out, new=True)
    try:
        n = import_results(args.files, args.out, args.suite)
    except BadInput as exc:
        raise CliError(str(exc)) from None
    print(f"{n} episodes written to {args.out}")
    return EXIT_OK


def cmd_check_videos(args: argparse.Namespace) -> int:
    from egoeval.cli import EXIT_FAILED
    from egoeval.suites import load_tasks
    from egoeval.videos import missing_videos, video_dir

    from egoeval.cli import CliError

    from egoeval.cli import _suite

    suite = _suite(args.suite)
    tasks = load_tasks(args.suite)
    if suite.generates_videos:  # its clips are made on this machine, never downloaded
        print(f"suite {args.suite}: its {len({t.video for t in tasks})} clips are generated here on first use; "
              f"nothing to download")
        return EXIT_OK
    folder = video_dir(args.video_dir)
    if folder is None:
        raise CliError("where are the videos? give --video-dir DIR (or set EGOEVAL_VIDEO_DIR)")
    if not folder.is_dir():
        raise CliError(f"--video-dir {folder}: no such folder")
    missing = missing_videos(tasks, folder)
    names = {t.video for t in tasks}
    print(f"{len(names) - len(missing)}/{len(names)} videos found in {folder}")
    for name, ids in sorted(missing.items()):
        print(f"  missing {name} ({len(ids)} tasks, e.g. {ids[0]})")
    return EXIT_OK if not missing else EXIT_FAILED
