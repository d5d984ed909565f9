"""What is inside a pptx, docx or xlsx: the structure verifiers check and agents read.

``inspect(path)`` returns plain JSON-able data:

- **pptx**: slide size; per slide its layout and shapes, each with kind, position and
  size in points, text runs (text, size in points, bold, colour), pictures (with the
  SHA-256 of the image), placeholders; shapes that leave the slide; pairs of shapes
  that overlap (with the overlapping area).
- **docx**: the heading hierarchy, paragraphs with their styles, tables (cell texts),
  pictures, sections (page size and orientation).
- **xlsx**: sheets with every non-empty cell: its value, its formula (when it has one)
  and the value LibreOffice computes for that formula, and its number format.

Sizes are in points (1/72 inch) everywhere. Files are read, never modified. A file
that is not what its name says raises :class:`~egoeval.renderers.service.RenderError`.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path
from typing import Any

from .service import ConversionService, RenderError, precheck

EMU_PER_PT = 12700


def _pt(emu: Any) -> float | None:
    return None if emu is None else round(int(emu) / EMU_PER_PT, 2)


def _colour(font: Any) -> str | None:
    try:
        rgb = font.color.rgb if font.color is not None and font.color.type is not None else None
    except (AttributeError, ValueError):
        rgb = None
    return f"#{rgb}" if rgb is not None else None


def _runs(text_frame: Any) -> list[dict]:
    out = []
    for paragraph in text_frame.paragraphs:
        for run in paragraph.runs:
            out.append({"text": run.text, "size": run.font.size.pt if run.font.size else None,
                        "bold": run.font.bold, "colour": _colour(run.font)})
    return out


def _box(shape: Any) -> dict:
    return {"left": _pt(shape.left), "top": _pt(shape.top), "width": _pt(shape.width), "height": _pt(shape.height)}


def overlap_area(a: dict, b: dict) -> float:
    """Area (square points) shared by two boxes."""
    if None in (a["left"], a["top"], a["width"], a["height"], b["left"], b["top"], b["width"], b["height"]):
        return 0.0
    w = min(a["left"] + a["width"], b["left"] + b["width"]) - max(a["left"], b["left"])
    h = min(a["top"] + a["height"], b["top"] + b["height"]) - max(a["top"], b["top"])
    return round(max(0.0, w) * max(0.0, h), 2)


def _kind(shape: Any) -> str:
    from pptx.enum.shapes import MSO_SHAPE_TYPE
    from pptx.shapes.picture import Picture

    if isinstance(shape, Picture):
        return "picture"
    if getattr(shape, "has_table", False):
        return "table"
    if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
        return "group"
    return "text" if getattr(shape, "has_text_frame", False) else "shape"


def inspect_pptx(path: Path) -> dict:
    from pptx import Presentation

    prs = Presentation(str(path))
    width, height = _pt(prs.slide_width), _pt(prs.slide_height)
    slides = []
    for number, slide in enumerate(prs.slides, 1):
        shapes = []
        for shape in slide.shapes:
            kind = _kind(shape)
            entry: dict[str, Any] = {"id": shape.shape_id, "name": shape.name, "kind": kind, **_box(shape)}
            if shape.is_placeholder:
                entry["placeholder"] = str(shape.placeholder_format.type).split(".")[-1].split(" ")[0].lower()
            if getattr(shape, "has_text_frame", False) and shape.has_text_frame:
                entry["text"] = shape.text_frame.text
                entry["runs"] = _runs(shape.text_frame)
            if kind == "picture":
                blob = shape.image.blob
                entry["image"] = {"sha256": hashlib.sha256(blob).hexdigest(), "content_type": shape.image.content_type,
                                  "pixels": list(shape.image.size)}
            if kind == "table":
                entry["cells"] = [[cell.text for cell in row.cells] for row in shape.table.rows]
            box = _box(shape)
            entry["off_slide"] = None not in box.values() and (
                box["left"] < 0 or box["top"] < 0 or box["left"] + box["width"] > width + 0.5
                or box["top"] + box["height"] > height + 0.5)
            shapes.append(entry)
        overlaps = [{"a": a["id"], "b": b["id"], "area": area}
                    for i, a in enumerate(shapes) for b in shapes[i + 1:] if (area := overlap_area(a, b)) > 0]
        slides.append({"number": number, "layout": slide.slide_layout.name, "shapes": shapes, "overlaps": overlaps})
    return {"type": "pptx", "slide_width": width, "slide_height": height, "slides": slides}


def inspect_docx(path: Path) -> dict:
    from docx import Document
    from docx.oxml.ns import qn

    doc = Document(str(path))
    paragraphs, headings = [], []
    for p in doc.paragraphs:
        style = p.style.name if p.style is not None else None
        paragraphs.append({"style": style, "text": p.text})
        if style and (style.startswith("Heading") or style == "Title"):
            level = 0 if style == "Title" else int(style.split()[-1]) if style.split()[-1].isdigit() else None
            headings.append({"level": level, "text": p.text})
    tables = [{"rows": len(t.rows), "columns": len(t.columns), "cells": [[c.text for c in r.cells] for r in t.rows]}
              for t in doc.tables]
    pictures = []
    for rel in doc.part.rels.values():
        if "image" in rel.reltype:
            blob = rel.target_part.blob
            pictures.append({"sha256": hashlib.sha256(blob).hexdigest(), "content_type": rel.target_part.content_type})
    inline = len(doc.element.body.findall(".//" + qn("w:drawing")))
    sections = [{"page_width": _pt(s.page_width), "page_height": _pt(s.page_height),
                 "orientation": str(s.orientation).split(".")[-1].split(" ")[0].lower()} for s in doc.sections]
    words = sum(len(p["text"].split()) for p in paragraphs) + sum(
        len(c.split()) for t in tables for row in t["cells"] for c in row)
    return {"type": "docx", "headings": headings, "paragraphs": paragraphs, "tables": tables, "pictures": pictures,
            "drawings": inline, "sections": sections, "words": words}


def inspect_xlsx(path: Path, service: ConversionService | None = None) -> dict:
    """Cells with values, formulas and (with LibreOffice) the formulas' computed values."""
    import tempfile

    from openpyxl import load_workbook

    formulas = load_workbook(str(path), data_only=False)
    computed = None
    has_formula = any(isinstance(c.value, str) and c.value.startswith("=")
                      for ws in formulas.worksheets for row in ws.iter_rows() for c in row)
    if has_formula:
        from .render import shared_service

        with tempfile.TemporaryDirectory(prefix="egoeval-recalc-") as tmp:
            out = (service or shared_service()).recalc(path, Path(tmp) / "computed.xlsx")
            computed = load_workbook(str(out), data_only=True)
    sheets = []
    for ws in formulas.worksheets:
        cells = []
        for row in ws.iter_rows():
            for cell in row:
                if cell.value is None:
                    continue
                entry: dict[str, Any] = {"cell": cell.coordinate, "number_format": cell.number_format}
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    entry["formula"] = cell.value
                    value = computed[ws.title][cell.coordinate].value if computed is not None else None
                    entry["value"] = value
                else:
                    entry["value"] = cell.value if isinstance(cell.value, (int, float, str, bool)) else str(cell.value)
                cells.append(entry)
        sheets.append({"name": ws.title, "dimensions": ws.dimensions, "cells": cells})
    return {"type": "xlsx", "sheets": sheets}


def inspect(path: str | Path, service: ConversionService | None = None) -> dict:
    """The structure of a pptx, docx or xlsx file (see the module docstring)."""
    p = Path(path)
    precheck(p)
    kind = p.suffix.lower()
    readers = {".pptx": inspect_pptx, ".docx": inspect_docx, ".xlsx": lambda x: inspect_xlsx(x, service)}
    if kind not in readers:
        raise RenderError(f"{p.name}: can inspect .pptx, .docx and .xlsx files, not {kind or 'files without a type'}")
    try:
        return {"file": p.name, **readers[kind](p)}
    except (zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise RenderError(f"{p.name}: not a readable {kind} file ({type(exc).__name__}: {exc})") from None
