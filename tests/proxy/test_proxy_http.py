"""The proxy over real HTTP, in front of a real upstream: what the model reads, what the
user gets back, and every way a request is refused rather than forwarded."""

from __future__ import annotations

import socket

import orjson
import pytest

from devtools.fixtures.echo_upstream import EchoUpstream
from devtools.fixtures.running_proxy import RunningProxy, start_proxy, streamed_text
from redacto.proxy import ProxyConfig, build_proxy

PII = (
    "Call Jane at (415) 555-0100 or jane.doe@example.com; "
    "SSN 123-45-6789, card 4111 1111 1111 1111."
)
VALUES = ["555-0100", "jane.doe@example.com", "123-45-6789", "4111 1111 1111 1111"]


def chat(text: str, **extra: object) -> dict:
    return {"model": "m", "messages": [{"role": "user", "content": text}], **extra}


def test_a_chat_answer_comes_back_whole_and_the_upstream_never_saw_a_value(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    with running.client() as client:
        answer = client.post("/v1/chat/completions", json=chat(PII))
    assert answer.status_code == 200
    assert answer.json()["choices"][0]["message"]["content"] == PII
    seen = upstream.seen[-1]["messages"][0]["content"]
    assert seen == "Call Jane at [PHONE_1] or [EMAIL_1]; SSN [SSN_1], card [CARD_1]."
    assert not any(value in orjson.dumps(upstream.seen).decode() for value in VALUES)


def test_a_completion_prompt_list_and_suffix_are_redacted(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    body = {"model": "m", "prompt": [PII, "mail jane.doe@example.com"], "suffix": "SSN 123-45-6789"}
    with running.client() as client:
        answer = client.post("/v1/completions", json=body)
    assert answer.status_code == 200
    assert answer.json()["choices"][0]["text"] == f"{PII} mail jane.doe@example.com"
    assert upstream.seen[-1]["prompt"][1] == "mail [EMAIL_1]"
    assert upstream.seen[-1]["suffix"] == "SSN [SSN_1]"


@pytest.mark.parametrize("piece", [1, 2, 3, 5, 8, 13, 64])
def test_a_streamed_answer_is_restored_whatever_the_piece_size(
    running: RunningProxy, upstream: EchoUpstream, piece: int
) -> None:
    with running.client() as client:
        answer = client.post(
            "/v1/chat/completions",
            json=chat(PII, stream=True),
            headers={"x-echo-piece": str(piece)},
        )
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/event-stream")
    assert streamed_text(answer.text) == PII
    assert answer.text.rstrip().endswith("data: [DONE]")
    assert "[EMAIL_1]" not in answer.text


def test_placeholders_stay_the_same_for_a_whole_conversation(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    first = {"role": "user", "content": "I am jane.doe@example.com"}
    with running.client() as client:
        client.post("/v1/chat/completions", json={"model": "m", "messages": [first]})
        turn_two = [
            first,
            {"role": "assistant", "content": "Hello jane.doe@example.com"},
            {"role": "user", "content": "my colleague is bob@example.org, cc jane.doe@example.com"},
        ]
        answer = client.post("/v1/chat/completions", json={"model": "m", "messages": turn_two})
    assert answer.json()["choices"][0]["message"]["content"] == turn_two[2]["content"]
    seen = [message["content"] for message in upstream.seen[-1]["messages"]]
    assert seen == [
        "I am [EMAIL_1]",
        "Hello [EMAIL_1]",
        "my colleague is [EMAIL_2], cc [EMAIL_1]",
    ]


def test_chats_that_open_alike_share_nothing_unless_the_client_names_them(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    system = {"role": "system", "content": "You are a helpful assistant."}
    alice = {"model": "m", "messages": [system, {"role": "user", "content": "I am a@x.org"}]}
    # Bob's model invents "[EMAIL_1]": it must not come back as Alice's address.
    bob = {"model": "m", "messages": [system, {"role": "user", "content": "hello"}]}
    with running.client() as client:
        client.post("/v1/chat/completions", json=alice)
        answer = client.post(
            "/v1/chat/completions", json=bob, headers={"x-echo-reply": "[EMAIL_1]"}
        )
    assert answer.json()["choices"][0]["message"]["content"] == "[EMAIL_1]"


def test_a_value_known_to_the_conversation_is_hidden_where_no_rule_finds_it(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    headers = {"authorization": "Bearer alice", "x-redacto-conversation": "c-1"}
    with running.client() as client:
        client.post(
            "/v1/completions", json={"model": "m", "prompt": "SSN 123-45-6789"}, headers=headers
        )
        # "123-45-6789x" is no SSN to the rules; the vault still knows the value.
        client.post(
            "/v1/completions", json={"model": "m", "prompt": "id 123-45-6789x"}, headers=headers
        )
    assert upstream.seen[-1]["prompt"] == "id [SSN_1]x"


def test_a_pii_free_request_is_forwarded_unchanged_in_the_proxys_own_bytes(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    raw = b'{"model": "m",   "messages": [{"role": "user", "content": "hello in 2026"}]}'
    with running.client() as client:
        answer = client.post(
            "/v1/chat/completions", content=raw, headers={"content-type": "application/json"}
        )
    assert answer.status_code == 200 and upstream.seen[-1] == orjson.loads(raw)
    assert upstream.seen_raw[-1] == orjson.dumps(orjson.loads(raw))  # its own bytes, never `raw`


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"model": "m", "prompt": [1, 2, 3]}, 422, "token ids"),
        (
            {"model": "m", "messages": [{"role": "user", "content": [{"type": "input_audio"}]}]},
            422,
            "cannot be inspected",
        ),
        (
            {
                "model": "m",
                "messages": [
                    {
                        "role": "user",
                        "content": [{"type": "image_url", "image_url": {"url": "https://x/y.png"}}],
                    }
                ],
            },
            422,
            "data:image",
        ),
        (
            {
                "model": "m",
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "image_url",
                                "image_url": {"url": "data:image/png;base64,AAAA"},
                            }
                        ],
                    }
                ],
            },
            422,
            "--model",
        ),
        ({"model": "m", "messages": "hi"}, 400, "list of messages"),
    ],
    ids=["token-ids", "audio", "remote-image", "image-without-model", "bad-messages"],
)
def test_what_cannot_be_inspected_is_refused_and_never_forwarded(
    running: RunningProxy, upstream: EchoUpstream, body: dict, status: int, message: str
) -> None:
    endpoint = "/v1/completions" if "prompt" in body else "/v1/chat/completions"
    with running.client() as client:
        answer = client.post(endpoint, json=body)
        not_json = client.post(
            endpoint, content=b"{nope", headers={"content-type": "application/json"}
        )
        elsewhere = client.post("/v1/embeddings", json={"input": PII})
    assert answer.status_code == status and message in answer.json()["error"]["message"]
    assert not_json.status_code == 400 and elsewhere.status_code == 404
    assert upstream.seen == []


def test_an_upstream_error_is_relayed_with_its_values_restored(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    with running.client() as client:
        answer = client.post(
            "/v1/chat/completions", json=chat(PII), headers={"x-echo-status": "400"}
        )
    assert answer.status_code == 400
    assert answer.json()["error"]["message"] == f"upstream refused: {PII}"


@pytest.mark.slow
def test_an_upstream_that_does_not_answer_in_time_gives_504(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    with running.client() as client:
        answer = client.post("/v1/chat/completions", json=chat(PII), headers={"x-echo-delay": "3"})
        after = client.post("/v1/chat/completions", json=chat("still there?"))
    assert answer.status_code == 504
    assert answer.json()["error"]["code"] == "upstream_timeout"
    assert after.status_code == 200  # the proxy itself is fine


@pytest.mark.slow
def test_a_stream_that_stalls_ends_with_an_error_event(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    with running.client() as client:
        answer = client.post(
            "/v1/chat/completions", json=chat(PII, stream=True), headers={"x-echo-hang": "1"}
        )
    assert answer.status_code == 200  # the status line went out before the stall
    assert streamed_text(answer.text) == "half"
    assert '"code":"upstream_error"' in answer.text and "stopped sending" in answer.text


def test_an_upstream_that_is_down_gives_502() -> None:
    dead = EchoUpstream.start()
    url = dead.url
    dead.stop()
    proxy = start_proxy(build_proxy(ProxyConfig(upstream=url, connect_timeout_s=1)))
    try:
        with proxy.client() as client:
            answer = client.post("/v1/chat/completions", json=chat(PII))
    finally:
        proxy.stop()
    assert answer.status_code == 502 and "cannot be reached" in answer.json()["error"]["message"]


def test_models_and_health_are_answered(running: RunningProxy) -> None:
    with running.client() as client:
        assert client.get("/v1/models").json()["data"][0]["id"] == "echo"
        assert client.get("/health").json() == {"status": "ok"}


def test_keep_alive_serves_many_requests_on_one_connection(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    with running.client() as client:
        answers = [
            client.post("/v1/completions", json={"model": "m", "prompt": f"n {i}"})
            for i in range(50)
        ]
    assert [a.json()["choices"][0]["text"] for a in answers] == [f"n {i}" for i in range(50)]


def test_a_client_that_expects_100_continue_is_not_kept_waiting(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    body = orjson.dumps(chat(PII + " " * 2000))
    host, port = running.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as connection:
        connection.sendall(
            b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b"expect: 100-continue\r\ncontent-length: %d\r\n\r\n" % len(body)
        )
        assert connection.recv(100).startswith(b"HTTP/1.1 100 Continue")
        connection.sendall(body)
        answer = b""
        while b"finish_reason" not in answer:
            answer += connection.recv(65536)
    assert answer.startswith(b"HTTP/1.1 200") and b"jane.doe@example.com" in answer


def _read_to_close(connection: socket.socket) -> bytes:
    """Everything the proxy sends until it closes the connection."""
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    return received


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_a_client_that_half_closes_after_a_whole_request_still_gets_its_answer(
    running: RunningProxy, upstream: EchoUpstream, stream: bool
) -> None:
    """docs/proxy-http.md: a client that half-closes still gets the answer to a request it sent
    whole, values restored, and then the connection closes (uvicorn would close at once)."""
    body = orjson.dumps(chat(PII, stream=stream))
    host, port = running.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(
            b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\n\r\n%s" % (len(body), body)
        )
        connection.shutdown(socket.SHUT_WR)
        answer = _read_to_close(connection)
    head, _, payload = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    assert b"jane.doe@example.com" in payload and b"4111 1111 1111 1111" in payload
    assert "[EMAIL_1]" in upstream.seen[-1]["messages"][0]["content"]


@pytest.mark.parametrize(
    ("sent", "why"),
    [
        (
            b'POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-length: 500\r\n\r\n{"mo',
            b"ended early",
        ),
        (b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-le", b""),
    ],
    ids=["body cut short", "head cut short"],
)
def test_a_client_that_half_closes_mid_request_is_refused_and_nothing_is_forwarded(
    running: RunningProxy, upstream: EchoUpstream, sent: bytes, why: bytes
) -> None:
    host, port = running.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(sent)
        connection.shutdown(socket.SHUT_WR)
        answer = _read_to_close(connection)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert why in answer
    assert upstream.seen == []
