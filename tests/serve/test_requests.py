"""The review server against clients that misbehave: malformed requests, slow ones, too many.

Real sockets against a real server. Every slow-client case runs with short limits made for
the test and waits for the server's answer with a bound far above them, so a loaded machine
makes a test slower, never wrong.
"""

from __future__ import annotations

import json
import logging
import re
import select
import socket
import time

import pytest

from redacto.prompts import PromptLibrary
from redacto.serve import ReviewServer, ServeConfig
from serve_cases import TEXT_READING, SlowEngine, events, upload

REPLIES = {
    "classify": ["CATEGORY: Medical"],
    "detect": ["NAME: Jane Doe\n"],
    "validate": ["PASS"],
}
BOUND_S = 20.0
"""How long a test waits for what the server must do within a second or less."""


def serve(engine=None, **config) -> ReviewServer:
    config = ServeConfig(ocr="tesseract", options=TEXT_READING, **config)
    return ReviewServer(engine or SlowEngine(REPLIES), PromptLibrary.load(), config).start()


def connect(server: ReviewServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=BOUND_S)


def head(server: ReviewServer, request_line: str, **headers: str) -> bytes:
    lines = [request_line, f"Host: 127.0.0.1:{server.port}"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def answer(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass  # the server may close with a request part unread; what it sent is here
    sock.close()
    return received


def status_of(response: bytes) -> int:
    return int(response.split(b" ", 2)[1]) if response.startswith(b"HTTP/") else 0


def exchange(server: ReviewServer, data: bytes, *, half_close: bool = True) -> bytes:
    sock = connect(server)
    sock.sendall(data)
    if half_close:
        sock.shutdown(socket.SHUT_WR)
    return answer(sock)


def text_job(server: ReviewServer, tmp_path) -> str:
    note = tmp_path / "note.txt"
    note.write_text("Patient Jane Doe, seen today.\n", encoding="utf-8")
    job = upload(server.url, note)
    events(server.url, job, until="review")
    return job


# -- malformed requests ------------------------------------------------------------------


@pytest.mark.slow
def test_malformed_requests_are_answered_400_and_log_only_the_exception_type(
    tmp_path, caplog, capfd
):
    caplog.set_level(logging.INFO, logger="redacto.serve")
    with serve() as server:
        job = text_job(server, tmp_path)
        edit = f"POST /t/{server.token}/api/jobs/{job}/edit HTTP/1.1"

        def post_edit(body: bytes) -> int:
            return status_of(
                exchange(server, head(server, edit, Content_Length=str(len(body))) + body)
            )

        nested = b'{"action":' + b"[" * 30_000 + b"]" * 30_000 + b"}"
        assert post_edit(nested) == 400
        assert post_edit(b'{"action": "toggle", "index": ' + b"7" * 5000 + b"}") == 400
        assert status_of(exchange(server, b"GARBAGE\r\n")) == 400
        # The version is malformed for this server: answered, with HTTP's own status for it.
        assert status_of(exchange(server, b"GET / HTTP/2.0\r\n")) == 505
        upload_head = head(
            server,
            f"POST /t/{server.token}/api/jobs HTTP/1.1",
            X_File_Name="early.txt",
            Content_Length="1000",
        )
        assert status_of(exchange(server, upload_head + b"Jane Doe " * 3)) == 400
        # The job is still there and still reviewable: nothing above broke the server.
        status = post_edit(
            json.dumps({"action": "add", "start": 8, "end": 16, "label": "NAME"}).encode()
        )
        assert status == 200
    _, errors = capfd.readouterr()
    assert "Traceback" not in errors and "Exception occurred" not in errors
    logged = caplog.text
    assert "RecursionError" in logged and "ValueError" in logged
    for leak in ("Jane", "7777", "GARBAGE", "HTTP/2.0", "recursion", "digits", "early.txt"):
        assert leak not in logged


def test_an_unexpected_error_in_a_route_is_a_clean_500_logged_by_its_type_alone(capfd, monkeypatch):
    # stderr as `redacto serve` logs to it (logging.basicConfig); pytest holds the root's.
    to_stderr = logging.StreamHandler()
    logging.getLogger("redacto.serve").addHandler(to_stderr)
    try:
        with serve() as server:
            list_jobs = head(server, f"GET /t/{server.token}/api/jobs HTTP/1.1")

            def broken() -> list:
                raise LookupError("Jane Doe, MRN 4471")

            monkeypatch.setattr(server.board, "summaries", broken)
            response = exchange(server, list_jobs)
            assert status_of(response) == 500
            assert json.loads(response.partition(b"\r\n\r\n")[2]) == {"error": "internal error"}
            monkeypatch.undo()
            response = exchange(server, list_jobs)
            assert status_of(response) == 200
            assert json.loads(response.partition(b"\r\n\r\n")[2])["jobs"] == []
    finally:
        logging.getLogger("redacto.serve").removeHandler(to_stderr)
    _, errors = capfd.readouterr()
    assert re.search(r"^http: internal error LookupError$", errors, re.MULTILINE), errors
    for leak in ("Jane", "4471", "Traceback", "broken"):
        assert leak not in errors


def test_the_token_and_control_characters_never_reach_the_log(caplog):
    caplog.set_level(logging.INFO, logger="redacto.serve")
    with serve() as server:
        absolute = f"GET http://127.0.0.1:{server.port}/t/{server.token}/ HTTP/1.1"
        assert status_of(exchange(server, head(server, absolute))) == 404
        for line in (
            "GET /\x1b[2J\x1b]0;owned\x07/x HTTP/1.1",
            f"GET /t/{server.token}/api/jobs/\x1b[31m\r HTTP/1.1",
            "\x1b[31mGET / HTTP/1.1",
        ):
            assert status_of(exchange(server, head(server, line))) in (404, 501)
    logged = caplog.text
    assert server.token not in logged
    assert not any(ord(c) < 32 and c != "\n" for c in logged), repr(logged)
    assert "\x7f" not in logged and "\x1b" not in logged


# -- the queue and slow clients ----------------------------------------------------------


@pytest.mark.slow
def test_the_waiting_limit_is_checked_before_a_body_is_read():
    engine = SlowEngine({step: texts * 3 for step, texts in REPLIES.items()})
    with serve(engine, max_waiting=2) as server:
        body = b"Patient Jane Doe.\n"
        sockets = []
        for number in range(3):
            sock = connect(server)
            sock.sendall(
                head(
                    server,
                    f"POST /t/{server.token}/api/jobs HTTP/1.1",
                    X_File_Name=f"upload{number}.txt",
                    Content_Length=str(len(body)),
                )
            )
            sockets.append(sock)
        # Three heads, no body: two hold the two places, one is refused at once.
        readable, _, _ = select.select(sockets, [], [], BOUND_S)
        assert len(readable) >= 1
        refused = readable[0]
        sockets.remove(refused)
        assert status_of(answer(refused)) == 503
        for sock in sockets:
            sock.sendall(body)
            assert status_of(answer(sock)) == 201


def test_a_request_head_sent_a_byte_at_a_time_is_cut_off():
    with serve(header_timeout_s=0.5) as server:
        sock = connect(server)
        trickle = head(server, f"GET /t/{server.token}/ HTTP/1.1", X_Padding="x" * 500)
        closed = False
        deadline = time.monotonic() + BOUND_S
        for byte in trickle:
            if time.monotonic() > deadline:
                break
            try:
                sock.send(bytes([byte]))
            except OSError:
                closed = True
                break
            if select.select([sock], [], [], 0.1)[0]:
                closed = sock.recv(1024) == b""
                break
        sock.close()
        assert closed, "the server still waits for a head that started long ago"


@pytest.mark.slow
def test_an_upload_that_stalls_gets_408_and_gives_its_place_back(tmp_path):
    config = {"idle_timeout_s": 0.5, "body_timeout_s": 1.0, "max_waiting": 1}
    with serve(**config) as server:
        sock = connect(server)
        sock.sendall(
            head(
                server,
                f"POST /t/{server.token}/api/jobs HTTP/1.1",
                X_File_Name="stalled.txt",
                Content_Length="100",
            )
            + b"Jane"
        )
        assert status_of(answer(sock)) == 408
        # Its place in line is free again.
        upload(server.url, _note(tmp_path))


def test_connections_over_the_limit_are_refused_without_a_thread():
    with serve(max_connections=3, header_timeout_s=BOUND_S) as server:
        held = [connect(server) for _ in range(3)]
        for sock in held:
            sock.sendall(b"GET /t/")  # a head that has not ended
        assert status_of(answer(connect(server))) == 503
        for sock in held:
            sock.close()
        # The held connections are gone; a new one is served again.
        deadline = time.monotonic() + BOUND_S
        while time.monotonic() < deadline:
            status = status_of(exchange(server, head(server, f"GET /t/{server.token}/ HTTP/1.1")))
            if status == 200:
                break
            time.sleep(0.05)
        assert status == 200


def _note(tmp_path):
    note = tmp_path / "second.txt"
    note.write_text("Patient Jane Doe.\n", encoding="utf-8")
    return note
