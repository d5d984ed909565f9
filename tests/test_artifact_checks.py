"""Artifact criteria on real documents: a reference passes, each deliberately broken
version fails exactly the criterion it breaks (rendered with a real LibreOffice)."""

import json
import shutil

import numpy as np
import pytest

from egoeval.cli import main
from egoeval.renderers.checks import blank_pages, hamming, phash
from egoeval.renderers.service import ConversionService
from egoeval.verifiers.artifact import BadCriteria, check_artifact, load_criteria

pytestmark = pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")


@pytest.fixture(scope="module")
def service():
    with ConversionService(size=2) as svc:
        yield svc


def frame(path, colour=(30, 120, 200)):
    import cv2

    img = np.zeros((180, 320, 3), np.uint8)
    img[:] = colour
    cv2.circle(img, (160, 90), 60, (240, 240, 240), -1)
    cv2.rectangle(img, (20, 20), (90, 60), (10, 10, 10), -1)
    cv2.imwrite(str(path), img)
    return path


def recipe(path, picture, flaw=None):
    """The recipe slide of a kitchen task; ``flaw`` breaks one thing."""
    from pptx import Presentation
    from pptx.util import Inches, Pt

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    title = slide.shapes.add_textbox(Inches(0.5), Inches(0.3), Inches(9), Inches(1))
    run = title.text_frame.paragraphs[0].add_run()
    run.text, run.font.size = "Pork & chive dumplings", Pt(24 if flaw == "font" else 32)
    if flaw != "no_picture":
        slide.shapes.add_picture(str(picture), Inches(0.5), Inches(1.6), width=Inches(4.5))
    left = Inches(3) if flaw == "overlap" else Inches(10.5) if flaw == "off_slide" else Inches(5.3)
    body = slide.shapes.add_textbox(left, Inches(1.6), Inches(4.2), Inches(1.2 if flaw == "overflow" else 4))
    body.text_frame.word_wrap = True
    steps = ["Step 3: fold the wrappers", "Scoop filling onto each wrapper", "Pinch pleats to seal"]
    if flaw == "overflow":
        steps += ["Steam for twelve minutes", "Serve with black vinegar", "Garnish with chives", "Enjoy them hot"]
    body.text_frame.text = "\n".join(steps)
    for p in body.text_frame.paragraphs:
        for r in p.runs:
            r.font.size = Pt(18)
    prs.save(path)
    return path


def recipe_criteria(reference):
    return {"file": "recipe.pptx", "criteria": [
        {"id": "exists", "type": "file_exists"},
        {"id": "one-slide", "type": "page_count", "equals": 1},
        {"id": "title-32pt", "type": "font_size", "text": "dumplings", "equals": 32},
        {"id": "step-text", "type": "text_present", "text": "Step 3: fold the wrappers"},
        {"id": "frame-inserted", "type": "picture", "reference": str(reference), "max_distance": 8},
        {"id": "no-overlap", "type": "no_overlap"},
        {"id": "on-slide", "type": "nothing_off_page"},
        {"id": "no-overflow", "type": "no_text_overflow"},
        {"id": "not-blank", "type": "no_blank_pages"},
    ]}


@pytest.mark.parametrize("flaw,fails", [
    (None, []),
    ("font", ["title-32pt"]),
    ("no_picture", ["frame-inserted"]),
    ("overlap", ["no-overlap"]),
    ("off_slide", ["step-text", "on-slide"]),  # text off the slide is also not on the page
    ("overflow", ["no-overflow"]),
])
def test_recipe_slide_fails_exactly_its_flaw(service, tmp_path, flaw, fails):
    reference = frame(tmp_path / "frame.png")
    recipe(tmp_path / "recipe.pptx", reference, flaw)
    verdict = check_artifact(tmp_path, recipe_criteria(reference), service=service, cache=False)
    assert verdict.failed() == fails, [(c.id, c.evidence) for c in verdict.criteria]
    assert verdict.passed is (not fails)


def test_a_different_picture_is_not_the_frame(service, tmp_path):
    reference = frame(tmp_path / "frame.png")
    other = tmp_path / "other.png"
    import cv2

    img = np.full((180, 320, 3), 255, np.uint8)
    cv2.line(img, (0, 0), (319, 179), (0, 0, 0), 9)
    cv2.imwrite(str(other), img)
    recipe(tmp_path / "recipe.pptx", other)
    verdict = check_artifact(tmp_path, recipe_criteria(reference), service=service, cache=False)
    assert verdict.failed() == ["frame-inserted"] and "bits from the reference" in verdict.criteria[4].evidence


def budget(path, literal=False):
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Budget"
    ws.append(["Wine", "Price"])
    ws.append(["Mouton Cadet", 208])
    ws.append(["ZONIN Chianti", 99])
    ws["A4"], ws["B4"] = "Total", 307 if literal else "=SUM(B2:B3)"
    wb.save(path)
    return path


def test_formula_not_literal(service, tmp_path):
    spec = {"file": "budget.xlsx", "criteria": [
        {"id": "total-formula", "type": "formula", "sheet": "Budget", "cell": "B4", "value": 307},
        {"id": "names", "type": "text_present", "text": "ZONIN"}]}
    budget(tmp_path / "budget.xlsx")
    assert check_artifact(tmp_path, spec, service=service, cache=False).passed
    budget(tmp_path / "budget.xlsx", literal=True)
    broken = check_artifact(tmp_path, spec, service=service, cache=False)
    assert broken.failed() == ["total-formula"] and "literal 307" in broken.criteria[0].evidence


def test_heading_sequence_and_word_count(service, tmp_path):
    from docx import Document

    def receipt(order):
        doc = Document()
        for h in order:
            doc.add_heading(h, level=1)
            doc.add_paragraph("Moussaka x2, Greek Salad x1")
        doc.save(tmp_path / "receipt.docx")

    spec = {"file": "receipt.docx", "criteria": [
        {"id": "sections", "type": "heading_sequence", "sequence": ["Order", "Items", "Total"], "levels": [1, 1, 1]},
        {"id": "short", "type": "word_count", "max": 40}]}
    receipt(["Order", "Items", "Total"])
    assert check_artifact(tmp_path, spec, service=service, cache=False).passed
    receipt(["Items", "Order", "Total"])
    assert check_artifact(tmp_path, spec, service=service, cache=False).failed() == ["sections"]


def test_missing_or_wrong_file_fails_every_criterion(tmp_path):
    spec = {"file": "budget.xlsx", "criteria": [{"id": "a", "type": "file_exists"}, {"id": "b", "type": "no_blank_pages"}]}
    verdict = check_artifact(tmp_path, spec)
    assert verdict.failed() == ["a", "b"] and "no file" in verdict.criteria[0].evidence


def test_criteria_are_checked_for_shape(tmp_path):
    with pytest.raises(BadCriteria):
        load_criteria({"file": "x.pptx", "criteria": [{"id": "a", "type": "looks_nice"}]})
    with pytest.raises(BadCriteria):
        load_criteria({"file": "x.pptx", "criteria": [{"id": "a", "type": "file_exists"}, {"id": "a", "type": "file_exists"}]})
    yaml_spec = tmp_path / "c.yaml"
    yaml_spec.write_text("file: x.pptx\ncriteria:\n  - {id: a, type: file_exists}\n")
    assert load_criteria(yaml_spec)["criteria"][0]["id"] == "a"


def test_phash_and_blank_pages(tmp_path):
    import cv2

    a = frame(tmp_path / "a.png")
    img = cv2.imread(str(a))
    cv2.imwrite(str(tmp_path / "small.jpg"), cv2.resize(img, (160, 90)), [cv2.IMWRITE_JPEG_QUALITY, 60])
    assert hamming(phash(a), phash(tmp_path / "small.jpg")) <= 4
    stripes = np.zeros((90, 160, 3), np.uint8)
    stripes[:, ::20] = 255
    assert hamming(phash(a), phash(stripes)) > 10
    cv2.imwrite(str(tmp_path / "white.png"), np.full((100, 100, 3), 255, np.uint8))
    assert blank_pages([a, tmp_path / "white.png"]) == [2]


def test_cli_check(service, tmp_path, capsys):
    budget(tmp_path / "budget.xlsx", literal=True)
    spec = tmp_path / "criteria.json"
    spec.write_text(json.dumps({"file": "budget.xlsx", "criteria": [
        {"id": "total-formula", "type": "formula", "cell": "B4", "value": 307}]}))
    assert main(["check", str(tmp_path / "budget.xlsx"), "--criteria", str(spec), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["passed"] is False and out["criteria"][0]["id"] == "total-formula"


def test_vlm_judge_on_rendered_pages(service, tmp_path, monkeypatch):
    from llm_server import LoopbackLLM, reply

    from egoeval.model_client import CallCache, ModelClient

    reference = frame(tmp_path / "frame.png")
    recipe(tmp_path / "recipe.pptx", reference)
    spec = {"file": "recipe.pptx", "criteria": [
        {"id": "readable", "type": "vlm_judge", "question": "Is the title readable and is there a photo?"}]}
    monkeypatch.delenv("EGOEVAL_JUDGE_MODEL", raising=False)
    unjudged = check_artifact(tmp_path, spec, service=service, cache=False)
    assert not unjudged.passed and "EGOEVAL_JUDGE_MODEL" in unjudged.criteria[0].evidence
    answers = [reply("Looks fine to me."), reply('{"pass": true, "reason": "clear title, one photo"}')]
    with LoopbackLLM(lambda body: answers.pop(0)) as server:
        judge = ModelClient("openai/judge", api_base=server.api_base, api_key="k", cache=CallCache(tmp_path / "j.db"),
                            backoff=0.01)
        verdict = check_artifact(tmp_path, spec, service=service, cache=False, judge=judge)
        first = server.requests[0]["messages"][0]["content"]
    assert verdict.passed and verdict.criteria[0].deterministic is False
    assert "clear title" in verdict.criteria[0].evidence and len(server.requests) == 2
    assert sum(p["type"] == "image_url" for p in first) == 1 and "Is the title readable" in first[0]["text"]


def test_a_page_against_its_golden_render(service, tmp_path):
    from egoeval.renderers.render import render

    reference = frame(tmp_path / "frame.png")
    recipe(tmp_path / "recipe.pptx", reference)
    golden = tmp_path / "golden.png"
    shutil.copyfile(render(tmp_path / "recipe.pptx", service=service, cache=False).pages[0], golden)
    spec = {"file": "recipe.pptx", "criteria": [{"id": "as-designed", "type": "page_matches", "page": 1,
                                                 "reference": str(golden), "max_distance": 6}]}
    assert check_artifact(tmp_path, spec, service=service, cache=False).passed
    recipe(tmp_path / "recipe.pptx", reference, flaw="no_picture")
    changed = check_artifact(tmp_path, spec, service=service, cache=False)
    assert not changed.passed and "bits from the golden render" in changed.criteria[0].evidence


def test_a_hung_converter_is_replaced_before_the_next_job(service, tmp_path):
    import os
    import signal

    deck = recipe(tmp_path / "recipe.pptx", frame(tmp_path / "frame.png"))
    service.to_pdf(deck, tmp_path / "a.pdf")
    conv = service.idle.queue[0]
    os.killpg(conv.office.pid, signal.SIGSTOP)  # LibreOffice (the whole process group) stops answering
    try:
        before = service.restarts
        service.to_pdf(deck, tmp_path / "b.pdf")
        assert service.restarts == before + 1 and (tmp_path / "b.pdf").stat().st_size > 0
    finally:
        try:
            os.killpg(conv.office.pid, signal.SIGCONT)
        except ProcessLookupError:
            pass
