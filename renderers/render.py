"""Documents and slides to page images, so agents and verifiers can look at them.

``render(path)`` converts an office document to PDF (LibreOffice, through the shared
:class:`~egoeval.renderers.service.ConversionService`) and draws each page to PNG with
pypdfium2 (a PDF is drawn directly). Results are cached by the file's content and the
options, in the media cache (namespace ``renders``); a rendering records the
LibreOffice version and a fingerprint of the installed fonts, because both change
pixels.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from egoeval.media.cache import Cache, make_key
from egoeval.media.hashing import file_sha256

from .service import ConversionService, RenderError, fonts_fingerprint, libreoffice_version, precheck

#: Bumped when rendering changes what a request returns (invalidates cached renders).
RENDER_VERSION = 1
MAX_PAGES = 200

_SERVICE: ConversionService | None = None
_SERVICE_LOCK = threading.Lock()


def shared_service() -> ConversionService:
    """The process's conversion service (``$EGOEVAL_RENDER_WORKERS`` converters, default 2)."""
    global _SERVICE
    with _SERVICE_LOCK:
        if _SERVICE is None or _SERVICE.closed:
            _SERVICE = ConversionService(size=int(os.environ.get("EGOEVAL_RENDER_WORKERS", "2")))
            atexit.register(_SERVICE.close)
        return _SERVICE


@dataclass
class Rendering:
    source: str
    pdf: str
    pages: list[str]
    sizes: list[tuple[int, int]]  # (width, height) in pixels per page
    dpi: int
    seconds: float
    libreoffice: str
    fonts: str
    cached: bool = False
    sha256: str = ""
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


def draw_pages(pdf: Path, folder: Path, dpi: int) -> tuple[list[Path], list[tuple[int, int]]]:
    """Every page of ``pdf`` as ``page-001.png`` ... at ``dpi``."""
    import cv2
    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(str(pdf))
    except pdfium.PdfiumError as exc:
        raise RenderError(f"{pdf.name}: not a readable PDF ({exc})") from None
    try:
        if len(doc) > MAX_PAGES:
            raise RenderError(f"{pdf.name}: {len(doc)} pages; at most {MAX_PAGES} are rendered")
        paths, sizes = [], []
        for n in range(len(doc)):
            page = doc[n]
            bitmap = page.render(scale=dpi / 72)
            image = bitmap.to_numpy()
            rgb = image[..., :3] if bitmap.mode in ("RGB", "RGBA", "RGBX") else image
            out = folder / f"page-{n + 1:03d}.png"
            cv2.imwrite(str(out), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR) if bitmap.mode.startswith("RGB")
                        else rgb[..., :3])
            paths.append(out)
            sizes.append((int(image.shape[1]), int(image.shape[0])))
            bitmap.close()
            page.close()
    finally:
        doc.close()
    return paths, sizes


def render(path: str | Path, out_dir: str | Path | None = None, dpi: int = 96,
           service: ConversionService | None = None, cache: Cache | bool | None = True,
           timeout: float | None = None) -> Rendering:
    """Render a document (pptx, docx, xlsx, odp/odt/ods, pdf ...) to PNG pages.

    With ``out_dir`` the PDF and pages are copied there; otherwise the paths point into
    the cache (or a temporary folder when caching is off). Raises :class:`RenderError`.
    """
    src = Path(path)
    if not 24 <= dpi <= 600:
        raise RenderError(f"dpi {dpi} is out of range (24..600)")
    precheck(src)
    started = time.monotonic()
    store = Cache() if cache is True else (cache or None)
    lo, fonts = libreoffice_version(), fonts_fingerprint()
    sha = file_sha256(src)
    key = make_key(file=sha, suffix=src.suffix.lower(), dpi=dpi, lo=lo, fonts=fonts, v=RENDER_VERSION)

    def build(folder: Path) -> None:
        pdf = folder / "document.pdf"
        if src.suffix.lower() == ".pdf":
            shutil.copyfile(src, pdf)
        else:
            (service or shared_service()).to_pdf(src, pdf, timeout)
        pages, sizes = draw_pages(pdf, folder, dpi)
        (folder / "meta.json").write_text(json.dumps({"pages": [p.name for p in pages], "sizes": sizes}))

    if store is not None:
        hit = store.get("renders", key)
        cached = hit is not None
        folder = hit if hit is not None else store.get_or_put("renders", key, build)
    else:
        import tempfile

        cached = False
        folder = Path(tempfile.mkdtemp(prefix="egoeval-render-"))
        build(folder)
    meta = json.loads((folder / "meta.json").read_text())
    pdf, pages = folder / "document.pdf", [folder / name for name in meta["pages"]]
    if out_dir is not None:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        pdf = Path(shutil.copyfile(pdf, out / f"{src.stem}.pdf"))
        pages = [Path(shutil.copyfile(p, out / f"{src.stem}-{p.name}")) for p in pages]
    return Rendering(str(src), str(pdf), [str(p) for p in pages], [tuple(s) for s in meta["sizes"]], dpi,
                     round(time.monotonic() - started, 4), lo, fonts, cached, sha)
