"""``egoeval judge`` (the rubric sliding-window judge over recorded episodes) and
``egoeval judge-agreement`` (that judge against human labels)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Iterator

from egoeval.cli_run import EXIT_OK, _positive


def add_judge_parsers(sub, parser_class) -> None:
    from egoeval.verifiers.rubric import OVERLAP, WINDOW

    j = sub.add_parser("judge", help="judge recorded episodes against per-task rubrics with an LLM (sliding windows)")
    j.add_argument("inputs", nargs="+", metavar="LOG_OR_RESULTS", help="egoeval logs or log dirs, EgoBench results files")
    j.add_argument("--judge-model", metavar="PROVIDER/MODEL",
                   help="the judge, any LiteLLM model (default: $EGOEVAL_JUDGE_MODEL)")
    j.add_argument("--judge-api-base", metavar="URL", help="an OpenAI-compatible server (default: $EGOEVAL_JUDGE_API_BASE)")
    j.add_argument("--window", type=int, default=WINDOW, help=f"turns per window (default {WINDOW})")
    j.add_argument("--overlap", type=int, default=OVERLAP, help=f"turns shared by consecutive windows (default {OVERLAP})")
    j.add_argument("--rubrics", metavar="FILE", help="JSON: task id -> list of rubric items (default: derived)")
    j.add_argument("--attempts", type=_positive(int), default=3, help="judge calls per window before giving up on bad output")
    j.add_argument("--max-concurrency", type=_positive(int), default=8, help="episodes judged at once")
    j.add_argument("--no-judge-cache", action="store_true", help="do not reuse cached judge replies")
    j.add_argument("--out", metavar="PATH", help="write one JSON line per episode here")
    j.add_argument("--json", action="store_true", help="print the summary as JSON")
    j.add_argument("--suite", default=None, help="the suite of results files (default: the first whose format takes the file name, "
                        "egobench before egobench2); logs name their own")
    j.set_defaults(func=cmd_judge)

    a = sub.add_parser("judge-agreement", help="agreement and Cohen's kappa of a rubric judge against human labels")
    a.add_argument("judge", metavar="JUDGE.jsonl", help="what egoeval judge --out wrote")
    a.add_argument("human", metavar="HUMAN.jsonl", help='human labels: {"episode": ID, "items": {item id: true|false}}')
    a.add_argument("--json", action="store_true")
    a.set_defaults(func=cmd_judge_agreement)


def episodes(paths: list[str], suite_name: str | None = None) -> Iterator[tuple[dict, dict]]:
    """(record head, trajectory) of every scorable episode in logs and results files. The
    head's ``episode`` label names the file (``PATH:episode`` or ``PATH:task_id``), so
    episodes of two runs never share one (human labels refer to episodes by it); a log's
    episodes also carry their ``log`` and ``episode_id``."""
    from egoeval.scoring import expand_inputs, results_suite, unscorable
    from egoeval.trajectory import read_log, read_results_file, results_file_stem

    for path in expand_inputs(paths):
        if path.suffix == ".jsonl":
            for ep in read_log(path)[1]:
                if not unscorable(ep):
                    yield ({"episode": f"{path}:{ep.episode}", "task": ep.task, "log": str(path),
                            "episode_id": ep.episode}, ep.as_trajectory())
        elif results_file_stem(path) is not None:
            suite, stem = results_suite(path, suite_name)
            for n, traj in enumerate(read_results_file(path), 1):
                if isinstance(traj, dict):
                    tid = traj.get(suite.id_member, n)
                    yield {"episode": f"{path}:{tid}", "task": f"{suite.name}/{stem}/{tid}"}, traj


async def _judge_all(todo: list[tuple[dict, dict]], rubrics: dict | None, judge: Any, args: argparse.Namespace,
                     on_done: Any) -> list[dict]:
    import asyncio

    from egoeval.suites import get_task
    from egoeval.verifiers.rubric import judge_rubric_async, rubric_for, transcript

    gate = asyncio.Semaphore(max(1, args.max_concurrency))

    async def one(head: dict, traj: dict) -> dict:
        record: dict[str, Any] = dict(head)
        try:
            items = rubric_for(get_task(head["task"]), rubrics)
        except KeyError:
            record.update(error=f"unknown task {head['task']!r}", passed=None)
        except Exception as exc:  # noqa: BLE001 - one task's rubric failing is that episode's result
            record.update(error=f"no rubric: {type(exc).__name__}: {exc}", passed=None)
        else:
            async with gate:
                record.update(await judge_rubric_async(items, transcript(traj), judge, args.window, args.overlap,
                                                       args.attempts))
        on_done(record)
        return record

    return list(await asyncio.gather(*(one(head, traj) for head, traj in todo)))


def cmd_judge(args: argparse.Namespace) -> int:
    from egoeval.cli import CliError
    from egoeval.trajectory import BadInput
    from egoeval.verifiers.judge import judge_client
    from egoeval.verifiers.rubric import judgements_path, load_rubrics, summarise, windows

    try:
        windows(0, args.window, args.overlap)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    judge = judge_client(args.judge_model, args.judge_api_base, cache=False if args.no_judge_cache else True)
    if judge is None:
        raise CliError("the rubric judge needs a model: --judge-model PROVIDER/MODEL or $EGOEVAL_JUDGE_MODEL "
                       "(the offline verifiers are egoeval score's: tool calls, final state, answers)")
    try:
        rubrics = load_rubrics(args.rubrics) if args.rubrics else None
        todo = list(episodes(args.inputs, args.suite))
    except (BadInput, ValueError) as exc:
        raise CliError(str(exc)) from None
    done = [0]

    def progress(record: dict) -> None:
        done[0] += 1
        if sys.stderr.isatty():
            print(f"\rjudged {done[0]}/{len(todo)}", end="", file=sys.stderr, flush=True)

    import asyncio

    records = asyncio.run(_judge_all(todo, rubrics, judge, args, progress))
    if args.out:
        _write(args.out, records)
    by_log: dict[str, list[dict]] = {}
    for r in records:
        if r.get("log"):
            by_log.setdefault(r["log"], []).append(r)
    for log, mine in by_log.items():  # beside each run: report and view pick them up
        _write(judgements_path(log), mine)
    errors = [r for r in records if r.get("error")]
    summary = {"judge_model": judge.model, "w": args.window, "delta": args.overlap, "read": len(records),
               **summarise(records), "no_rubric": sum(r.get("total") == 0 for r in records)}
    reached = [r for r in records if "judge_model" in r]  # the episodes that had a rubric to judge
    failed = bool(reached) and all(r.get("error") for r in reached)  # the judge never answered
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"\rrubric judge {summary['judge_model']} (windows of {args.window} turns, overlap {args.overlap}): "
              f"{summary['passed']}/{summary['episodes']} episodes met every item; mean fraction met "
              f"{summary['mean_fraction']}; {summary['no_rubric']} without a rubric; {summary['errors']} errors")
        for r in errors[:10]:
            print(f"  {r['episode']}: {r['error']}", file=sys.stderr)
        for where in ([args.out] if args.out else []) + [str(judgements_path(log)) for log in by_log]:
            print(f"judgements: {where}")
    return 1 if failed else EXIT_OK


def _write(path: str | Path, records: list[dict]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def cmd_judge_agreement(args: argparse.Namespace) -> int:
    from egoeval.cli import CliError
    from egoeval.verifiers.agreement import agreement, read_labels

    try:
        result = agreement(read_labels(args.judge), read_labels(args.human))
    except (OSError, ValueError) as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps(result, indent=2))
        return EXIT_OK
    kappa = lambda k: "undefined" if k is None else f"{k:.3f}"  # noqa: E731
    print(f"{result['pairs']} labelled items in {result['episodes']} episodes: agreement "
          f"{result['agreement']}, Cohen's kappa {kappa(result['kappa'])}")
    for item, s in result["per_item"].items():
        print(f"  {item}: {s['pairs']} pairs, agreement {s['agreement']}, kappa {kappa(s['kappa'])}")
    return EXIT_OK
