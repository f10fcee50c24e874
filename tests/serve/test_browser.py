"""The review page in a real browser: Debian's headless chromium driven by selenium.

Upload the sample photo, watch the steps and boxes arrive while the (slow, scripted) model is
still answering, find the validator's item and the value that is not on the page, toggle
two boxes, reload (the review and the edits' deltas are replayed), approve, and check the
written PNG's pixels and the report's reviewer edits. Then reload again: the page
re-attaches to the job. Real server, real OCR, real SSE, real PNG.

Proofread a CV (a born-digital PDF) against a fake OpenAI-compatible upstream that holds
its stream after each line until the page shows that line's mistake: each one is boxed on
its words, the unplaceable one listed, while the stream is still going.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import threading
import urllib.request
from pathlib import Path

import pytest
from PIL import Image
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from cv_cases import DETECTOR_OPTIONS, ENGLISH, ActedOn
from cv_pages import write_born_digital
from fake_upstream import Answer, FakeUpstream
from redacto.prompts import PromptLibrary
from redacto.proofread import UpstreamConfig
from redacto.serve import ReviewServer, ServeConfig
from serve_cases import SAMPLE, TEXT_READING, SlowEngine, sample_replies

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
def server():
    engine = SlowEngine(sample_replies(), delay=0.4)
    config = ServeConfig(ocr="ppocr", options=TEXT_READING)
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

    # The words no reader could explain: listed above the validator's items, and outlined
    # on the page (dashed, not boxed), so the reviewer looks at them first.
    checks = browser.execute_script("return state.review.to_check;")
    assert checks and browser.find_element(By.ID, "check").is_displayed()
    listed = browser.find_element(By.ID, "to-check").text
    assert all(word["value"] in listed for word in checks)
    assert "no reader could explain" in browser.find_element(By.ID, "reasons").text
    readable = [word for word in checks if not word["hidden"]]
    assert readable
    for word in readable:
        classes = browser.execute_script(
            "return state.words.get(arguments[0]).node.className;", word["index"]
        )
        assert "to-check" in classes and "redacted" not in classes
    outlined = browser.find_elements(By.CSS_SELECTOR, ".word.to-check")
    assert len(outlined) == len(readable)
    following = browser.execute_script("return $('check').compareDocumentPosition($('validator'));")
    assert following & 4, "the words to check come before the validator's items"
    browser.save_screenshot(str(tmp_path / "review-to-check.png"))

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

    # Nothing was blocked by the CSP.
    problems = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not problems, problems


@pytest.fixture
def text_server():
    replies = {
        "classify": ["DOCUMENT_TYPE: Note\nCATEGORY: General"],
        "detect": ["NAME: Jane Marlowe\n"],
        "validate": ["PASS"],
    }
    config = ServeConfig(options=TEXT_READING)
    with ReviewServer(SlowEngine(replies), PromptLibrary.load(), config).start() as running:
        yield running


def texts(driver, selector: str) -> list[str]:
    """The text of every element `selector` finds now (read in one script: no stale nodes)."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((n) => n.textContent);",
        selector,
    )


def test_a_text_s_unexplained_words_are_outlined_and_listed_until_redacted(
    browser, text_server, tmp_path
):
    note = tmp_path / "note.txt"
    note.write_text("Jane Marlowe asked ex-Zombie Wiik about the plan at 48213 Oak.\n")
    wait = WebDriverWait(browser, 120, poll_frequency=0.05)
    browser.get(text_server.url)
    picker = browser.find_element(By.ID, "file")
    browser.execute_script("arguments[0].hidden = false;", picker)
    picker.send_keys(str(note))
    wait.until(lambda d: d.find_element(By.ID, "review").is_displayed())

    # Jane Marlowe is redacted; Wiik and 48213 are readable and no reader explains them.
    assert "NEEDS_REVIEW" in browser.find_element(By.ID, "verdict").text
    assert "2 words no reader could explain" in browser.find_element(By.ID, "reasons").text
    assert texts(browser, "#text .to-check") == ["Wiik", "48213"]
    assert texts(browser, "#to-check li") == ["Wiik capitalised", "48213 digits"]
    browser.save_screenshot(str(tmp_path / "text-to-check.png"))

    # The reviewer redacts Wiik: it is struck through in the list, no longer outlined.
    start = browser.execute_script("return state.review.to_check[0].start;")
    browser.execute_script(
        "edit({action: 'add', start: arguments[0], end: arguments[0] + 4});", start
    )
    wait.until(lambda d: texts(d, "#to-check li.hidden") == ["Wiik capitalised, redacted now"])
    assert texts(browser, "#text .to-check") == ["48213"]
    assert texts(browser, "#text mark.reviewer") == ["Wiik"]
    problems = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not problems, problems


def dark_share(image: Image.Image, box: list[float]) -> float:
    """The share of pure-black pixels inside a word's box (shrunk by a pixel each side)."""
    x0, y0, x1, y1 = (int(box[0]) + 1, int(box[1]) + 1, int(box[2]) - 1, int(box[3]) - 1)
    return image.crop((x0, y0, x1, y1)).histogram()[0] / ((x1 - x0) * (y1 - y0))


@pytest.fixture
def proofread_server():
    upstream = FakeUpstream.start()
    upstream.answer = Answer(lines=ENGLISH.answer, piece=4)
    config = ServeConfig(
        ocr="tesseract",
        options=DETECTOR_OPTIONS,
        proofread_upstream=UpstreamConfig(upstream.url),
    )
    try:
        with ReviewServer(ENGLISH.engine(), PromptLibrary.load(), config).start() as running:
            yield running, upstream
    finally:
        upstream.stop()


SHOWN_MISTAKES = "return document.querySelectorAll('#mistakes li, #not-located li').length;"


def test_a_pdf_is_proofread_each_mistake_boxed_as_its_line_arrives(
    browser, proofread_server, tmp_path
):
    server, upstream = proofread_server
    source = write_born_digital(ENGLISH.lines, tmp_path / "cv.pdf")
    wait = WebDriverWait(browser, 120, poll_frequency=0.05)
    browser.get(server.url)
    browser.find_element(By.CSS_SELECTOR, 'input[name="task"][value="proofread"]').click()
    picker = browser.find_element(By.ID, "file")
    assert picker.get_attribute("accept") == ".png,.jpg,.jpeg,.webp,.pdf"

    # After each answer line the fake upstream holds the stream until the page shows that
    # line's mistake; the page is driven only from there until the stream is over.
    expected = ActedOn(ENGLISH).after_line
    streamed = threading.Event()
    mid_stream: dict[str, object] = {}

    def gate(line: int) -> bool:
        shown = WebDriverWait(browser, 20, poll_frequency=0.05).until(
            lambda d: d.execute_script(SHOWN_MISTAKES) >= expected[line] or None
        )
        if line == 1:  # two mistakes in, three lines still to come
            mid_stream["boxes"] = len(browser.find_elements(By.CSS_SELECTOR, ".mistake"))
            mid_stream["step"] = browser.find_element(
                By.CSS_SELECTOR, '#steps li[data-step="5"]'
            ).get_attribute("class")
            mid_stream["verdict"] = browser.find_element(By.ID, "proofread-verdict").text
            browser.save_screenshot(str(tmp_path / "proofread-mid-stream.png"))
        if line == len(ENGLISH.answer) - 1:
            streamed.set()
        return bool(shown)

    upstream.gate = gate
    browser.execute_script("arguments[0].hidden = false;", picker)
    picker.send_keys(str(source))
    assert streamed.wait(120)
    browser.execute_script("arguments[0].hidden = true;", picker)  # as a person sees the page
    assert upstream.gate_results == [True] * len(ENGLISH.answer)
    assert mid_stream == {"boxes": 2, "step": "running", "verdict": ""}

    wait.until(lambda d: d.find_element(By.ID, "proofread-verdict").text)
    verdict = browser.find_element(By.ID, "proofread-verdict").text
    assert "4 mistake(s): 3 on the page, 1 not located" in verdict
    assert "Statistcs → Statistics" in browser.find_element(By.ID, "not-located").text
    listed = browser.find_element(By.ID, "mistakes").text
    for error, correction in (("recieved", "received"), ("quartely", "quarterly")):
        assert f"{error} → {correction}" in listed
    boxes = browser.find_elements(By.CSS_SELECTOR, ".mistake")
    assert sorted(box.get_attribute("data-n") for box in boxes) == ["1", "2", "3"]
    assert "0 sent" in browser.find_element(By.ID, "count").text
    # the words hidden from the proofreader are outlined, not blacked out
    assert browser.find_elements(By.CSS_SELECTOR, ".proofreading .word.redacted")
    assert on_its_word(browser, 1, "recieved") > 0.8
    assert on_its_word(browser, 2, "quartely") > 0.8
    downloads = browser.find_element(By.ID, "downloads").text
    assert "proofread.pdf" in downloads and "mistakes.json" in downloads
    browser.set_window_size(1400, 1300)
    browser.save_screenshot(str(tmp_path / "proofread.png"))
    if shots := os.environ.get("REDACTO_SCREENSHOT_DIR"):
        for name in ("proofread.png", "proofread-mid-stream.png"):
            shutil.copy(tmp_path / name, Path(shots) / name)

    # A reload re-attaches: the events are replayed and the same boxes drawn again.
    browser.refresh()
    wait.until(lambda d: d.find_element(By.ID, "proofread-verdict").text)
    assert len(browser.find_elements(By.CSS_SELECTOR, ".mistake")) == 3
    assert on_its_word(browser, 1, "recieved") > 0.8

    problems = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not problems, problems


def on_its_word(driver, n: int, text: str) -> float:
    """How much of mistake `n`'s box on the screen the last word reading `text` covers."""
    return driver.execute_script(
        """
        const box = document.querySelector('.mistake[data-n="' + arguments[0] + '"]')
          .getBoundingClientRect();
        const words = [...state.words.values()].filter((w) => w.text === arguments[1]);
        const word = words[words.length - 1].node.getBoundingClientRect();
        const w = Math.min(box.right, word.right) - Math.max(box.left, word.left);
        const h = Math.min(box.bottom, word.bottom) - Math.max(box.top, word.top);
        return w > 0 && h > 0 ? (w * h) / (box.width * box.height) : 0;
        """,
        n,
        text,
    )
