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
from egoeval.trajectory import BadInput, Episode, episode_workspace, read_log, read_results_file, results_file_stem
from egoeval.verifiers.egobench import FileScore
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


def results_suite(path: Path, suite: str | None = None, ground_truth: str = "pinned") -> tuple[Any, str]:
    """(suite, task file) of a results file: the named suite's, or the first suite whose
    results format takes the file's name. Raises ``BadInput`` saying why not."""
    from egoeval.suites import SuiteDataError, UnknownSuite, get_suite, loadable_suites

    if results_file_stem(path) is None:
        raise BadInput(f"{path}: cannot tell the task file from the name; expected <scenario><N>_<mode>.json, "
                       f"e.g. retail6_easy.json")
    try:
        candidates = [get_suite(suite)] if suite else loadable_suites()
    except UnknownSuite as exc:
        raise BadInput(str(exc)) from None
    for s in candidates:
        stem = s.results_stem(path)
        if stem is None:
            continue
        try:
            s.raw_tasks(stem, ground_truth)
        except SuiteDataError as exc:
            raise BadInput(str(exc)) from None
        except (ValueError, KeyError):
            continue
        return s, stem
    stem = results_file_stem(path)[0]
    which = "" if ground_truth == "pinned" else f"{ground_truth} "
    where = f"suite {suite}" if suite else "any suite"
    raise BadInput(f"{path}: no {which}ground truth for {stem!r} in {where}")


def suite_profile(suite: Any, name: str | None) -> Any:
    """The suite's profile called ``name`` (None: its default); ``BadInput`` if it has none."""
    from egoeval.suites import UnknownProfile

    try:
        return suite.profile(name)
    except UnknownProfile as exc:
        raise BadInput(str(exc).strip("'\"")) from None


def score_paths(paths: list[str], profile: str | None = None, ground_truth: str = "pinned",
                suite: str | None = None, include_partial: bool = False) -> ScoreReport:
    """Score results files and logs. Each task is scored by its suite under the profile
    called ``profile`` (None: each suite's default). ``ground_truth`` is ``pinned`` (the
    suite's task files, as its official evaluator) or another the suite ships (EgoBench's
    ``released``, MANIFEST "Two ground truths"). ``suite`` names the suite of results
    files (default: the first suite whose format takes the file's name); logs name theirs.
    Under a profile that averages complete files only (the newest evaluator), a results
    file missing some of its tasks is listed but left out of the overall figures and error
    counts, unless ``include_partial``; logs are always counted (a run may play a subset)."""
    from egoeval.suites import SuiteDataError, suite_of

    used: dict[str, Any] = {}
    scored: list[tuple[str, FileScore, bool]] = []  # (label, verdicts, counted in the overall figures)
    artifacts: list[dict] = []
    skipped: list[str] = []
    for path in expand_inputs(paths):
        if path.suffix == ".jsonl":
            _, episodes = read_log(path)
            by_group: dict[str, FileScore] = {}
            for ep in episodes:
                why = unscorable(ep)
                if why:
                    skipped.append(f"{path}: episode {ep.episode}: {why}")
                    continue
                try:
                    owner = suite_of(ep.task)
                    prof = used.setdefault(owner.name, suite_profile(owner, profile))
                    workspace = episode_workspace(path.parent, ep.episode)
                    one = owner.score_episode(ep.task, ep.as_trajectory(), prof, workspace, ground_truth)
                except KeyError:
                    skipped.append(f"{path}: episode {ep.episode}: unknown task {ep.task!r}")
                    continue
                except SuiteDataError:
                    raise
                except ValueError as exc:  # e.g. a seed its loader refuses: this episode fails, the others go on
                    skipped.append(f"{path}: episode {ep.episode}: evaluation failed: {exc}")
                    continue
                if owner.verdict_kind != "calls":  # judged on the files the run kept in its workspaces
                    artifacts.append({"episode": ep.episode, **one})
                    continue
                fs = by_group.setdefault("/".join(ep.task.split("/")[:2]), FileScore(one.stem))
                fs.verdicts += one.verdicts
                fs.invalid += one.invalid
            scored += [(f"{path.name}:{group}", fs, True) for group, fs in by_group.items()]
        else:
            owner, stem = results_suite(path, suite, ground_truth)
            prof = used.setdefault(owner.name, suite_profile(owner, profile))
            try:
                fs = owner.score_results(stem, read_results_file(path), prof, ground_truth)
            except SuiteDataError as exc:
                raise BadInput(str(exc)) from None
            except ValueError as exc:  # e.g. a seed its loader refuses: the file fails, the others go on
                skipped.append(f"{path}: evaluation failed: {exc}")
                continue
            complete = bool(fs.verdicts) and not fs.invalid
            scored.append((stem, fs, complete or include_partial or not prof.complete_files_only))
            if not scored[-1][2]:
                skipped.append(f"{path}: incomplete ({len(fs.invalid)} of {len(fs.invalid) + len(fs.verdicts)} "
                               f"tasks without a valid trajectory): left out of the overall figures "
                               f"(--include-partial counts it)")
    names = sorted({p.name for p in used.values()})
    report = ScoreReport(", ".join(names) or (profile or "default"), skipped=skipped, artifacts=artifacts)
    counted: dict[str, dict] = {}
    for label, fs, included in scored:
        if label in report.files:
            label = f"{label}#{len(report.files)}"
        report.files[label] = file_summary(fs.verdicts)
        report.verdicts += fs.verdicts
        report.invalid += fs.invalid
        if included:
            counted[label] = report.files[label]
    pooled = bool(used) and all(p.pooled_micro for p in used.values())
    kept = [v for (_, fs, included) in scored if included for v in fs.verdicts]
    report.overall = overall_summary(counted, kept, pooled)
    return report


def unscorable(ep: Episode) -> str | None:
    """Why a logged episode gets no verdict (None when it is scored): it never finished,
    or it ended on an infrastructure error, which is counted apart from agent failures."""
    if not ep.finished:
        return "unfinished (no episode_end)"
    if ep.end_reason == "infra_error":
        return "ended on an infrastructure error (not an agent failure)"
    return None


def verdict_record(v: Verdict) -> dict[str, Any]:
    """One line of ``--out``: the official verdict fields first, then ours."""
    return v.to_dict()


def write_verdicts(report: ScoreReport, out: str | os.PathLike) -> None:
    import json

    with open(out, "w", encoding="utf-8") as fh:
        for v in report.verdicts:
            fh.write(json.dumps(verdict_record(v), ensure_ascii=False) + "\n")
