"""Answers come back with the values in place, however the stream is cut."""

from __future__ import annotations

import orjson
import pytest

from redacto.proxy.restore import SseRestorer, restore_json
from redacto.vault import Vault
from restore_sample import ANSWER, RESTORED, vault


def test_json_is_restored_and_look_alikes_pass_through() -> None:
    answer = {"choices": [{"message": {"content": ANSWER}}], "id": "[EMAIL_1]"}
    assert restore_json(answer, vault()) == {
        "choices": [{"message": {"content": RESTORED}}],
        "id": "jane.doe@example.com",
    }


def events(text: str, piece: int, chat: bool = True) -> bytes:
    out = []
    pieces = [text[i : i + piece] for i in range(0, len(text), piece)]
    for number, part in enumerate(pieces):
        choice: dict = {"index": 0, "finish_reason": "stop" if number == len(pieces) - 1 else None}
        if chat:
            choice["delta"] = {"content": part}
        else:
            choice["text"] = part
        out.append(b"data: " + orjson.dumps({"id": "x", "choices": [choice]}) + b"\n\n")
    return b"".join(out) + b": keep-alive\n\ndata: [DONE]\n\n"


def shown_text(stream: bytes, chat: bool = True) -> str:
    text = []
    for event in stream.split(b"\n\n"):
        if event.startswith(b"data: {"):
            choice = orjson.loads(event[6:])["choices"][0]
            text.append(choice["delta"]["content"] if chat else choice["text"])
    return "".join(text)


@pytest.mark.parametrize("chat", [True, False], ids=["chat", "completion"])
def test_an_event_stream_cut_at_every_byte_offset_is_restored(chat: bool) -> None:
    raw = events(ANSWER, 5, chat)
    for cut in range(len(raw) + 1):
        restorer = SseRestorer(vault())
        out = restorer.feed(raw[:cut]) + restorer.feed(raw[cut:]) + restorer.close()
        assert shown_text(out, chat) == RESTORED, cut
        assert out.endswith(b"data: [DONE]\n\n")
        assert b"[EMAIL_1]" not in out and b": keep-alive" in out


@pytest.mark.parametrize("piece", [1, 2, 3, 7, 100])
def test_an_event_stream_fed_a_byte_at_a_time_is_restored(piece: int) -> None:
    raw = events(ANSWER, piece)
    restorer = SseRestorer(vault())
    out = b"".join(restorer.feed(raw[i : i + 1]) for i in range(len(raw))) + restorer.close()
    assert shown_text(out) == RESTORED


@pytest.mark.parametrize("separator", [b"\n\n", b"\r\n\r\n"], ids=["lf", "crlf"])
def test_another_encoders_events_are_restored_escapes_and_all(separator: bytes) -> None:
    """An upstream on Python's json: spaces after separators, non-ASCII and here even the
    brackets written as `\\u` escapes, which the bytes alone do not show as placeholders."""
    pieces = ["Write to \\u005bEMAIL_1\\u005d or ", "[NA", "ME_1]; caf\\u00e9 [TODO_1] ["]
    raw = b"".join(
        b'data: {"id": "x", "choices": [{"index": 0, "delta": {"content": "'
        + piece.encode()
        + b'"}, "finish_reason": null}]}'
        + separator
        for piece in pieces
    )
    restorer = SseRestorer(vault())
    out = restorer.feed(raw + b"data: [DONE]" + separator) + restorer.close()
    assert shown_text(out) == "Write to jane.doe@example.com or Zoë Ångström; café [TODO_1] ["


def test_an_event_that_cannot_hold_a_placeholder_goes_through_byte_for_byte() -> None:
    """Most events of a long answer are sent as the upstream wrote them, unparsed; one that
    may hold a placeholder (or follows text held back) is rewritten."""
    plain = b'data: {"id": "x",  "choices": [{"index": 0, "delta": {"content": "to "}}]}\n\n'
    named = b'data: {"id": "x", "choices": [{"index": 0, "delta": {"content": "[EMAIL_1]"}}]}\n\n'
    restorer = SseRestorer(vault())
    assert restorer.feed(plain) == plain
    out = restorer.feed(named)
    assert b"jane.doe@example.com" in out and b"[EMAIL_1]" not in out
    held = SseRestorer(vault())
    assert shown_text(held.feed(named.replace(b"[EMAIL_1]", b"see [EMA"))) == "see "
    after = plain.replace(b"to ", b"IL_1] ok")  # no bracket, but it ends what was held
    assert shown_text(held.feed(after)) == "jane.doe@example.com ok"


def test_what_is_held_when_a_stream_ends_without_done_or_finish_is_sent() -> None:
    chunk = {"id": "x", "choices": [{"index": 0, "delta": {"content": "see [NAME_"}}]}
    restorer = SseRestorer(vault())
    out = restorer.feed(b"data: " + orjson.dumps(chunk) + b"\n\n") + restorer.close()
    assert shown_text(out) == "see [NAME_"


def test_two_choices_are_restored_apart() -> None:
    def chunk(index: int, text: str) -> bytes:
        body = {"choices": [{"index": index, "delta": {"content": text}}]}
        return b"data: " + orjson.dumps(body) + b"\n\n"

    restorer = SseRestorer(vault())
    out = restorer.feed(chunk(0, "[EMA") + chunk(1, "[NAM") + chunk(0, "IL_1]") + chunk(1, "E_1]"))
    out += restorer.close()
    by_choice: dict[int, str] = {0: "", 1: ""}
    for event in out.split(b"\n\n"):
        if event.startswith(b"data: {"):
            choice = orjson.loads(event[6:])["choices"][0]
            by_choice[choice["index"]] += choice["delta"]["content"]
    assert by_choice == {0: "jane.doe@example.com", 1: "Zoë Ångström"}


QUOTED = 'Ann "Nan" Lee \\ Jr.'
ARGUMENTS = '{"to": "[EMAIL_1]", "name": "[NAME_2]", "note": "[NAME_9] stays"}'


def tool_vault() -> Vault:
    book = vault()
    book.placeholder_for("NAME", QUOTED)
    return book


def expected_arguments() -> dict[str, str]:
    return {"to": "jane.doe@example.com", "name": QUOTED, "note": "[NAME_9] stays"}


def test_whole_answer_tool_call_arguments_get_json_escaped_values() -> None:
    answer = {
        "choices": [
            {
                "message": {
                    "content": None,
                    "tool_calls": [
                        {"id": "c1", "function": {"name": "send", "arguments": ARGUMENTS}}
                    ],
                }
            }
        ]
    }
    restored = restore_json(answer, tool_vault())
    arguments = restored["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
    assert orjson.loads(arguments) == expected_arguments()


def tool_events(arguments: str, cut: int, finish: bool) -> bytes:
    def event(delta: dict, finish_reason: str | None = None) -> bytes:
        choice = {"index": 0, "delta": delta, "finish_reason": finish_reason}
        return b"data: " + orjson.dumps({"id": "x", "choices": [choice]}) + b"\n\n"

    head = {"index": 0, "id": "c1", "type": "function", "function": {"name": "send"}}
    pieces = [
        event(
            {
                "role": "assistant",
                "tool_calls": [{**head, "function": {"name": "send", "arguments": ""}}],
            }
        )
    ]
    for part in (arguments[:cut], arguments[cut:]):
        pieces.append(event({"tool_calls": [{"index": 0, "function": {"arguments": part}}]}))
    if finish:
        pieces.append(event({}, "tool_calls"))
    return b"".join(pieces) + b"data: [DONE]\n\n"


def streamed_arguments(stream: bytes) -> str:
    arguments = []
    for event in stream.split(b"\n\n"):
        if event.startswith(b"data: {"):
            delta = orjson.loads(event[6:])["choices"][0].get("delta") or {}
            for call in delta.get("tool_calls") or []:
                arguments.append(call["function"].get("arguments", ""))
    return "".join(arguments)


@pytest.mark.parametrize("finish", [True, False], ids=["finish_reason", "done-only"])
def test_streamed_tool_call_arguments_cut_anywhere_are_restored(finish: bool) -> None:
    for cut in range(len(ARGUMENTS) + 1):
        restorer = SseRestorer(tool_vault())
        raw = tool_events(ARGUMENTS, cut, finish)
        out = restorer.feed(raw[: len(raw) // 2]) + restorer.feed(raw[len(raw) // 2 :])
        out += restorer.close()
        assert orjson.loads(streamed_arguments(out)) == expected_arguments(), cut
        assert b"[EMAIL_1]" not in out and b"[NAME_2]" not in out


def test_two_tool_calls_are_restored_apart() -> None:
    def chunk(index: int, arguments: str) -> bytes:
        call = {"index": index, "function": {"arguments": arguments}}
        body = {"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}
        return b"data: " + orjson.dumps(body) + b"\n\n"

    restorer = SseRestorer(tool_vault())
    out = restorer.feed(
        chunk(0, '"[EMA') + chunk(1, '"[NAM') + chunk(0, 'IL_1]"') + chunk(1, 'E_2]"')
    )
    out += restorer.close()
    by_call: dict[int, str] = {0: "", 1: ""}
    for event in out.split(b"\n\n"):
        if event.startswith(b"data: {"):
            for call in orjson.loads(event[6:])["choices"][0]["delta"]["tool_calls"]:
                by_call[call["index"]] += call["function"]["arguments"]
    assert {k: orjson.loads(v) for k, v in by_call.items()} == {
        0: "jane.doe@example.com",
        1: QUOTED,
    }
