"""Values hidden behind Unicode, JSON escapes or a split never reach the upstream whole.

Each of these would reach the upstream whole unless the proxy read through it: a card typed
with no-break spaces, an SSN with an en dash, an e-mail with a zero-width space or written
`\\u0040` inside a tool call's arguments, and an e-mail cut in two across the parts of a
message. Each request goes through a real proxy to the recording echo upstream; the test
reads what it received.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from devtools.fixtures.echo_upstream import EchoUpstream
from devtools.fixtures.running_proxy import RunningProxy
from redacto.proxy.escapes import undo_json_escapes


def send(running: RunningProxy, messages: list[dict[str, Any]]) -> None:
    body = {"model": "m", "messages": messages}
    with running.client() as client:
        answer = client.post("/v1/chat/completions", json=body)
    assert answer.status_code == 200, answer.text


def forwarded(upstream: EchoUpstream) -> str:
    """Every string the upstream received, as its raw JSON."""
    return upstream.seen_raw[-1].decode("utf-8")


def user(content: Any) -> dict[str, Any]:
    return {"role": "user", "content": content}


TRICKS = [
    ("Card ４１１１ １１１１ １１１１ １１１１ ok", "Card [CARD_1] ok"),
    ("Card 4111\u00a01111\u00a01111\u00a01111 ok", "Card [CARD_1] ok"),
    ("Card 4111\t1111\t1111\t1111 ok", "Card [CARD_1] ok"),
    ("Card 4111\n1111\n1111\n1111 ok", "Card [CARD_1] ok"),
    ("SSN 536\u201322\u20138741.", "SSN [SSN_1]."),
    ("IBAN de89 3704 0044 0532 0130 00 ok", "IBAN [ACCOUNT_1] ok"),
    ("to ja\u200bne.doe@exam\u200dple.com.", "to [EMAIL_1]."),
    ("to jürgen.müller@example.de.", "to [EMAIL_1]."),
    ("to hans.mueller@bücher.de.", "to [EMAIL_1]."),
]


@pytest.mark.parametrize(("text", "expected"), TRICKS)
def test_a_value_written_with_unicode_tricks_is_replaced_whole(
    running: RunningProxy, upstream: EchoUpstream, text: str, expected: str
) -> None:
    send(running, [user(text)])
    assert upstream.seen[-1]["messages"][0]["content"] == expected


def tool_call(arguments: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "mail", "arguments": arguments},
            }
        ],
    }


@pytest.mark.parametrize(
    "arguments",
    [
        '{"to": "jane.doe\\u0040example.com"}',
        '{"to": "\\u006a\\u0061\\u006e\\u0065.doe@example\\u002ecom"}',
        '{"card": "4111\\u00a01111\\u00a01111\\u00a01111"}',
        '{"card": "4111\\t1111\\t1111\\t1111"}',
        # JSON inside a string inside the arguments: escaped twice
        '{"payload": "{\\"to\\": \\"jane.doe\\\\u0040example.com\\"}"}',
    ],
    ids=["at-sign", "letters", "nbsp", "tab", "twice"],
)
def test_json_escapes_in_a_tool_calls_arguments_are_read_as_json_reads_them(
    running: RunningProxy, upstream: EchoUpstream, arguments: str
) -> None:
    send(
        running,
        [
            user("send it"),
            tool_call(arguments),
            {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
        ],
    )
    sent = upstream.seen[-1]["messages"][1]["tool_calls"][0]["function"]["arguments"]
    assert "[EMAIL_1]" in sent or "[CARD_1]" in sent
    for piece in ("jane", "doe", "example", "4111", "1111"):
        assert piece not in sent
    assert isinstance(orjson.loads(sent), dict)  # still JSON: whole escapes were replaced


def test_json_escapes_are_undone_by_json_s_grammar() -> None:
    # JSON's a\\\\xb is a, one backslash, xb: that backslash does not start an escape.
    assert undo_json_escapes("a\\\\xb").text == "a\\xb"
    assert undo_json_escapes("\\ud83d\\ude00 \\ud83d!").text == "\U0001f600 \\ud83d!"
    read = undo_json_escapes('{"to": "jane\\u0040x.com"}')
    assert read.text == '{"to": "jane@x.com"}'
    assert read.source_span(8, 18) == (8, 23)  # the placeholder replaces the whole escape
    assert undo_json_escapes("no escapes").maps == ()


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        (["Mail me at jane.doe@exa", "mple.com thanks"], ["Mail me at [EMAIL_1]", " thanks"]),
        (["Card 4111 1111 ", "1111 1111 ok"], ["Card [CARD_1]", " ok"]),
        (["Card 4111 1111", "1111 1111 ok"], ["Card [CARD_1]", " ok"]),
        (["Card 4111 11", "11 1111 1111 ok"], ["Card [CARD_1]", " ok"]),
        (["IBAN DE89 3704 0044 05", "32 0130 00 ok"], ["IBAN [ACCOUNT_1]", " ok"]),
    ],
    ids=["email-mid-word", "card-space-in-part", "card-at-a-group", "card-mid-group", "iban"],
)
def test_a_value_split_across_the_text_parts_of_a_message_is_found(
    running: RunningProxy, upstream: EchoUpstream, parts: list[str], expected: list[str]
) -> None:
    send(running, [user([{"type": "text", "text": part} for part in parts])])
    seen = [part["text"] for part in upstream.seen[-1]["messages"][0]["content"]]
    assert seen == expected


def test_a_value_split_across_two_messages_is_found(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    send(
        running,
        [user("My e-mail is jane.doe@exa"), user("mple.com, card 4111 1111"), user("1111 1111.")],
    )
    seen = [message["content"] for message in upstream.seen[-1]["messages"]]
    assert seen == ["My e-mail is [EMAIL_1]", ", card [CARD_1]", "."]
    assert "jane" not in forwarded(upstream) and "1111" not in forwarded(upstream)


def test_the_whole_value_comes_back_where_the_model_writes_its_placeholder(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    body = {
        "model": "m",
        "messages": [
            user(
                [
                    {"type": "text", "text": "I am jane.doe@exa"},
                    {"type": "text", "text": "mple.com"},
                ]
            )
        ],
    }
    with running.client() as client:
        answer = client.post(
            "/v1/chat/completions", json=body, headers={"x-echo-reply": "Hello [EMAIL_1]"}
        )
    assert answer.json()["choices"][0]["message"]["content"] == "Hello jane.doe@example.com"


def test_unrelated_parts_are_not_joined_into_a_value(
    running: RunningProxy, upstream: EchoUpstream
) -> None:
    parts = ["Room 12", "34 people came", "on day 5", "6 of the trip"]
    send(running, [user([{"type": "text", "text": part} for part in parts])])
    assert [p["text"] for p in upstream.seen[-1]["messages"][0]["content"]] == parts
