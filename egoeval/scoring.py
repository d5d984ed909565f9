"""Score result files: what ``egoeval score`` does, usable in-process.

Inputs are EgoBench results files (``<file>_<mode>.json``), egoeval JSONL logs, or
folders holding either. A file that cannot be read at all raises ``BadInput``; a
trajectory that is malformed inside a readable file gets a task-level verdict.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from egoeval.metrics import file_summary, overall_summary
from egoeval.trajectory import BadInput, Episode, read_log, read_results_file, results_file_stem
from egoeval.verifiers.egobench import FileScore, score_file
from egoeval.verifiers.profiles import Profile
from egoeval.verifiers.verdict import InvalidEntry, Verdict


@dataclass
class ScoreReport:
    profile: str
    files: dict[str, dict] = field(default_factory=dict)  # label -> file summary
    verdicts: list[Verdict] = field(default_factory=list)
    invalid: list[InvalidEntry] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    overall: dict[str, Any] = field(default_factory=dict)
    artifacts: list[dict] = field(default_factory=list)  # verdicts of artifact-suite episodes


def expand_inputs(paths: list[str]) -> list[Path]:
    """Files named directly, and the results files and logs inside named folders."""
    from egoeval.trajectory import is_log

    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():  # its logs (not the verdicts or judgements written beside them) and results files
            found = sorted(x for x in p.iterdir() if (x.suffix == ".jsonl" and is_log(x))
                           or (x.suffix == ".json" and results_file_stem(x)))
            if not found:
                raise BadInput(f"{p}: holds no egoeval log (.jsonl) or EgoBench results file (<file>_<mode>.json)")
            out += found
        elif p.exists():
            out.append(p)
        else:
            raise BadInput(f"{p}: no such file or folder")
    return out


def _results_stem(path: Path, ground_truth: str = "pinned") -> str:
    from egoeval.tasks import egobench as suite

    named = results_file_stem(path)
    if named is None:
        raise BadInput(f"{path}: cannot tell the task file from the name; expected <scenario><N>_<mode>.json, "
                       f"e.g. retail6_easy.json")
    stem = named[0]
    try:
        suite.split_file(stem)
        suite.raw_tasks(stem, ground_truth)
    except (ValueError, KeyError):
        which = "" if ground_truth == "pinned" else f"{ground_truth} "
        raise BadInput(f"{path}: no EgoBench {which}ground truth for {stem!r}") from None
    return stem


def score_paths(paths: list[str], profile: Profile, ground_truth: str = "pinned") -> ScoreReport:
    """Score results files and logs. ``ground_truth`` is ``pinned`` (the suite's task
    files, as the official evaluator of the pinned release) or ``released`` (the ground
    truth published for the five test files; MANIFEST "Two ground truths")."""

    report = ScoreReport(profile.name)
    scored: list[tuple[str, FileScore]] = []
    for path in expand_inputs(paths):
        if path.suffix == ".jsonl":
            _, episodes = read_log(path)
            by_group: dict[str, FileScore] = {}
            for ep in episodes:
                why = unscorable(ep)
                if why:
                    report.skipped.append(f"{path}: episode {ep.episode}: {why}")
                    continue
                if ep.task.startswith("artifacts/"):  # judged on the files the run kept in its workspaces
                    report.artifacts.append(artifact_verdict(ep, path.parent))
                    continue
                try:
                    one = score_episode(ep.task, ep.as_trajectory(), profile, ground_truth)
                except KeyError:
                    report.skipped.append(f"{path}: episode {ep.episode}: unknown task {ep.task!r}")
                    continue
                suite_name, group = ep.task.split("/")[:2]
                fs = by_group.setdefault(group if suite_name == "egobench" else f"{suite_name}/{group}",
                                         FileScore(one.stem))
                fs.verdicts += one.verdicts
                fs.invalid += one.invalid
            scored += [(f"{path.name}:{group}", fs) for group, fs in by_group.items()]
        else:
            stem = _results_stem(path, ground_truth)
            scored.append((stem, score_results(stem, read_results_file(path), profile, ground_truth)))
    for label, fs in scored:
        if label in report.files:
            label = f"{label}#{len(report.files)}"
        report.files[label] = file_summary(fs.verdicts)
        report.verdicts += fs.verdicts
        report.invalid += fs.invalid
    report.overall = overall_summary(report.files, report.verdicts, profile.pooled_micro)
    return report


def artifact_verdict(ep: Episode, log_dir: Path) -> dict:
    """An artifact-suite episode judged on the file it left in ``log_dir/workspaces``."""
    from egoeval.trajectory import episode_workspace
    from egoeval.verifiers.artifact import score_artifact_episode

    workspace = episode_workspace(log_dir, ep.episode)
    try:
        return {"episode": ep.episode, **score_artifact_episode(ep, workspace)}
    except KeyError:
        return {"episode": ep.episode, "task": ep.task, "joint_success": False, "error_category": "unknown_task"}


def unscorable(ep: Episode) -> str | None:
    """Why a logged episode gets no verdict (None when it is scored): it never finished,
    or it ended on an infrastructure error, which is counted apart from agent failures."""
    if not ep.finished:
        return "unfinished (no episode_end)"
    if ep.end_reason == "infra_error":
        return "ended on an infrastructure error (not an agent failure)"
    return None


def score_episode(task_id: str, trajectory: dict, profile: Profile, ground_truth: str = "pinned") -> FileScore:
    """Score one trajectory against exactly the task it names (logs name their task, so
    no positional pairing). Raises ``KeyError`` for an unknown task id."""
    from egoeval.suites import get_task, scoring_target
    from egoeval.verifiers.answers import expected_facts

    stem, gt = scoring_target(task_id, ground_truth)
    return score_file(stem, [trajectory], profile, gt_tasks=[gt], facts_of=lambda _: expected_facts(get_task(task_id)))


def score_results(stem: str, trajectories: list, profile: Profile, ground_truth: str = "pinned") -> FileScore:
    """Score an EgoBench results file's trajectories. The facts each task must communicate
    come from the suite's task of that id (the pinned ground truth's report calls)."""
    from egoeval.tasks import egobench
    from egoeval.verifiers.answers import expected_facts

    return score_file(stem, trajectories, profile, egobench.raw_tasks(stem, ground_truth),
                      facts_of=lambda tid: expected_facts(egobench.get_task(f"egobench/{stem}/{tid}")))


def verdict_record(v: Verdict) -> dict[str, Any]:
    """One line of ``--out``: the official verdict fields first, then ours."""
    return v.to_dict()


def write_verdicts(report: ScoreReport, out: str | os.PathLike) -> None:
    import json

    with open(out, "w", encoding="utf-8") as fh:
        for v in report.verdicts:
            fh.write(json.dumps(verdict_record(v), ensure_ascii=False) + "\n")
