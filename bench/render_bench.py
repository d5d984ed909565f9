"""Speed of document rendering. Prints figures; asserts nothing.

Run from the repository root: ``python bench/render_bench.py [--repeat 5]``.

* cold: a fresh converter (LibreOffice start-up included) and one-shot
  ``soffice --convert-to pdf`` (a fresh profile each time), per document type;
* warm: a running converter, document to PNG pages (goal: a 3-slide pptx <= 0.4 s);
* the pool's throughput: 40 documents over 2 warm converters from 8 threads.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from test_render import document, slides, workbook  # noqa: E402

from egoeval.renderers.render import draw_pages  # noqa: E402
from egoeval.renderers.service import ConversionService, libreoffice_version, oneshot_pdf  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="egoeval-render-bench-") as tmp:
        root = Path(tmp)
        docs = {"pptx (3 slides)": slides(root / "deck.pptx", ["Budget", "Wines", "Total"]),
                "docx (2 pages)": document(root / "receipt.docx"),
                "xlsx (1 sheet)": workbook(root / "budget.xlsx")}
        print(f"LibreOffice {libreoffice_version()}")
        for name, path in docs.items():
            started = time.perf_counter()
            oneshot_pdf(path, root / "oneshot", timeout=120)
            oneshot = time.perf_counter() - started
            with ConversionService(size=1) as svc:
                started = time.perf_counter()
                svc.to_pdf(path, root / "cold.pdf")
                cold = time.perf_counter() - started
                times = []
                for k in range(args.repeat):
                    started = time.perf_counter()
                    pdf = svc.to_pdf(path, root / f"warm-{k}.pdf")
                    folder = root / f"pages-{k}"
                    folder.mkdir(exist_ok=True)
                    pages, _ = draw_pages(pdf, folder, 96)
                    times.append(time.perf_counter() - started)
            print(f"{name}: one-shot soffice {oneshot:.2f} s; cold converter {cold:.2f} s; warm to {len(pages)} "
                  f"PNG pages at 96 dpi: median {statistics.median(times):.3f} s, best {min(times):.3f} s "
                  f"(goal for pptx <= 0.4 s)")
        with ConversionService(size=2) as svc:
            svc.to_pdf(docs["pptx (3 slides)"], root / "w0.pdf")
            svc.to_pdf(docs["docx (2 pages)"], root / "w1.pdf")  # both converters warm
            jobs = [list(docs.values())[i % 3] for i in range(40)]
            started = time.perf_counter()
            with ThreadPoolExecutor(max_workers=8) as pool:
                list(pool.map(lambda ij: svc.to_pdf(ij[1], root / f"p-{ij[0]}.pdf"), enumerate(jobs)))
            wall = time.perf_counter() - started
        print(f"pool of 2 warm converters, 40 documents from 8 threads: {wall:.2f} s, {40 / wall:.1f} documents/s")


if __name__ == "__main__":
    main()
