"""The review server over plain HTTP: who may talk to it, the queue, re-attaching, limits,
clean-up, and what its log may hold."""

from __future__ import annotations

import http.client
import json
import logging
import threading
import urllib.error
import urllib.request

import pytest

from redacto.prompts import PromptLibrary
from redacto.serve import CONTENT_SECURITY_POLICY, ReviewServer, ServeConfig
from serve_cases import TEXT_READING, SlowEngine, events, post, upload

TEXT = "Visit note\r\nPatient: Jane Doe, phone 408-555-0134.\r\nSeen by Dr. Adams.\r\n"
TEXT_REPLIES = {
    "classify": ["CATEGORY: Medical"],
    "detect": ["NAME: Jane Doe\nNAME: Doe Nobodyhere\n"],
    "validate": ["PASS"],
}


@pytest.fixture
def prompts():
    return PromptLibrary.load()


def serve(engine, **config):
    config = ServeConfig(ocr="tesseract", options=TEXT_READING, **config)
    return ReviewServer(engine, PromptLibrary.load(), config).start()


def request(server, path: str, *, host: str | None = None, method: str = "GET", **headers):
    """A raw request, so the Host header can be anything; returns (status, headers, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.putrequest(method, path, skip_host=True)
    connection.putheader("Host", host or f"127.0.0.1:{server.port}")
    for name, value in headers.items():
        connection.putheader(name.replace("_", "-"), value)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()
    # Header names are case-insensitive (RFC 9110): uvicorn sends them in lower case.
    return response.status, response.headers, body


def text_file(tmp_path, name="note.txt"):
    path = tmp_path / "inputs" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(TEXT.encode())
    return path


def test_the_page_needs_the_token_and_a_loopback_host():
    with serve(SlowEngine(TEXT_REPLIES)) as server:
        assert server.url.startswith("http://127.0.0.1:")
        assert server.address[0] == "127.0.0.1"
        token_path = f"/t/{server.token}/"
        status, headers, body = request(server, token_path)
        assert status == 200 and b"app.js" in body
        assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        assert "default-src 'none'" in CONTENT_SECURITY_POLICY
        assert headers["X-Frame-Options"] == "DENY" and headers["Cache-Control"] == "no-store"
        # A token one character off (never the token itself: it may end in "x").
        off_by_one = server.token[:-1] + ("y" if server.token.endswith("x") else "x")
        for path in ("/", f"/t/{off_by_one}/", "/t//", f"{token_path}../../etc/passwd"):
            assert request(server, path)[0] == 404
        assert request(server, token_path, host="evil.example:80")[0] == 404
        assert request(server, f"{token_path}app.js")[1]["Content-Type"].startswith("text/java")


def test_posts_from_another_origin_and_oversized_or_unknown_files_are_refused(tmp_path):
    with serve(SlowEngine(TEXT_REPLIES), max_upload_bytes=1000) as server:
        path = text_file(tmp_path)
        status, _ = post(
            server.url + "api/jobs",
            path.read_bytes(),
            {"X-File-Name": "note.txt", "Origin": "http://evil.example"},
        )
        assert status == 403
        status, body = post(server.url + "api/jobs", b"x" * 1001, {"X-File-Name": "big.txt"})
        assert status == 413 and "limit" in body["error"]
        status, body = post(server.url + "api/jobs", b"hello", {"X-File-Name": "a.docx"})
        assert status == 415


@pytest.mark.slow
def test_a_second_job_waits_its_turn_and_a_reload_replays_everything(tmp_path):
    engine = SlowEngine({step: texts * 2 for step, texts in TEXT_REPLIES.items()})
    engine.gate = threading.Event()
    with serve(engine) as server:
        first = upload(server.url, text_file(tmp_path, "first.txt"))
        events(server.url, first, until="page")
        second = upload(server.url, text_file(tmp_path, "second.txt"))
        jobs = json.load(urllib.request.urlopen(server.url + "api/jobs"))["jobs"]
        assert [(j["state"], j["place"]) for j in jobs] == [("running", None), ("queued", 1)]
        assert ("queued", {"place": 1, "name": "second.txt", "kind": "redact"}) in events(
            server.url, second, until="queued"
        )
        engine.gate.set()
        live = events(server.url, first, until="review")
        # A page that attaches later (a reload) gets the same events from the start.
        replayed = events(server.url, first, until="review")
        assert [name for name, _ in replayed] == [name for name, _ in live]
        assert [name for name, _ in live][:3] == ["queued", "started", "page"]
        assert live[-1][0] == "review", live[-3:]
        review = live[-1][1]
        assert review["status"] == "NEEDS_REVIEW"
        assert [m["placeholder"] for m in review["marks"]] == ["[NAME_1]", "[PHONE_1]"]
        assert [u["value"] for u in review["not_located"]] == ["Doe Nobodyhere"]
        for job in (first, second):
            events(server.url, job, until="review")
            assert post(f"{server.url}api/jobs/{job}/discard")[0] == 200
        assert events(server.url, second, until="end")[-1][0] == "end"


@pytest.mark.slow
def test_text_review_edits_approve_and_download(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="redacto.serve")
    with serve(SlowEngine(TEXT_REPLIES)) as server:
        job = upload(server.url, text_file(tmp_path, "Jane Doe notes.txt"))
        events(server.url, job, until="review")
        edit = f"{server.url}api/jobs/{job}/edit"
        start = TEXT.replace("\r\n", "\n").index("Adams")
        status, view = post(
            edit,
            json.dumps(
                {"action": "add", "start": start, "end": start + 5, "label": "NAME"}
            ).encode(),
            {"Content-Type": "application/json"},
        )
        assert status == 200, view
        assert [m["placeholder"] for m in view["marks"]] == ["[NAME_1]", "[PHONE_1]", "[NAME_2]"]
        for bad in ({"action": "toggle", "index": 0}, {"action": "fly"}, {"action": "add"}):
            assert post(edit, json.dumps(bad).encode())[0] == 400
        status, approved = post(f"{server.url}api/jobs/{job}/approve")
        assert status == 200
        assert [f["name"] for f in approved["files"]] == ["redacted.txt", "report.json"]
        assert post(edit, json.dumps({"action": "dismiss", "position": 0}).encode())[0] == 409
        with urllib.request.urlopen(f"{server.url}api/jobs/{job}/files/redacted.txt") as response:
            assert "attachment" in response.headers["Content-Disposition"]
            text = response.read().decode()
        assert text == (
            "Visit note\r\nPatient: [NAME_1], phone [PHONE_1].\r\nSeen by Dr. [NAME_2].\r\n"
        )
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"{server.url}api/jobs/{job}/files/..%2Freport.json")
    logged = caplog.text
    assert server.token not in logged
    for secret in ("Jane", "Doe", "Adams", "408-555", "notes"):
        assert secret not in logged


@pytest.mark.slow
def test_a_pdf_is_reviewed_page_by_page_and_approved_as_a_checked_pdf(tmp_path):
    import pypdfium2 as pdfium

    from devtools.fixtures.pdf_builder import Doc, Page, text

    white = text(54, 300, "Whitney Whitefield", colour="1 1 1")  # on the page, never shown
    pages = [
        Page(text(54, 340, "Patient: Jane Smith")),
        Page(text(54, 340, "Seen by Dr Adams") + white),
    ]
    source = Doc(pages).write(tmp_path / "two pages.pdf")
    replies = {"classify": ["CATEGORY: Medical"], "detect": ["NAME: Jane Smith"]}
    replies["validate"] = ["PASS"]
    with serve(SlowEngine(replies)) as server:
        job = upload(server.url, source)
        seen = events(server.url, job, until="review")
        page = next(data for name, data in seen if name == "page")
        assert [p["number"] for p in page["pages"]] == [0, 1]
        for number in (0, 1):
            with urllib.request.urlopen(f"{server.url}api/jobs/{job}/page/{number}.png") as image:
                assert image.read(8) == b"\x89PNG\r\n\x1a\n"
        assert not {"Whitney", "Whitefield"} & {w["t"] for w in page["words"]}
        adams = next(w["i"] for w in page["words"] if w["t"] == "Adams")
        assert next(w["page"] for w in page["words"] if w["i"] == adams) == 1
        toggle = {"action": "toggle", "index": adams, "label": "NAME"}
        assert post(f"{server.url}api/jobs/{job}/edit", json.dumps(toggle).encode())[0] == 200
        status, approved = post(f"{server.url}api/jobs/{job}/approve")
        assert status == 200 and approved["status"] == "PASS", approved
        names = [f["name"] for f in approved["files"]]
        assert names == ["redacted.pdf", "redacted.txt", "report.json"]
        with urllib.request.urlopen(f"{server.url}api/jobs/{job}/files/redacted.pdf") as response:
            written = tmp_path / "written.pdf"
            written.write_bytes(response.read())
        with urllib.request.urlopen(f"{server.url}api/jobs/{job}/files/redacted.txt") as response:
            redacted = response.read().decode()
        assert "Whitney" not in redacted and "Seen by Dr" in redacted
        with urllib.request.urlopen(f"{server.url}api/jobs/{job}/files/report.json") as response:
            report = json.load(response)
        assert report["pdf"]["verified"] is True
        assert [p["hidden_words"] for p in report["pdf"]["pages"]] == [0, 2]
        assert [len(p["boxes"]) for p in report["pdf"]["pages"]] == [2, 1]
        pdf = pdfium.PdfDocument(str(written))
        try:
            words = " ".join(pdf[n].get_textpage().get_text_range() for n in range(len(pdf)))
        finally:
            pdf.close()
        for value in ("Jane", "Smith", "Adams"):
            assert value not in words
