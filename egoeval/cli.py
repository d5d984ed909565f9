"""The ``egoeval`` command line.

Start-up is kept fast: this module imports only the standard library at load time;
each command imports what it needs when it runs. Exit codes: 0 success, 1 a check
failed (e.g. ``validate`` found the oracle failing) or nothing could be evaluated (every
episode of a ``run`` hit an infrastructure error), 2 bad input (one line on stderr,
naming the file and entry; never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from egoeval.suites import SuiteDataError

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2


class CliError(Exception):
    """Bad input: printed as one line, exit code 2."""


def out_dir(path: str | Path, option: str = "--out") -> Path:
    """A folder to write into (made if missing); a file in its place is bad input."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise CliError(f"{option} {p}: is a file; give a folder")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"{option} {p}: cannot make the folder: {exc.strerror or exc}") from None
    return p


def out_file(path: str | Path, option: str = "--out", new: bool = False) -> Path:
    """A file to write (its folder made if missing); a folder in its place is bad input,
    and so is an existing file when ``new``."""
    p = Path(path)
    if p.is_dir():
        raise CliError(f"{option} {p}: is a folder; give a file name")
    if new and p.exists() and p.stat().st_size:
        raise CliError(f"{option} {p}: exists; choose a new file (nothing is added to an existing one)")
    out_dir(p.parent, option)
    return p


def _suite(name: str):
    """The suite called ``name``; a one-line error naming the available ones if none."""
    from egoeval.suites import UnknownSuite, get_suite

    try:
        return get_suite(name)
    except UnknownSuite as exc:
        raise CliError(str(exc)) from None


def use_data_dir(suite, given: str | None) -> str | None:
    """Point ``suite`` at ``--egobench-dir`` (or ``EGOBENCH_DIR``) when it reads one, and say
    in one line which of its files differ from the shipped copy, before anything runs.
    Returns the folder used (None: the shipped copy)."""
    import os

    from egoeval.suites import Suite

    path = given or os.environ.get("EGOBENCH_DIR")
    if not path:
        return None
    if type(suite).use_data_dir is Suite.use_data_dir:  # the suite reads nothing from outside
        if given:
            raise CliError(f"--egobench-dir: suite {suite.name} reads no data from outside egoeval")
        return None  # the environment variable is for the suites that read one
    try:
        note = suite.use_data_dir(path)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if note:
        print(f"egoeval: {note}", file=sys.stderr)
    return str(Path(path).resolve())


def _profile(suite, name: str | None):
    """``suite``'s profile called ``name`` (None: its default); a one-line error if none."""
    from egoeval.suites import UnknownProfile

    try:
        return suite.profile(name)
    except UnknownProfile as exc:
        raise CliError(str(exc).strip("'\"")) from None


def _known_profile(name: str | None) -> None:
    """A profile name some suite has (score and report check before reading anything)."""
    from egoeval.suites import loadable_suites

    if name is None:
        return
    names = sorted({p for suite in loadable_suites() for p in suite.profiles})
    if name not in names:
        raise CliError(f"unknown profile {name!r}; choose one of: {', '.join(names)}")


# --- egoeval suites ---------------------------------------------------------------------

def cmd_suites(args: argparse.Namespace) -> int:
    """Every suite that can be loaded (built in, installed through the ``egoeval.suites``
    entry point group, registered), with its profiles."""
    from egoeval.suites import get_suite, suite_names

    for name in suite_names():
        try:
            suite = get_suite(name)
        except Exception as exc:  # noqa: BLE001 - a broken third-party suite is listed, not fatal
            print(f"{name:<12} cannot be loaded: {type(exc).__name__}: {exc}")
            continue
        profiles = ", ".join(f"{p}{' (default)' if p == suite.default_profile else ''}" for p in suite.profiles)
        print(f"{name:<12} {suite.title or ''}" + (f"\n{'':<12} profiles: {profiles}" if profiles else ""))
    return EXIT_OK


# --- egoeval tasks --------------------------------------------------------------------

def cmd_tasks_list(args: argparse.Namespace) -> int:
    from egoeval.suites import load_tasks

    suite = _suite(args.suite)
    use_data_dir(suite, args.egobench_dir)
    if args.scenario and args.scenario not in suite.scenarios:
        raise CliError(f"unknown scenario {args.scenario!r} in suite {suite.name}; choose one of: "
                       f"{', '.join(suite.scenarios)}")
    tasks = [t for t in load_tasks(args.suite, args.scenario) if not args.file or t.file == args.file]
    if args.file and not tasks:
        files = sorted({t.file for t in load_tasks(args.suite)})
        raise CliError(f"no task file {args.file!r} in suite {args.suite}; its files: {', '.join(files[:12])}"
                       + (" ..." if len(files) > 12 else ""))
    if args.json:
        for t in tasks:
            print(json.dumps({"id": t.id, "scenario": t.scenario, "file": t.file, "task_id": t.task_id,
                              "video": t.video, "gt_calls": len(t.ground_truth)}, ensure_ascii=False))
        return EXIT_OK
    width = max((len(t.id) for t in tasks), default=2)
    print(f"{'id':<{width}}  {'video':<24} {'gt':>3}  instruction")
    for t in tasks:
        text = " ".join(t.instruction.split())
        print(f"{t.id:<{width}}  {t.video[:24]:<24} {len(t.ground_truth):>3}  {text[:70]}{'…' if len(text) > 70 else ''}")
    print(f"{len(tasks)} tasks")
    return EXIT_OK


def cmd_tasks_show(args: argparse.Namespace) -> int:
    from egoeval.suites import get_task, suite_of
    from egoeval.verifiers.rubric import rubric_for

    try:
        task = get_task(args.id)
    except KeyError:
        raise CliError(f"unknown task {args.id!r}; ids look like egobench/retail1/7, demo/retail/1 or "
                       f"artifacts/kitchen/4 (see `egoeval tasks list`)") from None
    facts = suite_of(task.id).expected_facts(task)
    rubric = rubric_for(task)
    if args.json:
        print(json.dumps({**task.to_dict(), "expected_facts": [f.to_dict() for f in facts],
                          "rubric": [{"id": i.id, "text": i.text} for i in rubric]}, ensure_ascii=False, indent=2))
        return EXIT_OK
    print(f"{task.id}  ({task.scenario}, seed {task.seed}, video {task.video})")
    print(f"\nInstruction:\n  {task.instruction.strip()}")
    if task.scene_description:
        print(f"\nScene:\n  {task.scene_description}")
    if task.key:
        print(f"\nVisual key: {task.key} = {', '.join(map(str, task.value))}")
    if task.analysis:
        print(f"\nAnalysis:\n  {' '.join(str(task.analysis).split())}")
    if facts:
        print("\nThe agent must tell the user:")
        for f in facts:
            tol = f" (within {100 * f.tolerance:g} %)" if f.relative else f" (within {f.tolerance:g})" if f.tolerance else ""
            print(f"  {f.value}{tol}: {f.label}")
    if rubric:
        print("\nRubric (egoeval judge):")
        for item in rubric:
            print(f"  {item.id}: {item.text}")
    print(f"\nGround truth ({len(task.ground_truth)} calls):")
    for n, call in enumerate(task.ground_truth, 1):
        params = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in (call.get("parameters") or {}).items())
        print(f"  {n}. {call.get('tool_name')}({params})")
    return EXIT_OK


def _check_videos(args: argparse.Namespace) -> int:
    from egoeval.cli_run import cmd_check_videos

    _suite(args.suite)
    return cmd_check_videos(args)


# --- egoeval score ----------------------------------------------------------------------

def _pct(x: float) -> str:
    return f"{100 * x:6.2f}"


def _rich_table(report: Any) -> bool:
    """On a terminal, the per-file table as a compact rich table (plain text otherwise)."""
    if not sys.stdout.isatty():
        return False
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"profile {report.profile}", show_edge=False, pad_edge=False)
    for name in ("file", "tasks", "Tool", "Result", "Joint", "Micro", "matched"):
        table.add_column(name, justify="left" if name == "file" else "right")
    rows = [(label, s) for label, s in report.files.items()] + [("overall", report.overall)]
    for label, s in rows:
        table.add_row(label, str(s["tasks"]), _pct(s["tool_success_rate"]), _pct(s["result_success_rate"]),
                      _pct(s["joint_success_rate"]), _pct(s["micro_acc"]), f"{s['matched_calls']}/{s['gt_calls']}",
                      style="bold" if label == "overall" else None, end_section=label == rows[-2][0] if len(rows) > 1 else False)
    Console().print(table)
    return True


def print_score_table(report: Any) -> None:
    if report.artifacts:
        _print_artifacts(report.artifacts)
        if not report.verdicts:
            for s in report.skipped:
                print(f"skipped: {s}", file=sys.stderr)
            return
    if not _rich_table(report):
        rows = [(label, s) for label, s in report.files.items()] + [("overall", report.overall)]
        width = max(len(r[0]) for r in rows)
        print(f"profile: {report.profile}")
        print(f"{'file':<{width}} {'tasks':>5} {'Tool':>7} {'Result':>7} {'Joint':>7} {'Micro':>7} {'matched':>13}")
        for label, s in rows:
            if label == "overall":
                print("-" * (width + 52))
            print(f"{label:<{width}} {s['tasks']:>5} {_pct(s['tool_success_rate']):>7} "
                  f"{_pct(s['result_success_rate']):>7} {_pct(s['joint_success_rate']):>7} {_pct(s['micro_acc']):>7} "
                  f"{s['matched_calls']:>6}/{s['gt_calls']:<6}")
    o = report.overall
    print(f"success counts: tool {o['tool_success']}, result {o['result_success']}, joint {o['joint_success']}; "
          f"pooled Micro {_pct(o['pooled_micro_acc']).strip()}%")
    if o.get("answers_tasks"):
        print(f"communicated answers (apart from joint success): {o['answers_passed']}/{o['answers_tasks']} tasks "
              f"that ask for a reported value stated every expected fact ({_pct(o['answers_rate']).strip()}%)")
    counts = o["error_category_counts"]
    if counts:
        print("error categories: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    excluded = [v for v in report.verdicts if v.excluded]
    if excluded:
        print(f"excluded by the {report.profile} profile: {len(excluded)} tasks (GT contradicts the instruction)")
    groups: dict[tuple[str, str], list[str]] = {}
    for inv in report.invalid:
        groups.setdefault((inv.scenario, inv.reason), []).append(str(inv.task_id))
    for (stem, reason), ids in groups.items():
        shown = ", ".join(ids[:12]) + (f", ... ({len(ids)} tasks)" if len(ids) > 12 else "")
        print(f"invalid (not counted): {stem} task {shown}: {reason}", file=sys.stderr)
    for s in report.skipped:
        print(f"skipped: {s}", file=sys.stderr)


def _print_artifacts(verdicts: list[dict]) -> None:
    from collections import Counter

    passed = sum(bool(v.get("joint_success")) for v in verdicts)
    print(f"artifact tasks: {len(verdicts)}, passed {passed} ({_pct(passed / len(verdicts)).strip()}%)")
    checks = Counter(v.get("self_verification") for v in verdicts)
    print("self-verification: " + ", ".join(f"{k} {n}" for k, n in checks.most_common()))
    failures = Counter(v.get("error_category") for v in verdicts if not v.get("joint_success"))
    if failures:
        print("failure categories: " + ", ".join(f"{k} {n}" for k, n in failures.most_common()))


def cmd_score(args: argparse.Namespace) -> int:
    from egoeval.scoring import score_paths, write_verdicts
    from egoeval.trajectory import BadInput

    _known_profile(args.profile)  # a log names each task's suite; --suite names that of results files
    if args.suite:
        use_data_dir(_suite(args.suite), args.egobench_dir)
    elif args.egobench_dir:
        raise CliError("--egobench-dir needs --suite (the suite whose data it holds, e.g. egobench2)")
    try:
        report = score_paths(args.files, args.profile, args.ground_truth, args.suite, args.include_partial)
    except BadInput as exc:
        raise CliError(str(exc)) from None
    if args.out:
        try:
            write_verdicts(report, args.out)
        except OSError as exc:
            raise CliError(f"{args.out}: cannot write: {exc.strerror or exc}") from None
    if args.json:
        print(json.dumps({"profile": report.profile, "files": report.files, "overall": report.overall,
                          "invalid": [vars(i) for i in report.invalid], "skipped": report.skipped,
                          "artifacts": report.artifacts},
                         ensure_ascii=False, indent=2))
    else:
        print_score_table(report)
        if args.out:
            print(f"verdicts: {args.out} ({len(report.verdicts)} tasks)")
    return EXIT_OK


# --- egoeval validate -------------------------------------------------------------------

def cmd_validate(args: argparse.Namespace) -> int:
    suite = _suite(args.suite)
    use_data_dir(suite, args.egobench_dir)
    report = suite.validate(_profile(suite, args.profile))
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        print("\n".join(report.lines()))
    return EXIT_OK if report.ok else EXIT_FAILED


# --- parser -------------------------------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors are bad input: exit 2, one line
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    from egoeval import __version__

    p = _Parser(prog="egoeval", description="Evaluate tool-using video-MLLM agents on egocentric tasks.")
    p.add_argument("--version", action="version", version=f"egoeval {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    sub.add_parser("suites", help="list the suites (built in and installed) and their profiles").set_defaults(
        func=cmd_suites)

    t = sub.add_parser("tasks", help="list and show the tasks of a suite")
    tsub = t.add_subparsers(dest="tasks_command", metavar="ACTION", parser_class=_Parser)
    tl = tsub.add_parser("list", help="list tasks")
    tl.add_argument("--suite", default="egobench", help="a suite name (egoeval suites lists them)")
    tl.add_argument("--scenario", help="one of the suite's scenarios, e.g. retail")
    tl.add_argument("--file", help="one task file, e.g. retail1")
    tl.add_argument("--json", action="store_true", help="one JSON object per line")
    tl.add_argument("--egobench-dir", metavar="DIR", help="a clone of the official EgoBench repository: read the "
                   "suite's tasks and seeds from it (default: EGOBENCH_DIR; egobench2 only)")
    tl.set_defaults(func=cmd_tasks_list)
    ts = tsub.add_parser("show", help="show one task")
    ts.add_argument("id", help="task id, e.g. egobench/retail1/7")
    ts.add_argument("--json", action="store_true")
    ts.set_defaults(func=cmd_tasks_show)
    tc = tsub.add_parser("check-videos", help="list the videos of a suite that --video-dir does not have")
    tc.add_argument("--suite", default="egobench")
    tc.add_argument("--video-dir", metavar="DIR", help="default: EGOEVAL_VIDEO_DIR")
    tc.set_defaults(func=_check_videos)

    s = sub.add_parser("score", help="score result files or logs without re-running them")
    s.add_argument("files", nargs="+", metavar="FILE",
                   help="EgoBench results files (<file>_<mode>.json), egoeval logs (.jsonl) or folders")
    s.add_argument("--profile", default=None,
                   help="a scoring profile of the suites scored (default: each suite's own; egobench: egobench "
                        "(official, quirks included) or strict)")
    s.add_argument("--suite", default=None,
                   help="the suite of results files (default: the first whose format takes the file name, "
                        "egobench before egobench2); logs name their own")
    s.add_argument("--ground-truth", choices=("pinned", "released"), default="pinned",
                   help="pinned: the suite's task files (default, as the official evaluator); released: the "
                        "ground truth published for the five test files")
    s.add_argument("--include-partial", action="store_true",
                   help="count results files missing some tasks in the overall figures (the newest evaluator's "
                        "--include_partial; the first release's evaluator always counts them)")
    s.add_argument("--out", metavar="V.jsonl", help="write one JSON verdict per task")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")
    s.add_argument("--egobench-dir", metavar="DIR", help="a clone of the official EgoBench repository: read the "
                   "suite's tasks and seeds from it (default: EGOBENCH_DIR; egobench2 only)")
    s.set_defaults(func=cmd_score)

    v = sub.add_parser("validate", help="self-test a suite: oracle, null agent, ground-truth defects")
    v.add_argument("--suite", default="egobench")
    v.add_argument("--profile", default=None, help="one of the suite's profiles (default: the suite's own)")
    v.add_argument("--json", action="store_true")
    v.add_argument("--egobench-dir", metavar="DIR", help="a clone of the official EgoBench repository: read the "
                   "suite's tasks and seeds from it (default: EGOBENCH_DIR; egobench2 only)")
    v.set_defaults(func=cmd_validate)

    from egoeval.cli_media import add_media_parser
    from egoeval.cli_docs import add_docs_parsers
    from egoeval.cli_judge import add_judge_parsers
    from egoeval.cli_report import add_report_parsers
    from egoeval.cli_run import add_run_parsers

    add_run_parsers(sub, _Parser)
    add_report_parsers(sub, _Parser)
    add_judge_parsers(sub, _Parser)
    add_docs_parsers(sub, _Parser)
    add_media_parser(sub, _Parser)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    args.argv = argv  # the command line as given (worker processes repeat it)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help() if args.command is None else parser.parse_args([args.command, "--help"])
        return EXIT_BAD_INPUT if args.command else EXIT_OK
    try:
        return func(args)
    except CliError as exc:
        print(f"egoeval: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SuiteDataError as exc:  # e.g. a broken file in the clone --egobench-dir names
        print(f"egoeval: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. `egoeval tasks list | head`
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
