"""Rendering with a real LibreOffice and pypdfium2: documents made with python-pptx,
python-docx and openpyxl, hostile inputs, and many requests at once."""

import json
import shutil
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from egoeval.cli import main
from egoeval.media.cache import Cache
from egoeval.renderers.render import render
from egoeval.renderers.service import ConversionService, RenderError

pytestmark = pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")


@pytest.fixture(scope="module")
def service():
    with ConversionService(size=2, timeout=60) as svc:
        yield svc


def pdf_text(path) -> str:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def ink(png) -> float:
    """Fraction of pixels that are not white."""
    import cv2

    img = cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)
    return float((img < 240).mean())


def slides(path, titles, body="Mouton Cadet 208"):
    from pptx import Presentation

    prs = Presentation()
    for title in titles:
        slide = prs.slides.add_slide(prs.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
    prs.save(path)
    return path


def document(path):
    from docx import Document

    doc = Document()
    doc.add_heading("Order receipt", level=1)
    doc.add_paragraph("Customer: demo_diner_01")
    doc.add_heading("Items", level=2)
    table = doc.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Moussaka", "2"
    table.cell(1, 0).text, table.cell(1, 1).text = "Greek Salad", "1"
    doc.add_page_break()
    doc.add_paragraph("Total: 47.50")
    doc.save(path)
    return path


def workbook(path):
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.append(["Wine", "Price"])
    ws.append(["Mouton Cadet", 208])
    ws.append(["ZONIN Chianti", 99])
    ws["A4"], ws["B4"] = "Total", "=SUM(B2:B3)"
    ws.column_dimensions["A"].width = 24
    wb.save(path)
    return path


def test_documents_render_to_the_right_pages_with_their_text(service, tmp_path):
    cache = Cache(tmp_path / "cache")
    cases = [(slides(tmp_path / "deck.pptx", ["Budget", "Wines", "Total"]), 3, ["Budget", "Wines", "Mouton Cadet"]),
             (document(tmp_path / "receipt.docx"), 2, ["Order receipt", "Greek Salad", "Total: 47.50"]),
             (workbook(tmp_path / "budget.xlsx"), 1, ["ZONIN Chianti", "307"])]  # 307: the formula, computed
    for path, pages, words in cases:
        result = render(path, tmp_path / "out", service=service, cache=cache)
        assert len(result.pages) == pages, path.name
        assert all(ink(p) > 0.0001 for p in result.pages), path.name  # no blank page
        text = pdf_text(result.pdf)
        assert all(w in text for w in words), (path.name, text[:200])
        assert result.libreoffice.startswith("7.") and len(result.fonts) == 16 and not result.cached
    again = render(cases[0][0], service=service, cache=cache)
    assert again.cached and len(again.pages) == 3


def test_cjk_text_uses_a_real_cjk_font(service, tmp_path):
    deck = slides(tmp_path / "cjk.pptx", ["红酒的价格"], body="请把第二瓶加入购物车")
    result = render(deck, service=service, cache=False)
    assert "红酒的价格" in pdf_text(result.pdf)
    fonts = Path(result.pdf).read_bytes()
    assert b"CJK" in fonts  # e.g. /BaseFont /AAAAAA+NotoSansCJKsc-Regular, not a fallback box font
    assert ink(result.pages[0]) > 0.005


def test_a_pdf_renders_directly_and_the_cli_prints_json(service, tmp_path, capsys):
    first = render(slides(tmp_path / "a.pptx", ["One", "Two"]), service=service, cache=False)
    assert main(["render", first.pdf, "--out", str(tmp_path / "png"), "--dpi", "50", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert len(shown["pages"]) == 2 and shown["pdf"].endswith(".pdf") and shown["seconds"] >= 0
    assert all(Path(p).exists() for p in shown["pages"]) and shown["sizes"][0][0] < 600


def zip_bomb(path):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", b"\0" * (600 * 1024 * 1024))
    return path


def encrypted(path, tmp_path):
    from msoffcrypto.format.ooxml import OOXMLFile

    plain = document(tmp_path / "plain.docx")
    with open(plain, "rb") as src, open(path, "wb") as out:
        OOXMLFile(src).encrypt("secret", out)
    return path


def test_hostile_documents_are_clear_errors_and_the_service_keeps_serving(service, tmp_path):
    (tmp_path / "empty.pptx").write_bytes(b"")
    (tmp_path / "text.docx").write_text("not a document")
    truncated = slides(tmp_path / "cut.pptx", ["x"]).read_bytes()
    (tmp_path / "truncated.pptx").write_bytes(truncated[: len(truncated) // 2])
    cases = {"empty.pptx": "empty file", "text.docx": "not a valid .docx", "truncated.pptx": "not a valid .pptx",
             "bomb.docx": "zip bomb", "locked.docx": "password-protected", "notes.exe": "cannot render"}
    zip_bomb(tmp_path / "bomb.docx")
    encrypted(tmp_path / "locked.docx", tmp_path)
    (tmp_path / "notes.exe").write_bytes(b"MZ")
    for name, reason in cases.items():
        with pytest.raises(RenderError, match=reason):
            service.to_pdf(tmp_path / name, tmp_path / "x.pdf")
    # a conversion that overruns its timeout kills that converter; the next request is served
    big = slides(tmp_path / "big.pptx", [f"Slide {i}" for i in range(40)])
    before = service.restarts
    with pytest.raises(RenderError, match="timed out"):
        service.to_pdf(big, tmp_path / "slow.pdf", timeout=0.05)
    assert service.restarts == before + 1
    ok = service.to_pdf(slides(tmp_path / "after.pptx", ["Still here"]), tmp_path / "after.pdf")
    assert "Still here" in pdf_text(ok)


def test_a_huge_image_renders_or_fails_within_the_timeout(service, tmp_path):
    import cv2
    from pptx import Presentation
    from pptx.util import Inches

    picture = tmp_path / "huge.png"
    cv2.imwrite(str(picture), np.full((6000, 6000, 3), 200, np.uint8))
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    slide.shapes.add_picture(str(picture), Inches(0.5), Inches(0.5), width=Inches(9))
    prs.save(tmp_path / "huge.pptx")
    try:
        result = render(tmp_path / "huge.pptx", service=service, cache=False, timeout=30)
        assert len(result.pages) == 1
    except RenderError as exc:
        assert "timed out" in str(exc)
    assert "ok" in pdf_text(service.to_pdf(slides(tmp_path / "ok.pptx", ["ok"]), tmp_path / "ok.pdf"))


def test_fifty_concurrent_requests_none_lost_none_mixed_up(service, tmp_path):
    decks = [slides(tmp_path / f"d{i}.pptx", [f"Deck number {i}"], body=f"marker-{i}-end") for i in range(10)]

    def one(n):
        i = n % 10
        out = service.to_pdf(decks[i], tmp_path / f"out-{n}.pdf")
        return i, pdf_text(out)

    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(one, range(50)))
    assert len(results) == 50
    for i, text in results:
        assert f"marker-{i}-end" in text and all(f"marker-{j}-end" not in text for j in range(10) if j != i)


def test_one_shot_fallback_without_a_uno_python(tmp_path):
    with ConversionService(size=1) as svc:
        svc.python = None  # as on a machine without python3-uno
        assert not svc.warm
        pdf = svc.to_pdf(slides(tmp_path / "deck.pptx", ["Fallback works"]), tmp_path / "deck.pdf")
        assert "Fallback works" in pdf_text(pdf)
        with pytest.raises(RenderError, match="timed out"):
            svc.to_pdf(slides(tmp_path / "big.pptx", [f"S{i}" for i in range(30)]), tmp_path / "x.pdf", timeout=0.3)
