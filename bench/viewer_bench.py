"""Speed of ``egoeval view`` on a large run. Prints figures; asserts nothing.

Run from the repository root: ``python bench/viewer_bench.py [--epochs 10]``: a
synthetic log of 10,440 episodes (bench/report_bench.py), the viewer built from it, and
the index opened in headless Chromium (goal: the list loads in under 2 s).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from report_bench import write_log  # noqa: E402

from egoeval.viewer import build_viewer  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="egoeval-viewer-bench-") as tmp:
        log = Path(tmp) / "run" / "run.jsonl"
        log.parent.mkdir()
        n = write_log(log, args.epochs)
        started = time.perf_counter()
        index = build_viewer([log.parent], Path(tmp) / "view")
        print(f"viewer for {n} episodes built in {time.perf_counter() - started:.2f} s "
              f"(index {index.stat().st_size / 2**20:.1f} MiB)")
        if not (shutil.which("chromium") and shutil.which("chromedriver")):
            print("chromium / chromedriver not installed: load time not measured")
            return
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By

        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium")
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-dev-shm-usage"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
        try:
            times = []
            for _ in range(3):
                started = time.perf_counter()
                driver.get(index.as_uri())
                rows = len(driver.find_elements(By.CSS_SELECTOR, "tr.episode"))
                times.append(time.perf_counter() - started)
            print(f"index with {n} episodes loaded and drawn ({rows} rows on the first page) in "
                  f"{min(times):.2f}-{max(times):.2f} s (goal < 2 s)")
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
