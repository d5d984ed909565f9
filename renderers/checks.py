"""Checks on rendered pages: what a person looking at the document would notice.

- :func:`blank_pages`: pages with (almost) no ink.
- :func:`phash` / :func:`hamming`: a 64-bit perceptual hash (DCT of a 32x32 grey image)
  to compare a page, or an inserted picture, with a golden image; small distances mean
  "looks the same" despite re-encoding and resizing.
- :func:`text_outside`: text of a rendered PDF that falls outside the page, or outside
  the box of the shape that holds it (text overflowing its box), by comparing the
  rendered character boxes (pypdfium2) with the shape boxes from the inspector.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

INK_LEVEL = 240  # grey level below which a pixel counts as ink
BLANK_FRACTION = 0.0001


def ink(image: Any) -> float:
    """Fraction of non-white pixels of an image (a path or an RGB/grey array)."""
    import cv2

    img = cv2.imread(str(image), cv2.IMREAD_GRAYSCALE) if isinstance(image, (str, Path)) else image
    if img is None:
        raise ValueError(f"cannot read image {image}")
    if img.ndim == 3:
        img = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    return float((img < INK_LEVEL).mean())


def blank_pages(pages: list[str | Path]) -> list[int]:
    """1-based numbers of the pages with no visible content."""
    return [n for n, page in enumerate(pages, 1) if ink(page) < BLANK_FRACTION]


def phash(image: Any) -> str:
    """64-bit perceptual hash as 16 hex digits (path, bytes or array)."""
    import cv2

    if isinstance(image, (str, Path)):
        img = cv2.imread(str(image), cv2.IMREAD_GRAYSCALE)
    elif isinstance(image, (bytes, bytearray)):
        img = cv2.imdecode(np.frombuffer(image, np.uint8), cv2.IMREAD_GRAYSCALE)
    else:
        img = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    if img is None:
        raise ValueError("cannot decode the image")
    small = cv2.resize(img, (32, 32), interpolation=cv2.INTER_AREA).astype(np.float32)
    low = cv2.dct(small)[:8, :8].flatten()
    bits = low[1:] > np.median(low[1:])  # leave out the DC term
    value = 0
    for bit in bits:
        value = (value << 1) | int(bit)
    return f"{value:016x}"


def hamming(a: str, b: str) -> int:
    return bin(int(a, 16) ^ int(b, 16)).count("1")


def _char_boxes(page: Any, start: int, count: int, height: float) -> list[tuple[float, float, float, float]]:
    """(left, top, right, bottom) in points from the page's top-left corner."""
    textpage = page.get_textpage()
    out = []
    for i in range(start, start + count):
        left, bottom, right, top = textpage.get_charbox(i)
        if right > left:  # spaces and line breaks have empty boxes
            out.append((left, height - top, right, height - bottom))
    return out


def text_outside(pdf: str | Path, shapes_by_page: list[list[dict]] | None = None,
                 tolerance: float = 2.0) -> list[dict]:
    """Rendered text outside its page, or outside the box of the shape holding it.

    ``shapes_by_page`` (from the pptx inspector, in points) lets each text shape be
    checked; each line of its text is found on the rendered page and its characters'
    boxes are compared with the shape's box (``tolerance`` points of slack).
    """
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    problems: list[dict] = []
    try:
        for n in range(len(doc)):
            page = doc[n]
            width, height = page.get_size()
            textpage = page.get_textpage()
            boxes = _char_boxes(page, 0, textpage.count_chars(), height)
            if any(l < -tolerance or t < -tolerance or r > width + tolerance or b > height + tolerance
                   for l, t, r, b in boxes):
                problems.append({"page": n + 1, "problem": "text outside the page"})
            for shape in (shapes_by_page[n] if shapes_by_page and n < len(shapes_by_page) else []):
                text = (shape.get("text") or "").strip()
                if not text or None in (shape.get("left"), shape.get("top")):
                    continue
                right, bottom = shape["left"] + shape["width"], shape["top"] + shape["height"]
                for line in filter(None, (ln.strip() for ln in text.splitlines())):
                    searcher = textpage.search(line[:60], match_case=True)
                    found = searcher.get_next()
                    if not found:
                        continue
                    chars = _char_boxes(page, found[0], found[1], height)
                    if any(r > right + tolerance or b > bottom + tolerance or l < shape["left"] - tolerance
                           for l, t, r, b in chars):
                        problems.append({"page": n + 1, "problem": "text overflows its box", "shape": shape.get("name"),
                                         "text": line[:60]})
                        break
    finally:
        doc.close()
    return problems
