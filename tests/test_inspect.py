"""Structural inspectors on documents built with python-pptx, python-docx and openpyxl;
formula values computed by a real LibreOffice."""

import json
import shutil

import numpy as np
import pytest

from egoeval.cli import main
from egoeval.renderers.inspect import inspect, overlap_area
from egoeval.renderers.service import ConversionService, RenderError

from test_render import document, workbook


@pytest.fixture(scope="module")
def service():
    with ConversionService(size=1) as svc:
        yield svc


def picture(tmp_path):
    import cv2

    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), np.full((90, 160, 3), (30, 120, 200), np.uint8))
    return path


def recipe_slide(tmp_path):
    from pptx import Presentation
    from pptx.dml.color import RGBColor
    from pptx.util import Inches, Pt

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])  # blank
    title = slide.shapes.add_textbox(Inches(0.5), Inches(0.3), Inches(9), Inches(1))
    run = title.text_frame.paragraphs[0].add_run()
    run.text, run.font.size, run.font.bold = "Pork & chive dumplings", Pt(32), True
    run.font.color.rgb = RGBColor(0xC0, 0x10, 0x10)
    slide.shapes.add_picture(str(picture(tmp_path)), Inches(0.5), Inches(1.5), width=Inches(4))
    slide.shapes.add_textbox(Inches(3.5), Inches(2), Inches(3), Inches(1)).text_frame.text = "Overlaps the frame"
    slide.shapes.add_textbox(Inches(8), Inches(6.5), Inches(4), Inches(2)).text_frame.text = "Falls off"
    path = tmp_path / "recipe.pptx"
    prs.save(path)
    return path


def test_pptx_shapes_runs_pictures_overlaps_and_off_slide(tmp_path):
    found = inspect(recipe_slide(tmp_path))
    assert found["type"] == "pptx" and (found["slide_width"], found["slide_height"]) == (720.0, 540.0)
    [slide] = found["slides"]
    title, pic, note, off = slide["shapes"]
    assert title["runs"] == [{"text": "Pork & chive dumplings", "size": 32.0, "bold": True, "colour": "#C01010"}]
    assert (title["left"], title["top"], title["width"]) == (36.0, 21.6, 648.0)
    import hashlib

    assert pic["kind"] == "picture" and pic["image"]["sha256"] == hashlib.sha256(
        (tmp_path / "frame.png").read_bytes()).hexdigest() and pic["image"]["pixels"] == [160, 90]
    assert [(o["a"], o["b"]) for o in slide["overlaps"]] == [(pic["id"], note["id"])]
    assert [s["off_slide"] for s in slide["shapes"]] == [False, False, False, True]


def test_overlap_area():
    box = lambda l, t, w, h: {"left": l, "top": t, "width": w, "height": h}  # noqa: E731
    assert overlap_area(box(0, 0, 10, 10), box(5, 5, 10, 10)) == 25
    assert overlap_area(box(0, 0, 10, 10), box(10, 0, 5, 5)) == 0


def test_docx_headings_tables_pictures_sections(tmp_path):
    from docx import Document

    path = document(tmp_path / "receipt.docx")
    doc = Document(str(path))
    doc.add_picture(str(picture(tmp_path)))
    doc.save(path)
    found = inspect(path)
    assert found["headings"] == [{"level": 1, "text": "Order receipt"}, {"level": 2, "text": "Items"}]
    assert found["tables"][0]["cells"] == [["Moussaka", "2"], ["Greek Salad", "1"]]
    assert len(found["pictures"]) == 1 and found["drawings"] == 1
    assert found["sections"][0]["orientation"] == "portrait" and found["words"] >= 8


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_xlsx_formulas_with_the_values_libreoffice_computes(service, tmp_path):
    from openpyxl import load_workbook

    path = workbook(tmp_path / "budget.xlsx")
    wb = load_workbook(path)
    wb.active["C2"] = 0.9
    wb.active["C2"].number_format = "0%"
    wb.active["D2"] = "=B2*C2"
    wb.save(path)
    cells = {c["cell"]: c for c in inspect(path, service)["sheets"][0]["cells"]}
    assert cells["B4"] == {"cell": "B4", "number_format": "General", "formula": "=SUM(B2:B3)", "value": 307}
    assert cells["D2"]["value"] == pytest.approx(187.2) and cells["C2"]["number_format"] == "0%"
    assert "formula" not in cells["B2"] and cells["B2"]["value"] == 208


def test_cli_inspect_and_bad_files(tmp_path, capsys):
    assert main(["inspect", str(recipe_slide(tmp_path)), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["slides"][0]["shapes"][0]["runs"][0]["size"] == 32.0
    assert main(["inspect", str(recipe_slide(tmp_path))]) == 0
    assert "OFF THE SLIDE" in capsys.readouterr().out
    (tmp_path / "broken.pptx").write_bytes(b"PK\x03\x04 nonsense")
    (tmp_path / "notes.txt").write_text("hello")
    for name in ("broken.pptx", "notes.txt"):
        with pytest.raises(RenderError):
            inspect(tmp_path / name)
        assert main(["inspect", str(tmp_path / name)]) == 2
