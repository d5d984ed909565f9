"""Trajectory files: the EgoBench results format and egoeval's own JSONL log.

**EgoBench results** (read): a JSON list of trajectories named
``<scenario><N>_<mode>.json`` (mode easy, hard or static). Each trajectory has
``task_id``, ``tool_calls`` (entries ``{"turn", "calls": [...], "results": [...]}`` or
the older ``{"turn", "call", "result"}``), ``dialogue``, ``corrected_scores`` and
counters. Pairing with ground truth is positional under the ``egobench`` profile.

**egoeval log** (read and written): JSON Lines, one event per line, append-only, each
event written whole with one ``write``, so a crash loses nothing that was finished. Every
line is an object with an ``event`` field and, after the header, the ``episode`` it
belongs to (``<task id>@<epoch>``; episodes of a concurrent run interleave):

- ``{"event": "header", "format": "egoeval-log", "version": 1, "suite": ..., "created": ...,
  "egoeval": <version>, "config": {...}}`` -- first line (the run's configuration, with
  ``identity``, ``egoeval_version`` and ``git_commit``);
- ``{"event": "episode_start", "episode": ID, "task": "egobench/retail6/1", "epoch": 1,
  "mode": "easy", "seed": N}``; a later start of the same ID (a resumed run redoing an
  unfinished episode) replaces the earlier attempt;
- ``{"event": "observation", "episode": ID, "kind": "uniform"|..."none", "video": ...,
  "manifest": {...}}`` (what the agent saw);
- ``{"event": "message", "episode": ID, "turn": N, "role": "user"|"agent", "content": ...}``
  (agent messages add ``usage``, ``latency_s`` and, when any, ``retries``, ``cached``);
- ``{"event": "tool_calls", "episode": ID, "turn": N, "calls": [...], "results": [...],
  "errors": [...]}`` (calls exactly as the agent wrote them; the same shape as an
  EgoBench entry; results may carry ``images`` hashes and a ``frame_manifest``);
- ``{"event": "user_scores", "episode": ID, "scores": {...}}`` (the simulated user's
  self-evaluation so far; ``role_consistency`` etc., as EgoBench's ``corrected_scores``);
- ``{"event": "verdict", "episode": ID, ...}`` (the verdict given when the episode ended);
- ``{"event": "episode_end", "episode": ID, "reason": "user_stop"|..., "error": ...,
  "counters": {...}}`` -- last; an episode without it is unfinished.

Unknown events are ignored by readers, so the format can grow.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

LOG_FORMAT = "egoeval-log"
LOG_VERSION = 1
RESULTS_NAME_RE = re.compile(r"^([a-z]+\d+)_(easy|hard|static)\.json$")


class BadInput(Exception):
    """An input file that cannot be read at all; the message names file and entry."""


def results_file_stem(path: str | os.PathLike) -> tuple[str, str] | None:
    """``retail6_easy.json`` -> ``('retail6', 'easy')``; None for other names."""
    m = RESULTS_NAME_RE.match(Path(path).name)
    return (m.group(1), m.group(2)) if m else None


def read_results_file(path: str | os.PathLike) -> list[Any]:
    """The trajectories of an EgoBench results file, unvalidated beyond 'a JSON list'."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise BadInput(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise BadInput(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise BadInput(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(data, list):
        raise BadInput(f"{path}: expected a JSON list of trajectories, found a JSON {type(data).__name__}"
                       .replace("JSON dict", "JSON object"))
    return data


@dataclass
class Episode:
    """One episode of an egoeval log, in the shape the scorers read."""

    episode: str
    task: str
    epoch: int = 1
    mode: str = "easy"
    tool_calls: list[dict] = field(default_factory=list)
    dialogue: list[dict] = field(default_factory=list)
    corrected_scores: dict | None = None
    end_reason: str | None = None
    counters: dict = field(default_factory=dict)
    finished: bool = False  # an episode_end was written
    persona: str | None = None  # the simulated user's persona, when the run used one
    step_latencies: list[float] = field(default_factory=list)  # the agent's uncached steps, seconds

    def apply(self, ev: dict) -> None:
        """Take one of this episode's events into account (start events are the caller's)."""
        kind = ev.get("event")
        if kind in ("tool_calls", "message") and isinstance(ev.get("latency_s"), (int, float)) and not ev.get("cached"):
            self.step_latencies.append(float(ev["latency_s"]))
        if kind == "tool_calls":
            self.tool_calls.append({k: ev.get(k) for k in ("turn", "calls", "results")})
        elif kind == "message":
            self.dialogue.append({k: ev[k] for k in ("role", "turn", "content", "evaluation", "audio") if k in ev})
        elif kind == "user_scores":
            self.corrected_scores = ev.get("scores")
        elif kind == "episode_end":
            self.end_reason = ev.get("reason")
            self.counters = ev.get("counters") or {}
            self.finished = True

    def as_trajectory(self) -> dict:
        """The EgoBench trajectory shape (so one scorer serves both formats)."""
        task_id = self.task.rsplit("/", 1)[-1]
        traj: dict[str, Any] = {"task_id": int(task_id) if task_id.isdigit() else task_id, "mode": self.mode,
                                "dialogue": self.dialogue, "tool_calls": self.tool_calls}
        if self.corrected_scores is not None:
            traj["corrected_scores"] = self.corrected_scores
        traj.update(self.counters)
        return traj


def is_log(path: str | os.PathLike) -> bool:
    """Whether a file starts like an egoeval log (its header line), read cheaply."""
    try:
        with open(path, encoding="utf-8") as fh:
            first = json.loads(fh.readline())
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return _is_header(first)


def _is_header(ev: Any) -> bool:
    return isinstance(ev, dict) and ev.get("event") == "header" and ev.get("format") == LOG_FORMAT


def episode_workspace(log_dir: str | os.PathLike, episode: str) -> Path:
    """Where a run keeps an episode's files: ``<log dir>/workspaces/<episode id, made safe>``."""
    return Path(log_dir) / "workspaces" / safe_name(episode)


def episode_audio(log_dir: str | os.PathLike, episode: str) -> Path:
    """Where a run keeps an episode's speech (``egoeval.spoken``): ``<log dir>/audio/<episode>``."""
    return Path(log_dir) / "audio" / safe_name(episode)


def safe_name(text: str) -> str:
    """``text`` as a file name (an episode id, a model name): anything unsafe becomes ``_``."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


def iter_events(path: str | os.PathLike) -> Iterator[dict]:
    """The events of an egoeval JSONL log, header first, checked line by line.

    A torn last line (a crash mid-write) is skipped; anything else that is not a JSON
    object raises ``BadInput`` naming the line.
    """
    try:
        fh = open(path, encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"{path}: cannot read: {exc.strerror or exc}") from None
    with fh:
        lines = fh.read().split("\n")
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except json.JSONDecodeError as exc:
            if n >= len(lines) - 1:  # a crash mid-write leaves at most one torn last line
                return
            ev = _after_torn_fragment(line)  # a killed worker's fragment, then another's whole event
            if ev is None:
                raise BadInput(f"{path}: line {n}: not valid JSON: {exc.msg}") from None
        if not isinstance(ev, dict):
            raise BadInput(f"{path}: line {n}: expected a JSON object")
        if n == 1 and not _is_header(ev):
            raise BadInput(f"{path}: line {n}: not an egoeval log (no header)")
        yield ev


def _after_torn_fragment(line: str) -> dict | None:
    """The whole event that follows a torn fragment on the same line, if there is one.

    Worker processes append to one log; a worker killed in the middle of a large write
    leaves a fragment without its newline, and the next event another worker writes
    continues that line. The fragment belongs to an unfinished episode (it is redone);
    the event after it is kept.
    """
    start = line.rfind('{"event": ')
    while start > 0:
        try:
            ev = json.loads(line[start:])
        except json.JSONDecodeError:
            start = line.rfind('{"event": ', 0, start)
            continue
        return ev if isinstance(ev, dict) else None
    return None


def read_log(path: str | os.PathLike) -> tuple[dict, list[Episode]]:
    """Header and episodes of an egoeval JSONL log.

    An episode started again (a resumed run redoing an unfinished one) replaces the
    earlier attempt, so each episode id appears once, with its latest attempt.
    """
    header: dict = {}
    episodes: dict[str, Episode] = {}
    for ev in iter_events(path):
        kind = ev.get("event")
        if kind == "header":
            header = header or ev
            continue
        eid = ev.get("episode")
        if kind == "episode_start":
            if not isinstance(ev.get("task"), str):
                raise BadInput(f"{path}: episode {eid}: episode_start without a task id")
            episodes.pop(eid, None)  # keep insertion order of the latest attempt
            episodes[eid] = Episode(eid, ev["task"], ev.get("epoch", 1), ev.get("mode", "easy"), persona=ev.get("persona"))
            continue
        if eid in episodes:
            episodes[eid].apply(ev)
    return header, list(episodes.values())


class LogWriter:
    """Append-only JSONL writer.

    Each event is encoded first and written with one ``os.write`` on an ``O_APPEND``
    descriptor, so it reaches the file (the kernel's page cache) whole or not at all as
    far as a killed process is concerned; ``fsync=True`` also forces every event to the
    disk (against power loss), otherwise call :meth:`sync` at milestones. Reopening a
    log whose last line was torn by a crash cuts that fragment off first, so appended
    events never follow garbage. Several processes may append to one log (``O_APPEND``
    writes of whole lines do not interleave); only the first may repair it.
    """

    def __init__(self, path: str | os.PathLike, *, suite: str, config: dict | None = None,
                 fsync: bool = True, repair: bool = True) -> None:
        from egoeval import __version__

        self.path = Path(path)
        self.fsync = fsync
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        size = os.fstat(self._fd).st_size
        if size and repair:  # never while other processes append (worker processes share a log)
            _cut_torn_tail(self.path, size)
        if os.fstat(self._fd).st_size == 0:
            self.write({"event": "header", "format": LOG_FORMAT, "version": LOG_VERSION, "suite": suite,
                        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                        "egoeval": __version__, "config": config or {}})

    def write(self, event: dict) -> None:
        data = (json.dumps(event, ensure_ascii=False) + "\n").encode("utf-8")
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view):]
        if self.fsync:
            os.fsync(self._fd)

    def sync(self) -> None:
        os.fsync(self._fd)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> "LogWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _cut_torn_tail(path: Path, size: int) -> None:
    """Truncate a log back to its last complete line."""
    with open(path, "rb") as fh:
        fh.seek(max(0, size - 1))
        if fh.read(1) == b"\n":
            return
        block, pos = 1 << 16, size
        while pos > 0:
            start = max(0, pos - block)
            fh.seek(start)
            chunk = fh.read(pos - start)
            cut = chunk.rfind(b"\n")
            if cut >= 0:
                os.truncate(path, start + cut + 1)
                return
            pos = start
    os.truncate(path, 0)


def episodes_from_results(stem: str, trajectories: list[Any], mode: str = "easy", suite: str = "egobench",
                          id_member: str = "task_id") -> Iterator[list[dict]]:
    """Events that describe a results file of ``suite`` (EgoBench's format) as an egoeval
    log (an importer); ``id_member`` names each trajectory's task (position + 1 without)."""
    for pos, traj in enumerate(trajectories):
        if not isinstance(traj, dict):
            continue
        tid = traj.get(id_member, pos + 1)
        eid = f"{stem}-{tid}-{pos}"
        events: list[dict] = [{"event": "episode_start", "episode": eid, "task": f"{suite}/{stem}/{tid}",
                               "epoch": 1, "mode": traj.get("mode", mode)}]
        for turn in traj.get("dialogue") or []:
            if isinstance(turn, dict):
                events.append({"event": "message", "episode": eid, **turn})
        for entry in traj.get("tool_calls") or []:
            if isinstance(entry, dict):
                calls = entry["calls"] if "calls" in entry else [entry.get("call")]
                results = entry["results"] if "results" in entry else [entry.get("result")]
                events.append({"event": "tool_calls", "episode": eid, "turn": entry.get("turn"),
                               "calls": calls, "results": results})
        if isinstance(traj.get("corrected_scores"), dict):
            events.append({"event": "user_scores", "episode": eid, "scores": traj["corrected_scores"]})
        counters = {k: traj[k] for k in ("rounds_count", "input_tokens", "output_tokens", "tool_calls_count",
                                         "tokens_consumed") if k in traj}
        events.append({"event": "episode_end", "episode": eid, "reason": None, "counters": counters})
        yield events
