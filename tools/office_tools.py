"""Agent-facing office tools: make slides, documents and workbooks, and look at them.

Every tool works on a file in the episode's :class:`~egoeval.tools.workspace.Workspace`:
it opens the file, makes one change, saves it, and says what it did (each call is a
whole edit, so nothing is lost between calls and the file on disk is always the truth).
Positions and sizes are in points (1/72 inch); a slide is 720 x 540 points.

``render_to_image`` is the inspect step: it renders a file's pages (LibreOffice, the
shared conversion service) and returns them as images, so the agent can check what it
made and revise. ``read_file`` returns the file's structure only (shapes, headings,
cells): looking at it is not the same as seeing it, and the self-verification analysis
tells the two apart.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from egoeval.tools.registry import ToolError, ToolImage, ToolOutput
from egoeval.tools.toolset import Toolset, prop
from egoeval.tools.workspace import Workspace

PPTX, DOCX, XLSX = (".pptx",), (".docx",), (".xlsx",)
LAYOUTS = {"title": 0, "title_and_content": 1, "blank": 6}
_CELL = re.compile(r"^[A-Z]{1,3}[1-9][0-9]{0,6}$")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _file(description: str = "Workspace file name.") -> dict:
    return prop("string", description)


def _box() -> dict:
    return {"left": prop("number", "Distance from the left edge, points.", minimum=0, maximum=5000),
            "top": prop("number", "Distance from the top edge, points.", minimum=0, maximum=5000),
            "width": prop("number", "Width, points.", minimum=1, maximum=5000),
            "height": prop("number", "Height, points.", minimum=1, maximum=5000)}


class OfficeTools(Toolset):
    """The office tools of one episode (see the module docstring)."""

    def __init__(self, workspace: Workspace, service: Any = None, dpi: int = 72, max_pages: int = 8) -> None:
        super().__init__(workspace)
        self.service, self.dpi, self.max_pages = service, dpi, max_pages
        obj = lambda required, **props: {"type": "object", "required": required, "properties": props}  # noqa: E731
        self.add("create_presentation", obj(["file_name"], file_name=_file("New .pptx file.")), self.create_presentation)
        self.add("add_slide", obj(["file_name"], file_name=_file(), layout=prop(
            "string", "Slide layout (default blank).", enum=list(LAYOUTS))), self.add_slide)
        self.add("add_text", obj(["file_name", "slide", "text", "left", "top", "width", "height"],
                                 file_name=_file(), slide=prop("integer", "Slide number, from 1.", minimum=1),
                                 text=prop("string", "The text; new lines start new paragraphs."), **_box(),
                                 font_size=prop("number", "Font size in points (default 18).", minimum=4, maximum=400),
                                 bold=prop("boolean", "Bold text."),
                                 colour=prop("string", "Text colour as #RRGGBB.")), self.add_text)
        self.add("add_picture", obj(["file_name", "image"], file_name=_file(),
                                    image=prop("string", "Workspace image (.png or .jpg), e.g. from save_frame."),
                                    slide=prop("integer", "Slide number (presentations only).", minimum=1),
                                    left=_box()["left"], top=_box()["top"], width=_box()["width"]), self.add_picture)
        self.add("add_table", obj(["file_name", "rows"], file_name=_file(),
                                  rows=prop("array", "Rows of cell texts.", items={"type": "array",
                                                                                   "items": {"type": "string"}}),
                                  slide=prop("integer", "Slide number (presentations only).", minimum=1),
                                  **_box()), self.add_table)
        self.add("create_document", obj(["file_name"], file_name=_file("New .docx file.")), self.create_document)
        self.add("add_heading", obj(["file_name", "text"], file_name=_file(), text=prop("string", "Heading text."),
                                    level=prop("integer", "Heading level 1-4 (default 1).", minimum=0, maximum=4)),
                 self.add_heading)
        self.add("add_paragraph", obj(["file_name", "text"], file_name=_file(), text=prop("string", "Paragraph text."),
                                      bold=prop("boolean", "Bold text.")), self.add_paragraph)
        self.add("create_workbook", obj(["file_name"], file_name=_file("New .xlsx file."),
                                        sheet=prop("string", "Name of the first sheet (default Sheet1).")),
                 self.create_workbook)
        self.add("set_cell", obj(["file_name", "cell", "value"], file_name=_file(),
                                 cell=prop("string", "Cell like B4."),
                                 value=prop(["string", "number"], "Text, a number, or a formula starting with '='."),
                                 sheet=prop("string", "Sheet name (default: the first)."),
                                 number_format=prop("string", "Excel number format, e.g. 0.00 or 0%.")), self.set_cell)
        self.add("set_column_width", obj(["file_name", "column", "width"], file_name=_file(),
                                         column=prop("string", "Column letter(s), e.g. A."),
                                         width=prop("number", "Width in characters.", minimum=1, maximum=255),
                                         sheet=prop("string", "Sheet name (default: the first).")),
                 self.set_column_width)
        self.add("list_files", obj([]), self.list_files)
        self.add("read_file", obj(["file_name"], file_name=_file()), self.read_file)
        self.add("render_to_image", obj(["file_name"], file_name=_file(), pages=prop(
            "array", "Page (slide) numbers to show, from 1 (default: all, up to 8).", items={"type": "integer"})),
            self.render_to_image)

    @property
    def failures(self):  # type: ignore[override]
        from egoeval.renderers.service import RenderError

        return ((RenderError, "render_error"),)

    # --- presentations --------------------------------------------------------------
    def _deck(self, file_name: str):
        from pptx import Presentation

        return Presentation(str(self.workspace_file(file_name, PPTX, must_exist=True)))

    def _save(self, doc: Any, file_name: str, suffixes: tuple[str, ...]) -> Path:
        path = self.workspace_file(file_name, suffixes)
        path.parent.mkdir(parents=True, exist_ok=True)
        doc.save(str(path))
        self.need_workspace().enforce_quota(path)
        return path

    def _slide(self, prs: Any, number: int | None):
        if number is None or not 1 <= number <= len(prs.slides):
            raise ToolError(f"slide {number} does not exist (the presentation has {len(prs.slides)} slides)")
        return prs.slides[number - 1]

    def create_presentation(self, file_name: str) -> ToolOutput:
        """Create an empty presentation (.pptx, 720 x 540 points per slide)."""
        from pptx import Presentation

        self._save(Presentation(), file_name, PPTX)
        return ToolOutput({"file": file_name, "slides": 0, "slide_width": 720, "slide_height": 540},
                          artifacts=[file_name])

    def add_slide(self, file_name: str, layout: str = "blank") -> ToolOutput:
        """Add a slide at the end of a presentation."""
        prs = self._deck(file_name)
        prs.slides.add_slide(prs.slide_layouts[LAYOUTS[layout]])
        self._save(prs, file_name, PPTX)
        return ToolOutput({"file": file_name, "slide": len(prs.slides)}, artifacts=[file_name])

    def add_text(self, file_name: str, slide: int, text: str, left: float, top: float, width: float,
                 height: float, font_size: float = 18, bold: bool = False, colour: str | None = None) -> ToolOutput:
        """Put a text box on a slide, at a position and size in points, with a font size."""
        from pptx.dml.color import RGBColor
        from pptx.util import Pt

        if colour is not None and not _COLOUR.match(colour):
            raise ToolError(f"colour must look like #1A2B3C, not {colour!r}")
        prs = self._deck(file_name)
        box = self._slide(prs, slide).shapes.add_textbox(Pt(left), Pt(top), Pt(width), Pt(height))
        box.text_frame.word_wrap = True
        for n, line in enumerate(text.split("\n")):
            paragraph = box.text_frame.paragraphs[0] if n == 0 else box.text_frame.add_paragraph()
            run = paragraph.add_run()
            run.text, run.font.size, run.font.bold = line, Pt(font_size), bold
            if colour:
                run.font.color.rgb = RGBColor.from_string(colour[1:].upper())
        self._save(prs, file_name, PPTX)
        return ToolOutput({"file": file_name, "slide": slide, "shape_id": box.shape_id}, artifacts=[file_name])

    def add_picture(self, file_name: str, image: str, slide: int | None = None, left: float = 36,
                    top: float = 36, width: float | None = None) -> ToolOutput:
        """Insert a workspace image into a slide (at a position, points) or at the end of a document."""
        from pptx.util import Pt

        picture = self.workspace_file(image, (".png", ".jpg", ".jpeg"), must_exist=True)
        if Path(file_name).suffix.lower() == ".docx":
            doc = self._document(file_name)
            doc.add_picture(str(picture), width=Pt(width) if width else None)
            self._save(doc, file_name, DOCX)
            return ToolOutput({"file": file_name, "image": image}, artifacts=[file_name])
        prs = self._deck(file_name)
        shape = self._slide(prs, slide).shapes.add_picture(str(picture), Pt(left), Pt(top),
                                                           width=Pt(width) if width else None)
        self._save(prs, file_name, PPTX)
        return ToolOutput({"file": file_name, "slide": slide, "shape_id": shape.shape_id, "image": image,
                           "width": round(shape.width / 12700, 1), "height": round(shape.height / 12700, 1)},
                          artifacts=[file_name])

    def add_table(self, file_name: str, rows: list, slide: int | None = None, left: float = 36, top: float = 100,
                  width: float = 648, height: float = 200) -> ToolOutput:
        """Add a table of texts to a slide (at a position, points) or at the end of a document."""
        from pptx.util import Pt

        if not rows or not all(isinstance(r, list) and r for r in rows):
            raise ToolError("rows must be a non-empty list of non-empty lists of cell texts")
        ncols = max(len(r) for r in rows)
        if Path(file_name).suffix.lower() == ".docx":
            doc = self._document(file_name)
            table = doc.add_table(rows=len(rows), cols=ncols)
            for i, row in enumerate(rows):
                for j, cell in enumerate(row):
                    table.cell(i, j).text = str(cell)
            self._save(doc, file_name, DOCX)
            return ToolOutput({"file": file_name, "rows": len(rows), "columns": ncols}, artifacts=[file_name])
        prs = self._deck(file_name)
        shape = self._slide(prs, slide).shapes.add_table(len(rows), ncols, Pt(left), Pt(top), Pt(width), Pt(height))
        for i, row in enumerate(rows):
            for j, cell in enumerate(row):
                shape.table.cell(i, j).text = str(cell)
        self._save(prs, file_name, PPTX)
        return ToolOutput({"file": file_name, "slide": slide, "shape_id": shape.shape_id, "rows": len(rows),
                           "columns": ncols}, artifacts=[file_name])

    # --- documents --------------------------------------------------------------------
    def _document(self, file_name: str):
        from docx import Document

        return Document(str(self.workspace_file(file_name, DOCX, must_exist=True)))

    def create_document(self, file_name: str) -> ToolOutput:
        """Create an empty text document (.docx)."""
        from docx import Document

        self._save(Document(), file_name, DOCX)
        return ToolOutput({"file": file_name}, artifacts=[file_name])

    def add_heading(self, file_name: str, text: str, level: int = 1) -> ToolOutput:
        """Add a heading at the end of a document."""
        doc = self._document(file_name)
        doc.add_heading(text, level=level)
        self._save(doc, file_name, DOCX)
        return ToolOutput({"file": file_name, "heading": text, "level": level}, artifacts=[file_name])

    def add_paragraph(self, file_name: str, text: str, bold: bool = False) -> ToolOutput:
        """Add a paragraph of text at the end of a document."""
        doc = self._document(file_name)
        doc.add_paragraph().add_run(text).bold = bold
        self._save(doc, file_name, DOCX)
        return ToolOutput({"file": file_name, "paragraphs": len(doc.paragraphs)}, artifacts=[file_name])

    # --- workbooks --------------------------------------------------------------------
    def create_workbook(self, file_name: str, sheet: str = "Sheet1") -> ToolOutput:
        """Create an empty workbook (.xlsx) with one sheet."""
        from openpyxl import Workbook

        wb = Workbook()
        wb.active.title = sheet
        self._save(wb, file_name, XLSX)
        return ToolOutput({"file": file_name, "sheets": [sheet]}, artifacts=[file_name])

    def set_cell(self, file_name: str, cell: str, value: str | float, sheet: str | None = None,
                 number_format: str | None = None) -> ToolOutput:
        """Write a cell: text, a number, or a formula (starting with '=')."""
        from openpyxl import load_workbook

        if not _CELL.match(cell.upper()):
            raise ToolError(f"{cell!r} is not a cell reference like B4")
        wb = load_workbook(str(self.workspace_file(file_name, XLSX, must_exist=True)))
        if sheet is not None and sheet not in wb.sheetnames:
            raise ToolError(f"no sheet {sheet!r} (sheets: {', '.join(wb.sheetnames)})")
        ws = wb[sheet] if sheet else wb.worksheets[0]
        stored: Any = value
        if isinstance(value, str) and not value.startswith("="):
            try:  # "208" is the number 208, as a person typing it into a cell means
                stored = float(value) if any(ch in value for ch in ".eE") else int(value)
            except ValueError:
                stored = value
        ws[cell.upper()] = stored
        if number_format:
            ws[cell.upper()].number_format = number_format
        self._save(wb, file_name, XLSX)
        kind = "formula" if isinstance(stored, str) and stored.startswith("=") else type(stored).__name__
        return ToolOutput({"file": file_name, "sheet": ws.title, "cell": cell.upper(), "stored_as": kind},
                          artifacts=[file_name])

    def set_column_width(self, file_name: str, column: str, width: float, sheet: str | None = None) -> ToolOutput:
        """Set a column's width (in characters), so long texts are not cut off when shown."""
        from openpyxl import load_workbook

        if not re.fullmatch(r"[A-Za-z]{1,3}", column):
            raise ToolError(f"{column!r} is not a column letter like A")
        wb = load_workbook(str(self.workspace_file(file_name, XLSX, must_exist=True)))
        if sheet is not None and sheet not in wb.sheetnames:
            raise ToolError(f"no sheet {sheet!r} (sheets: {', '.join(wb.sheetnames)})")
        ws = wb[sheet] if sheet else wb.worksheets[0]
        ws.column_dimensions[column.upper()].width = width
        self._save(wb, file_name, XLSX)
        return ToolOutput({"file": file_name, "sheet": ws.title, "column": column.upper(), "width": width},
                          artifacts=[file_name])

    # --- looking --------------------------------------------------------------------------
    def list_files(self) -> ToolOutput:
        """List the files in the workspace with their sizes."""
        return ToolOutput({"files": self.need_workspace().files()})

    def read_file(self, file_name: str) -> ToolOutput:
        """Read a file's structure (shapes with positions and font sizes, headings, cells and formulas)."""
        from egoeval.renderers.inspect import inspect

        return ToolOutput(inspect(self.workspace_file(file_name, PPTX + DOCX + XLSX, must_exist=True), self.service))

    def render_to_image(self, file_name: str, pages: list | None = None) -> ToolOutput:
        """Render a file's pages (slides) to images and look at them, to check what you made."""
        from egoeval.media.encode import encode_image
        from egoeval.renderers.render import render

        path = self.workspace_file(file_name, PPTX + DOCX + XLSX + (".pdf",), must_exist=True)
        result = render(path, dpi=self.dpi, service=self.service)
        wanted = pages or list(range(1, len(result.pages) + 1))
        if not all(isinstance(p, int) and 1 <= p <= len(result.pages) for p in wanted):
            raise ToolError(f"pages must be numbers from 1 to {len(result.pages)}")
        import cv2

        images = []
        for p in wanted[: self.max_pages]:
            rgb = cv2.cvtColor(cv2.imread(result.pages[p - 1]), cv2.COLOR_BGR2RGB)
            images.append(ToolImage(encode_image(rgb, "jpeg", 85, 300_000), "image/jpeg", f"{file_name}, page {p}"))
        return ToolOutput({"file": file_name, "pages": len(result.pages), "shown": wanted[: self.max_pages],
                           "renderer": f"LibreOffice {result.libreoffice}"}, images)
