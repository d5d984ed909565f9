"""``egoeval render`` / ``inspect`` / ``check``: documents to pages, their structure, and
a task's criteria on them. RenderError and bad criteria are one-line errors (exit 2)."""

from __future__ import annotations

import argparse

from egoeval.cli_run import EXIT_OK, _positive


def add_docs_parsers(sub, parser_class) -> None:
    d = sub.add_parser("render", help="render a document (pptx, docx, xlsx, odp/odt/ods, pdf) to PNG pages")
    d.add_argument("file")
    d.add_argument("--out", metavar="DIR", help="copy the PDF and pages here (default: print cache paths)")
    d.add_argument("--dpi", type=_positive(int), default=96)
    d.add_argument("--timeout", type=_positive(float), default=60.0, metavar="S")
    d.add_argument("--json", action="store_true")
    d.set_defaults(func=cmd_render)

    n = sub.add_parser("inspect", help="the structure of a pptx, docx or xlsx file (shapes, headings, formulas ...)")
    n.add_argument("file")
    n.add_argument("--json", action="store_true")
    n.set_defaults(func=cmd_inspect)

    c = sub.add_parser("check", help="check a file against a task's criteria (exit 1 when one fails)")
    c.add_argument("file", help="the file, or the folder (workspace) holding the file the criteria name")
    c.add_argument("--criteria", required=True, metavar="FILE", help="criteria as JSON or YAML")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_check)



def cmd_render(args: argparse.Namespace) -> int:
    import json

    from egoeval.cli import CliError
    from egoeval.renderers.render import render
    from egoeval.renderers.service import RenderError

    if args.out:
        from egoeval.cli import out_dir

        out_dir(args.out)
    try:
        result = render(args.file, args.out, dpi=args.dpi, timeout=args.timeout)
    except RenderError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(f"{result.pdf} ({len(result.pages)} pages at {result.dpi} dpi, {result.seconds:.2f} s"
              f"{', cached' if result.cached else ''}; LibreOffice {result.libreoffice})")
        for page in result.pages:
            print(f"  {page}")
    return EXIT_OK


def cmd_inspect(args: argparse.Namespace) -> int:
    import json

    from egoeval.cli import CliError
    from egoeval.renderers.inspect import inspect
    from egoeval.renderers.service import RenderError

    try:
        found = inspect(args.file)
    except RenderError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps(found, indent=2, ensure_ascii=False, default=str))
        return EXIT_OK
    if found["type"] == "pptx":
        print(f"{found['file']}: {len(found['slides'])} slides, {found['slide_width']} x {found['slide_height']} pt")
        for slide in found["slides"]:
            print(f"  slide {slide['number']} ({slide['layout']}): {len(slide['shapes'])} shapes"
                  + (f", {len(slide['overlaps'])} overlaps" if slide["overlaps"] else ""))
            for sh in slide["shapes"]:
                sizes = sorted({r["size"] for r in sh.get("runs", []) if r["size"]})
                print(f"    {sh['kind']:<7} {sh['name']!r} at ({sh['left']}, {sh['top']}) {sh['width']} x "
                      f"{sh['height']} pt" + (f", text {sh['text'][:40]!r}" if sh.get("text") else "")
                      + (f", {'/'.join(map(str, sizes))} pt" if sizes else "") + (", OFF THE SLIDE" if sh["off_slide"] else ""))
    elif found["type"] == "docx":
        print(f"{found['file']}: {len(found['paragraphs'])} paragraphs, {len(found['tables'])} tables, "
              f"{len(found['pictures'])} pictures, {found['words']} words")
        for h in found["headings"]:
            print(f"  {'  ' * (h['level'] or 0)}H{h['level']} {h['text']}")
    else:
        for sheet in found["sheets"]:
            print(f"{found['file']} [{sheet['name']}] {sheet['dimensions']}")
            for c in sheet["cells"]:
                formula = f" = {c['formula']}" if "formula" in c else ""
                print(f"  {c['cell']:<6}{formula} -> {c['value']!r}")
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    import json

    from egoeval.cli import EXIT_FAILED, CliError
    from egoeval.verifiers.artifact import BadCriteria, check_artifact

    try:
        verdict = check_artifact(args.file, args.criteria)
    except (BadCriteria, OSError, ValueError) as exc:
        raise CliError(f"{args.criteria}: {exc}") from None
    if args.json:
        print(json.dumps(verdict.to_dict(), indent=2, ensure_ascii=False))
    else:
        for c in verdict.criteria:
            print(f"{'PASS' if c.passed else 'FAIL'}  {c.id:<20} {c.evidence}")
        print(f"{verdict.file}: {'passed' if verdict.passed else 'failed'} "
              f"({sum(c.passed for c in verdict.criteria)}/{len(verdict.criteria)} criteria)")
    return EXIT_OK if verdict.passed else EXIT_FAILED
