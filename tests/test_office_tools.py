"""The agent's office tools through the tool registry: build a slide, a document and a
workbook in a workspace, read them back and look at them (real LibreOffice)."""

import json
import shutil

import numpy as np
import pytest

from egoeval.renderers.service import ConversionService
from egoeval.tasks import egobench as suite
from egoeval.tools.egobench import ENVIRONMENTS
from egoeval.tools.office_tools import OfficeTools
from egoeval.tools.registry import ToolRegistry
from egoeval.tools.workspace import Workspace
from egoeval.verifiers.artifact import check_artifact

pytestmark = pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
REG = ToolRegistry()


@pytest.fixture(scope="module")
def service():
    with ConversionService(size=1) as svc:
        yield svc


@pytest.fixture
def office(tmp_path, service):
    return OfficeTools(Workspace(tmp_path / "ws"), service=service)


def call(office, tool, **params):
    env = REG.new_env("kitchen", suite.seed("kitchen_init_data"))
    return REG.execute(env, {"tool_name": tool, "parameters": params}, extra=[office])


def value(result):
    return json.loads(result.content)


def test_office_tools_join_every_scenario_without_clashing(office):
    names = set(office.members)
    assert {"create_presentation", "add_text", "set_cell", "render_to_image", "read_file"} <= names
    for cls in ENVIRONMENTS.values():
        assert not names & set(cls.members)
    assert all(s["function"]["description"] for s in office.schemas())


def test_build_a_recipe_slide_then_look_at_it(office, tmp_path):
    import cv2

    picture = office.workspace.root / "step.png"
    cv2.imwrite(str(picture), np.full((90, 160, 3), (30, 120, 200), np.uint8))
    steps = [("create_presentation", {"file_name": "recipe.pptx"}),
             ("add_slide", {"file_name": "recipe.pptx"}),
             ("add_text", {"file_name": "recipe.pptx", "slide": 1, "text": "Pork & chive dumplings", "left": 36,
                           "top": 20, "width": 648, "height": 60, "font_size": 32, "bold": True, "colour": "#AA0000"}),
             ("add_picture", {"file_name": "recipe.pptx", "slide": 1, "image": "step.png", "left": 36, "top": 110,
                              "width": 300}),
             ("add_text", {"file_name": "recipe.pptx", "slide": 1, "text": "Fold\nPinch", "left": 380, "top": 110,
                           "width": 300, "height": 200})]
    for tool, params in steps:
        result = call(office, tool, **params)
        assert result.error is None, (tool, result.content)
        assert result.artifacts == ["recipe.pptx"]
    read = value(call(office, "read_file", file_name="recipe.pptx"))
    title = read["slides"][0]["shapes"][0]
    assert title["runs"][0] == {"text": "Pork & chive dumplings", "size": 32.0, "bold": True, "colour": "#AA0000"}
    seen = call(office, "render_to_image", file_name="recipe.pptx")
    assert seen.error is None and len(seen.images) == 1 and seen.images[0].mime == "image/jpeg"
    assert value(seen)["pages"] == 1 and not seen.artifacts
    spec = {"file": "recipe.pptx", "criteria": [
        {"id": "title", "type": "font_size", "text": "dumplings", "equals": 32},
        {"id": "frame", "type": "picture", "reference": str(picture)},
        {"id": "layout", "type": "no_overlap"}]}
    assert check_artifact(office.workspace.root, spec, service=office.service, cache=False).passed


def test_workbook_with_a_formula_and_a_document(office):
    for tool, params in [("create_workbook", {"file_name": "budget.xlsx", "sheet": "Budget"}),
                         ("set_cell", {"file_name": "budget.xlsx", "cell": "A1", "value": "Mouton Cadet"}),
                         ("set_cell", {"file_name": "budget.xlsx", "cell": "B1", "value": 208}),
                         ("set_cell", {"file_name": "budget.xlsx", "cell": "B2", "value": "99"}),
                         ("set_cell", {"file_name": "budget.xlsx", "cell": "B3", "value": "=SUM(B1:B2)",
                                       "number_format": "0.00"}),
                         ("create_document", {"file_name": "receipt.docx"}),
                         ("add_heading", {"file_name": "receipt.docx", "text": "Order"}),
                         ("add_paragraph", {"file_name": "receipt.docx", "text": "Moussaka x2"}),
                         ("add_table", {"file_name": "receipt.docx", "rows": [["Moussaka", "2"], ["Total", "31"]]})]:
        result = call(office, tool, **params)
        assert result.error is None, (tool, result.content)
    cells = {c["cell"]: c for c in value(call(office, "read_file", file_name="budget.xlsx"))["sheets"][0]["cells"]}
    assert cells["B3"]["formula"] == "=SUM(B1:B2)" and cells["B3"]["value"] == 307 and cells["B2"]["value"] == 99
    doc = value(call(office, "read_file", file_name="receipt.docx"))
    assert doc["headings"] == [{"level": 1, "text": "Order"}] and doc["tables"][0]["cells"][1] == ["Total", "31"]
    assert {f["name"] for f in value(call(office, "list_files"))["files"]} == {"budget.xlsx", "receipt.docx"}


def test_bad_office_calls_are_results(office):
    call(office, "create_presentation", file_name="deck.pptx")
    cases = [("add_text", {"file_name": "deck.pptx", "slide": 3, "text": "x", "left": 0, "top": 0, "width": 10,
                           "height": 10}, "tool_error", "slide 3 does not exist"),
             ("add_slide", {"file_name": "../deck.pptx"}, "tool_error", "'..'"),
             ("set_cell", {"file_name": "deck.pptx", "cell": "B4", "value": 1}, "tool_error", ".xlsx"),
             ("add_text", {"file_name": "deck.pptx", "slide": 1, "text": "x", "left": 0, "top": 0, "width": 10,
                           "height": 10, "colour": "red"}, "tool_error", None),
             ("read_file", {"file_name": "missing.docx"}, "tool_error", "no file")]
    for tool, params, category, words in cases:
        result = call(office, tool, **params)
        assert result.error == category, (tool, result.content)
        if words:
            assert words in value(result)["error"], value(result)
    (office.workspace.root / "broken.pptx").write_bytes(b"PK\x03\x04garbage")
    broken = call(office, "render_to_image", file_name="broken.pptx")
    assert broken.error == "render_error" and str(office.workspace.root) not in broken.content
