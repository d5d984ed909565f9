"""egoeval view, driven in a real headless Chromium (Selenium + Debian's chromium-driver):
open the index, filter to failures, open an episode, see its frames, calls and diff."""

import asyncio
import shutil

import pytest

from egoeval.agents import NullAgent, OracleAgent
from egoeval.observation import ObservationConfig
from egoeval.runner import RunConfig, Runner
from egoeval.suites import load_tasks
from egoeval.users import ScriptedUser
from egoeval.viewer import build_viewer

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")


def run(tmp_path, agent):
    runner = Runner(RunConfig(observation=ObservationConfig(frames=4), agent=agent.name), load_tasks("demo"),
                    agent, lambda: ScriptedUser("easy"), tmp_path)
    asyncio.run(runner.run())
    return runner.log_dir


def test_viewer_files(tmp_path):
    index = build_viewer([run(tmp_path / "oracle", OracleAgent), run(tmp_path / "null", NullAgent)], tmp_path / "view")
    pages = list((tmp_path / "view" / "episodes").glob("*.html"))
    assert len(pages) == 24 and "application/json" in index.read_text()
    page = next(p for p in pages if p.name.startswith("null-demo_retail_1")).read_text()
    assert "class='missing'" in page and "missing" in page and "frames.jpg" in page
    assert "agent calls 0, matched 0 of 1 ground-truth calls" in page


@pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="needs Debian's chromium and chromium-driver")
def test_viewer_in_headless_chromium(tmp_path):
    pytest.importorskip("selenium")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    index = build_viewer([run(tmp_path / "oracle", OracleAgent), run(tmp_path / "null", NullAgent)], tmp_path / "view")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-dev-shm-usage", "--allow-file-access-from-files"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        driver.get(index.as_uri())
        assert len(driver.find_elements(By.CSS_SELECTOR, "tr.episode")) == 24
        Select(driver.find_element(By.ID, "outcome")).select_by_value("failure")
        rows = driver.find_elements(By.CSS_SELECTOR, "tr.episode")
        assert len(rows) == 12 and all("failure" in r.text for r in rows)
        assert "12 episodes" in driver.find_element(By.ID, "count").text
        rows[0].find_element(By.TAG_NAME, "a").click()
        assert "failure" in driver.find_element(By.ID, "outcome").text
        frames = driver.find_element(By.CSS_SELECTOR, "img.frames")
        assert driver.execute_script("return arguments[0].naturalWidth", frames) > 100  # the image loaded
        assert driver.find_elements(By.CSS_SELECTOR, "table.gt tr.missing")
        assert driver.find_element(By.CSS_SELECTOR, ".diff").text
        shot = tmp_path / "episode.png"
        driver.save_screenshot(str(shot))
        assert shot.stat().st_size > 5000
        driver.back()
        Select(driver.find_element(By.ID, "outcome")).select_by_value("success")
        driver.find_elements(By.CSS_SELECTOR, "tr.episode a")[0].click()
        assert driver.find_elements(By.CSS_SELECTOR, ".call pre") and "success" in driver.find_element(By.ID, "outcome").text
        driver.back()
        Select(driver.find_element(By.ID, "outcome")).select_by_value("")
        answers = Select(driver.find_element(By.ID, "answers"))
        assert {o.get_attribute("value") for o in answers.options} == {"", "stated", "missing"}
        answers.select_by_value("missing")  # the null agent never tells the user the totals
        rows = driver.find_elements(By.CSS_SELECTOR, "tr.episode")
        assert rows and all("missing" in r.text and r.text.startswith("null") for r in rows)
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []
    finally:
        driver.quit()


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_artifact_episodes_show_criteria_and_rendered_pages(tmp_path):
    runner = Runner(RunConfig(suite="artifacts", observation=ObservationConfig(frames=2)),
                    load_tasks("artifacts", pattern="artifacts/kitchen/4"), OracleAgent,
                    lambda: ScriptedUser("easy"), tmp_path / "run")
    asyncio.run(runner.run())
    build_viewer([runner.log_dir], tmp_path / "view")
    [page] = (tmp_path / "view" / "episodes").glob("*.html")
    text = page.read_text()
    assert "class='criteria'" in text and "title-32pt" in text and "self-verification: verified" in text
    assert (tmp_path / "view" / "episodes" / f"{page.stem}-page1.png").stat().st_size > 1000
