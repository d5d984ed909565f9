"""``egoeval report`` and ``egoeval view``: tables and figures over runs and results, and
a static HTML viewer of episodes."""

from __future__ import annotations

import argparse
from pathlib import Path

from egoeval.cli_run import EXIT_OK


def add_report_parsers(sub, parser_class) -> None:
    rp = sub.add_parser("report", help="tables over runs and results: model x suite x scenario x mode, epochs, efficiency")
    rp.add_argument("inputs", nargs="+", metavar="LOG_OR_RESULTS", help="egoeval logs or log dirs, EgoBench results files or folders")
    rp.add_argument("--format", choices=("md", "json", "csv", "latex", "html"), default="md")
    rp.add_argument("--profile", default=None, help="a scoring profile of the suites reported (default: each suite's own)")
    rp.add_argument("--suite", default=None, help="the suite of results files (default: the first whose format takes the file name, "
                        "egobench before egobench2); logs name their own")
    rp.add_argument("--include-partial", action="store_true",
                    help="count results files missing some tasks (the newest evaluator leaves them out)")
    rp.add_argument("--out", metavar="PATH", help="write here instead of printing")
    rp.set_defaults(func=cmd_report)

    vw = sub.add_parser("view", help="a static HTML viewer of runs: episode list with filters, episode pages")
    vw.add_argument("logs", nargs="+", metavar="LOG_DIR")
    vw.add_argument("--out", metavar="DIR", help="where to write it (default: LOG_DIR/view)")
    vw.add_argument("--serve", action="store_true", help="serve it on 127.0.0.1")
    vw.add_argument("--port", type=int, default=8000)
    vw.set_defaults(func=cmd_view)



def cmd_report(args: argparse.Namespace) -> int:
    from egoeval.cli import CliError, _known_profile
    from egoeval.report import build, render
    from egoeval.trajectory import BadInput

    try:
        _known_profile(args.profile)
        text = render(build(args.inputs, args.profile, args.suite, args.include_partial), args.format)
    except BadInput as exc:
        raise CliError(str(exc)) from None
    if args.out:
        from egoeval.cli import out_file

        out_file(args.out).write_text(text, encoding="utf-8")
        print(f"report: {args.out}")
    else:
        print(text, end="")
    return EXIT_OK


def cmd_view(args: argparse.Namespace) -> int:
    from egoeval.cli import CliError, out_dir
    from egoeval.trajectory import BadInput
    from egoeval.viewer import build_viewer, serve

    for log in map(Path, args.logs):
        if not log.exists():
            raise CliError(f"{log}: no such log or log dir")
    first = Path(args.logs[0])
    out = out_dir(args.out if args.out else (first if first.is_dir() else first.parent) / "view")
    try:
        index = build_viewer(args.logs, out)
    except BadInput as exc:
        raise CliError(str(exc)) from None
    print(f"viewer: {index}")
    if args.serve:
        serve(out, args.port)
    return EXIT_OK
