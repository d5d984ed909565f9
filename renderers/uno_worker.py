"""A conversion worker that talks UNO to one long-lived LibreOffice.

Run by :mod:`egoeval.renderers.service` with a Python that has LibreOffice's ``uno``
module (Debian: ``/usr/bin/python3`` with ``python3-uno``), never imported by egoeval
itself. It connects to the ``soffice`` started for it (``--accept=pipe,name=NAME``) and
serves requests read from stdin, one JSON object per line, answering one JSON line each:

- ``{"id": 1, "op": "ping"}`` -> ``{"id": 1, "ok": true, "version": "7.4.7.2"}``
- ``{"id": 2, "op": "pdf", "src": PATH, "out": PATH}`` -> ``{"id": 2, "ok": true}`` or
  ``{"id": 2, "ok": false, "error": "..."}``
- ``{"id": 3, "op": "recalc", "src": PATH, "out": PATH}``: a spreadsheet with every
  formula computed by LibreOffice, saved as xlsx (so its cached values can be read)

Documents are opened hidden, read-only, without macros or update of links, exported
with the PDF filter of their kind, and closed. The worker keeps no state between
requests, so the parent can kill and replace it (and its soffice) at any time.
"""

import json
import sys
import time

import uno  # noqa: F401 - provided by LibreOffice
from com.sun.star.beans import PropertyValue  # type: ignore[import-not-found]

FILTERS = {
    "com.sun.star.presentation.PresentationDocument": "impress_pdf_Export",
    "com.sun.star.drawing.DrawingDocument": "draw_pdf_Export",
    "com.sun.star.sheet.SpreadsheetDocument": "calc_pdf_Export",
    "com.sun.star.text.TextDocument": "writer_pdf_Export",
}


def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def connect(pipe, deadline):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    while True:
        try:
            ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
            return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx), ctx
        except Exception:  # noqa: BLE001 - soffice is still starting
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def version(ctx):
    provider = ctx.ServiceManager.createInstanceWithContext("com.sun.star.configuration.ConfigurationProvider", ctx)
    access = provider.createInstanceWithArguments(
        "com.sun.star.configuration.ConfigurationAccess", (prop("nodepath", "/org.openoffice.Setup/Product"),))
    return f"{access.getByName('ooSetupVersionAboutBox')}{access.getByName('ooSetupExtension')}"


def to_pdf(desktop, src, out):
    url = uno.systemPathToFileUrl(src)
    doc = desktop.loadComponentFromURL(url, "_blank", 0, (
        prop("Hidden", True), prop("ReadOnly", True), prop("MacroExecutionMode", 0),
        prop("UpdateDocMode", 0), prop("RepairPackage", False), prop("Silent", True)))
    if doc is None:
        raise RuntimeError("LibreOffice could not open the document (unknown or broken format)")
    try:
        kind = next((f for service, f in FILTERS.items() if doc.supportsService(service)), None)
        if kind is None:
            raise RuntimeError("not a document LibreOffice can export to PDF")
        doc.storeToURL(uno.systemPathToFileUrl(out), (prop("FilterName", kind),))
    finally:
        doc.close(True)


def recalc(desktop, src, out):
    doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(src), "_blank", 0, (
        prop("Hidden", True), prop("MacroExecutionMode", 0), prop("UpdateDocMode", 0), prop("Silent", True)))
    if doc is None:
        raise RuntimeError("LibreOffice could not open the spreadsheet")
    try:
        if not doc.supportsService("com.sun.star.sheet.SpreadsheetDocument"):
            raise RuntimeError("not a spreadsheet")
        doc.calculateAll()
        doc.storeToURL(uno.systemPathToFileUrl(out), (prop("FilterName", "Calc Office Open XML"),))
    finally:
        doc.close(True)


def main():
    pipe = sys.argv[1]
    desktop, ctx = connect(pipe, time.monotonic() + float(sys.argv[2] if len(sys.argv) > 2 else 60))
    ver = version(ctx)
    print(json.dumps({"id": 0, "ok": True, "ready": True, "version": ver}), flush=True)
    for line in sys.stdin:
        try:
            req = json.loads(line)
        except ValueError:
            continue
        answer = {"id": req.get("id"), "ok": True}
        try:
            if req.get("op") == "ping":  # a round trip to LibreOffice itself, not just to this worker
                answer["version"] = ver
                answer["frames"] = desktop.getFrames().getCount()
            elif req.get("op") == "pdf":
                to_pdf(desktop, req["src"], req["out"])
            elif req.get("op") == "recalc":
                recalc(desktop, req["src"], req["out"])
            else:
                raise ValueError(f"unknown op {req.get('op')!r}")
        except Exception as exc:  # noqa: BLE001 - every failure is an answer
            answer = {"id": req.get("id"), "ok": False, "error": f"{type(exc).__name__}: {exc}"[:500]}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
