"""The review page in a real browser: Debian's headless chromium driven by selenium.

Upload the sample photo, watch the steps and boxes arrive while the (slow, scripted) model is
still answering, find the validator's item and the value that is not on the page, toggle
two boxes, reload (the review and the edits' deltas are replayed), approve, and check the
written PNG's pixels and the report's reviewer edits. Then reload again: the page
re-attaches to the job. Real server, real OCR, real SSE, real PNG.
"""

from __future__ import annotations

import io
import json
import shutil
import time
import urllib.request

import pytest
from PIL import Image
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from serve_cases import SAMPLE, TEXT_READING, SlowEngine, job_folders, sample_replies

from redacto.prompts import PromptLibrary
from redacto.serve import ReviewServer, ServeConfig

pytestmark = pytest.mark.slow
CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")


@pytest.fixture
def browser():
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.fail("Debian's chromium and chromium-driver are needed (scripts/setup.sh)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
        "--disable-gpu",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(CHROMEDRIVER))
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


@pytest.fixture
def server(tmp_path):
    engine = SlowEngine(sample_replies(), delay=0.4)
    config = ServeConfig(ocr="tesseract", options=TEXT_READING, temp_root=tmp_path)
    with ReviewServer(engine, PromptLibrary.load(), config).start() as running:
        yield running


def word_index(driver, text: str) -> int:
    """The index of the first OCR word that reads `text` (the page's own word list)."""
    return driver.execute_script(
        "for (const [i, w] of state.words) if (w.text === arguments[0]) return i; return null;",
        text,
    )


def is_boxed(driver, index: int) -> bool:
    return driver.execute_script(
        "return state.words.get(arguments[0]).node.classList.contains('redacted');", index
    )


def word_box(driver, index: int) -> list[float]:
    return driver.execute_script(
        "return state.page.words.find((w) => w.i === arguments[0]).box;", index
    )


def test_a_page_redacts_itself_is_reviewed_and_approved(browser, server, tmp_path):
    wait = WebDriverWait(browser, 120, poll_frequency=0.05)
    browser.get(server.url)
    assert "Redacto" in browser.title
    picker = browser.find_element(By.ID, "file")
    browser.execute_script("arguments[0].hidden = false;", picker)
    picker.send_keys(str(SAMPLE))

    # Boxes arrive while step 2 is still running: rule hits first, then the model's lines.
    detect = (By.CSS_SELECTOR, '#steps li[data-step="2"]')
    wait.until(lambda d: "running" in d.find_element(*detect).get_attribute("class"))
    first = wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".word.redacted")) or None)
    later = wait.until(
        lambda d: (n := len(d.find_elements(By.CSS_SELECTOR, ".word.redacted"))) > first and n
    )
    assert later > first
    assert "running" in browser.find_element(*detect).get_attribute("class")
    assert browser.find_element(By.ID, "review").is_displayed() is False

    # The review: the validator's item, the near miss that is placed nowhere.
    wait.until(lambda d: d.find_element(By.ID, "review").is_displayed())
    validator = browser.find_element(By.ID, "validator").text
    assert "NAME: Lisa" in validator
    assert "Jan Ghostperson" in browser.find_element(By.ID, "unplaced").text
    lisa = word_index(browser, "Lisa,") or word_index(browser, "Lisa")
    assert lisa is not None and is_boxed(browser, lisa)
    assert "validate" in browser.execute_script(
        "return state.words.get(arguments[0]).node.className;", lisa
    )
    for step in browser.find_elements(By.CSS_SELECTOR, "#steps li"):
        assert "done" in step.get_attribute("class")

    # Toggle: box the clinic's name, unbox the patient's first name.
    clinic = word_index(browser, "Lakeshore")
    jane = word_index(browser, "Jane")
    assert not is_boxed(browser, clinic) and is_boxed(browser, jane)
    for index in (clinic, jane):
        browser.execute_script("state.words.get(arguments[0]).node.click();", index)
        wait.until(lambda d, i=index: is_boxed(d, i) is (i == clinic))
    assert "2 edit(s)" in browser.find_element(By.ID, "count").text

    # A reload replays the review once and each edit as a delta; the page applies them.
    browser.refresh()
    wait.until(lambda d: d.find_element(By.ID, "review").is_displayed())
    wait.until(lambda d: "2 edit(s)" in d.find_element(By.ID, "count").text)
    assert is_boxed(browser, clinic) and not is_boxed(browser, jane)
    assert browser.execute_script("return state.review.edits;") == 2

    browser.find_element(By.ID, "approve").click()
    link = wait.until(
        lambda d: next(
            (
                a
                for a in d.find_elements(By.CSS_SELECTOR, "#downloads a")
                if a.text == "redacted.png"
            ),
            None,
        )
    )
    png = urllib.request.urlopen(link.get_attribute("href"), timeout=30).read()
    report_url = link.get_attribute("href").replace("redacted.png", "report.json")
    report = json.load(urllib.request.urlopen(report_url, timeout=30))

    # The written PNG: black where the reviewer added a box and where the validator named
    # Lisa; the patient's first name, unboxed by the reviewer, is ink on paper again.
    image = Image.open(io.BytesIO(png)).convert("L")
    assert image.size == Image.open(SAMPLE).size
    assert dark_share(image, word_box(browser, clinic)) == 1.0
    assert dark_share(image, word_box(browser, lisa)) == 1.0
    assert dark_share(image, word_box(browser, jane)) < 0.5
    edits = report["review"]["edits"]
    assert [(e["action"], e["detection"]["index"]) for e in edits] == [
        ("add", clinic),
        ("remove", jane),
    ]
    assert edits[0]["detection"]["source"] == "reviewer"
    assert {"index": clinic, "source": "reviewer"}.items() <= next(
        d for d in report["detections"] if d["index"] == clinic
    ).items()
    assert all(d["index"] != jane for d in report["detections"])
    assert report["count_shown"] == len(report["boxes"])

    # Reload: the page re-attaches to the job and shows its result.
    browser.refresh()
    wait.until(lambda d: d.find_element(By.ID, "result").is_displayed())
    assert "redacted.png" in browser.find_element(By.ID, "downloads").text

    # Nothing was blocked by the CSP, nothing was left in the temporary folder.
    problems = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not problems, problems
    deadline = time.monotonic() + 10
    while job_folders(server) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert job_folders(server) == []


def dark_share(image: Image.Image, box: list[float]) -> float:
    """The share of pure-black pixels inside a word's box (shrunk by a pixel each side)."""
    x0, y0, x1, y1 = (int(box[0]) + 1, int(box[1]) + 1, int(box[2]) - 1, int(box[3]) - 1)
    return image.crop((x0, y0, x1, y1)).histogram()[0] / ((x1 - x0) * (y1 - y0))
