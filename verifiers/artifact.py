"""Artifact criteria: binary checks on a file an agent made, each with its evidence.

A task's evaluation points are data (JSON or YAML)::

    {"file": "budget.xlsx",
     "criteria": [
       {"id": "has-formula", "type": "formula", "cell": "B4", "value": 307},
       {"id": "readable", "type": "no_blank_pages"}]}

Types: ``file_exists``, ``page_count`` (``equals`` / ``min`` / ``max``), ``text_present``
(``text``, optional ``page``), ``font_size`` (the run holding ``text``; ``equals`` or
``min``), ``heading_sequence`` (``sequence`` of heading texts, optional ``levels``),
``formula`` (a real formula in ``cell``, optional ``sheet``, whose LibreOffice-computed
value equals ``value`` within ``tolerance``), ``picture`` (a picture whose perceptual
hash is within ``max_distance`` of ``reference``, an image file, optional ``slide``),
``no_overlap`` (no two shapes share more than ``min_area`` square points),
``nothing_off_page`` (no shape leaves the slide, no text leaves the page),
``no_text_overflow``, ``word_count`` (``min`` / ``max``), ``no_blank_pages``,
``page_matches`` (the rendered ``page`` looks like the golden image ``reference``: its
perceptual hash is within ``max_distance``), and
``vlm_judge`` (a ``question`` a vision model answers about the rendered pages, through
LiteLLM: ``$EGOEVAL_JUDGE_MODEL``, optional ``$EGOEVAL_JUDGE_API_BASE``; the result is
marked non-deterministic and the judge's replies are cached).

The artifact passes when every criterion passes (as in TOBench). A criterion that
cannot be evaluated (wrong file type for it, unreadable file) fails with the reason as
its evidence; nothing here raises for a bad artifact.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

TYPES = ("file_exists", "page_count", "text_present", "font_size", "heading_sequence", "formula", "picture",
         "no_overlap", "nothing_off_page", "no_text_overflow", "word_count", "no_blank_pages", "page_matches",
         "vlm_judge")


class BadCriteria(ValueError):
    """A criteria file that cannot be used, and why."""


@dataclass
class CriterionResult:
    id: str
    type: str
    passed: bool
    evidence: str
    deterministic: bool = True


@dataclass
class ArtifactVerdict:
    file: str
    passed: bool
    criteria: list[CriterionResult] = field(default_factory=list)

    def failed(self) -> list[str]:
        return [c.id for c in self.criteria if not c.passed]

    def to_dict(self) -> dict:
        return asdict(self)


def load_criteria(source: str | Path | dict) -> dict:
    """A criteria spec from a dict or a JSON/YAML file, checked for shape."""
    if isinstance(source, dict):
        spec = source
    else:
        text = Path(source).read_text(encoding="utf-8")
        if str(source).endswith((".yaml", ".yml")):
            import yaml

            spec = yaml.safe_load(text)
        else:
            spec = json.loads(text)
    if not isinstance(spec, dict) or not isinstance(spec.get("file"), str) or not isinstance(spec.get("criteria"), list):
        raise BadCriteria("criteria need a 'file' name and a 'criteria' list")
    seen = set()
    for c in spec["criteria"]:
        if not isinstance(c, dict) or c.get("type") not in TYPES or not isinstance(c.get("id"), str):
            raise BadCriteria(f"each criterion needs an 'id' and a 'type' among {', '.join(TYPES)}: {c!r}"[:300])
        if c["id"] in seen:
            raise BadCriteria(f"criterion id {c['id']!r} appears twice")
        seen.add(c["id"])
    return spec


class _Artifact:
    """The file under check, rendered and inspected at most once each."""

    def __init__(self, path: Path, service: Any, cache: Any, judge: Any = None) -> None:
        self.path, self.service, self.cache, self.judge = path, service, cache, judge
        self._rendering = self._structure = self._text = None

    def rendering(self):
        if self._rendering is None:
            from egoeval.renderers.render import render

            self._rendering = render(self.path, service=self.service, cache=self.cache)
        return self._rendering

    def structure(self) -> dict:
        if self._structure is None:
            from egoeval.renderers.inspect import inspect

            self._structure = inspect(self.path, self.service)
        return self._structure

    def page_texts(self) -> list[str]:
        if self._text is None:
            import pypdfium2 as pdfium

            doc = pdfium.PdfDocument(self.rendering().pdf)
            try:
                self._text = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
            finally:
                doc.close()
        return self._text


def _compare(value: float, c: dict) -> tuple[bool, str]:
    if "equals" in c:
        return value == c["equals"], f"{value} (expected {c['equals']})"
    low, high = c.get("min"), c.get("max")
    ok = (low is None or value >= low) and (high is None or value <= high)
    return ok, f"{value} (expected {'>= ' + str(low) if low is not None else ''}" \
               f"{' and ' if low is not None and high is not None else ''}{'<= ' + str(high) if high is not None else ''})"


def _file_exists(a: _Artifact, c: dict) -> tuple[bool, str]:
    return True, f"{a.path.name} exists ({a.path.stat().st_size} bytes)"


def _page_count(a: _Artifact, c: dict) -> tuple[bool, str]:
    return _compare(len(a.rendering().pages), c)


def _text_present(a: _Artifact, c: dict) -> tuple[bool, str]:
    texts = a.page_texts()
    pages = [c["page"]] if "page" in c else range(1, len(texts) + 1)
    where = [p for p in pages if 0 < p <= len(texts) and c["text"].lower() in " ".join(texts[p - 1].split()).lower()]
    return bool(where), f"found on page {where[0]}" if where else f"{c['text']!r} is not on the rendered page(s)"


def _runs(a: _Artifact) -> list[tuple[int, dict]]:
    s = a.structure()
    if s["type"] != "pptx":
        raise BadCriteria("font_size applies to slides (pptx)")
    return [(slide["number"], run) for slide in s["slides"] for sh in slide["shapes"] for run in sh.get("runs", [])]


def _font_size(a: _Artifact, c: dict) -> tuple[bool, str]:
    runs = [(n, r) for n, r in _runs(a) if c["text"].lower() in r["text"].lower() and ("slide" not in c or n == c["slide"])]
    if not runs:
        return False, f"no text run contains {c['text']!r}"
    size = runs[0][1]["size"]
    if size is None:
        return False, "the run's size is inherited from the layout, not set"
    return _compare(size, c)


def _heading_sequence(a: _Artifact, c: dict) -> tuple[bool, str]:
    s = a.structure()
    if s["type"] != "docx":
        raise BadCriteria("heading_sequence applies to documents (docx)")
    found = [h["text"].strip() for h in s["headings"]]
    levels = [h["level"] for h in s["headings"]]
    ok = found == c["sequence"] and ("levels" not in c or levels == c["levels"])
    return ok, f"headings {list(zip(found, levels))}"


def _formula(a: _Artifact, c: dict) -> tuple[bool, str]:
    s = a.structure()
    if s["type"] != "xlsx":
        raise BadCriteria("formula applies to spreadsheets (xlsx)")
    sheet = next((sh for sh in s["sheets"] if sh["name"] == c.get("sheet", sh["name"])), None)
    cell = next((x for x in (sheet or {}).get("cells", []) if x["cell"] == c["cell"]), None)
    if cell is None:
        return False, f"cell {c['cell']} is empty"
    if "formula" not in cell:
        return False, f"cell {c['cell']} holds the literal {cell['value']!r}, not a formula"
    value = cell["value"]
    if "value" not in c:
        return True, f"{cell['formula']} -> {value!r}"
    try:
        ok = abs(float(value) - float(c["value"])) <= c.get("tolerance", 0.005)
    except (TypeError, ValueError):
        ok = value == c["value"]
    return ok, f"{cell['formula']} -> {value!r} (expected {c['value']!r})"


def _picture(a: _Artifact, c: dict) -> tuple[bool, str]:
    import hashlib

    from egoeval.renderers.checks import hamming, phash

    s = a.structure()
    reference = phash(Path(c["reference"])) if c.get("reference") else None
    blobs = _picture_blobs(a.path, s)
    if "slide" in c:
        blobs = [(n, b) for n, b in blobs if n == c["slide"]]
    if not blobs:
        return False, "no picture"
    if reference is None:
        return True, f"{len(blobs)} picture(s)"
    best = min((hamming(reference, phash(b)), n, hashlib.sha256(b).hexdigest()[:12]) for n, b in blobs)
    limit = c.get("max_distance", 10)
    return best[0] <= limit, f"closest picture (slide/page {best[1]}, sha256 {best[2]}) is {best[0]} bits from the reference (limit {limit})"


def _picture_blobs(path: Path, s: dict) -> list[tuple[int, bytes]]:
    if s["type"] == "pptx":
        from pptx import Presentation
        from pptx.shapes.picture import Picture

        prs = Presentation(str(path))
        return [(n, sh.image.blob) for n, slide in enumerate(prs.slides, 1) for sh in slide.shapes
                if isinstance(sh, Picture)]
    if s["type"] == "docx":
        from docx import Document

        doc = Document(str(path))
        return [(1, rel.target_part.blob) for rel in doc.part.rels.values() if "image" in rel.reltype]
    return []


def _no_overlap(a: _Artifact, c: dict) -> tuple[bool, str]:
    s = a.structure()
    if s["type"] != "pptx":
        return True, "no shapes to overlap in this kind of document"
    bad = [(slide["number"], o) for slide in s["slides"] if "slide" not in c or slide["number"] == c["slide"]
           for o in slide["overlaps"] if o["area"] > c.get("min_area", 1.0)]
    return not bad, "; ".join(f"slide {n}: shapes {o['a']} and {o['b']} share {o['area']} pt²" for n, o in bad) \
        or "no overlapping shapes"


def _nothing_off_page(a: _Artifact, c: dict) -> tuple[bool, str]:
    from egoeval.renderers.checks import text_outside

    problems = []
    s = a.structure() if a.path.suffix.lower() == ".pptx" else None
    if s is not None:
        problems += [f"slide {slide['number']}: {sh['name']!r} leaves the slide" for slide in s["slides"]
                     for sh in slide["shapes"] if sh["off_slide"]]
    problems += [f"page {p['page']}: {p['problem']}" for p in text_outside(a.rendering().pdf)]
    return not problems, "; ".join(problems) or "everything is on the page"


def _no_text_overflow(a: _Artifact, c: dict) -> tuple[bool, str]:
    from egoeval.renderers.checks import text_outside

    s = a.structure() if a.path.suffix.lower() == ".pptx" else None
    shapes = [slide["shapes"] for slide in s["slides"]] if s else None
    problems = [p for p in text_outside(a.rendering().pdf, shapes) if p["problem"] == "text overflows its box"]
    return not problems, "; ".join(f"page {p['page']}: {p['shape']!r} ({p['text']!r})" for p in problems) \
        or "all text inside its boxes"


def _word_count(a: _Artifact, c: dict) -> tuple[bool, str]:
    return _compare(sum(len(t.split()) for t in a.page_texts()), c)


def _no_blank_pages(a: _Artifact, c: dict) -> tuple[bool, str]:
    from egoeval.renderers.checks import blank_pages

    blank = blank_pages(a.rendering().pages)
    return not blank, f"blank pages: {blank}" if blank else f"{len(a.rendering().pages)} pages, none blank"


def _page_matches(a: _Artifact, c: dict) -> tuple[bool, str]:
    from egoeval.renderers.checks import hamming, phash

    pages = a.rendering().pages
    n = c.get("page", 1)
    if not 1 <= n <= len(pages):
        return False, f"there is no page {n} ({len(pages)} pages)"
    distance = hamming(phash(Path(pages[n - 1])), phash(Path(c["reference"])))
    limit = c.get("max_distance", 10)
    return distance <= limit, f"page {n} is {distance} bits from the golden render (limit {limit})"


JUDGE_PROMPT = ("You are checking a file someone made ({name}); its rendered pages follow. Question: {question}\n"
                "Answer with only JSON: {{\"pass\": true or false, \"reason\": \"one sentence\"}}")


def _pass_or_fail(answer: Any) -> tuple[bool, str]:
    if not isinstance(answer.get("pass"), bool):
        raise TypeError('"pass" must be true or false')
    return answer["pass"], str(answer.get("reason", ""))


def _vlm_judge(a: _Artifact, c: dict) -> tuple[bool, str]:
    import base64

    from egoeval.verifiers.judge import JudgeError, ask_json, judge_client

    judge = a.judge or judge_client()
    if judge is None:
        return False, "needs a judge model: set EGOEVAL_JUDGE_MODEL (a LiteLLM provider/model)"
    pages = a.rendering().pages[: c.get("max_pages", 4)]
    content: list[dict] = [{"type": "text", "text": JUDGE_PROMPT.format(name=a.path.name, question=c["question"])}]
    content += [{"type": "image_url", "image_url": {
        "url": "data:image/png;base64," + base64.b64encode(Path(p).read_bytes()).decode()}} for p in pages]
    try:
        ok, reason = ask_json(judge, [{"role": "user", "content": content}], _pass_or_fail, attempts=2)
    except JudgeError as exc:
        return False, str(exc)
    return ok, f"judge {judge.model}: {reason}"


CHECKS: dict[str, Callable[[_Artifact, dict], tuple[bool, str]]] = {
    "file_exists": _file_exists, "page_count": _page_count, "text_present": _text_present, "font_size": _font_size,
    "heading_sequence": _heading_sequence, "formula": _formula, "picture": _picture, "no_overlap": _no_overlap,
    "nothing_off_page": _nothing_off_page, "no_text_overflow": _no_text_overflow, "word_count": _word_count,
    "no_blank_pages": _no_blank_pages, "page_matches": _page_matches, "vlm_judge": _vlm_judge,
}


def check_artifact(folder_or_file: str | Path, spec: dict | str | Path, service: Any = None,
                   cache: Any = True, judge: Any = None) -> ArtifactVerdict:
    """Evaluate every criterion of ``spec`` on the file it names (inside ``folder_or_file``
    when that is a folder, e.g. the episode's workspace, or that file itself)."""
    from egoeval.renderers.service import RenderError

    spec = load_criteria(spec)
    base = Path(folder_or_file)
    path = base / spec["file"] if base.is_dir() else base
    verdict = ArtifactVerdict(spec["file"], False)
    wanted = Path(spec["file"]).suffix.lower()
    if not path.is_file() or path.suffix.lower() != wanted:
        why = f"no file {spec['file']!r}" if not path.is_file() else f"{path.name} is not a {wanted} file"
        verdict.criteria = [CriterionResult(c["id"], c["type"], False, why) for c in spec["criteria"]]
        return verdict
    from egoeval.agents import AgentError, InfraError

    artifact = _Artifact(path, service, cache, judge)
    for c in spec["criteria"]:
        try:
            ok, evidence = CHECKS[c["type"]](artifact, c)
        except (RenderError, BadCriteria, KeyError, ValueError, OSError, AgentError, InfraError) as exc:
            ok, evidence = False, f"cannot check: {type(exc).__name__}: {exc}"
        verdict.criteria.append(CriterionResult(c["id"], c["type"], bool(ok), evidence, c["type"] != "vlm_judge"))
    verdict.passed = all(r.passed for r in verdict.criteria)
    return verdict
