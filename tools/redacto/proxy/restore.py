"""Put the original values back into what the model answers, in the API's JSON.

A whole answer: every string in the JSON has the vault's placeholders replaced. A stream:
each event's answer text goes through its own `StreamRestorer` (`redacto.vault`, shared
with proofread), which holds back only a suffix that could still become a placeholder, so
a placeholder split across events or network reads still comes back.

A tool call's `arguments` is JSON text inside a JSON string: a value put back there is
JSON-escaped (a quote in a name must not end the argument's string), in whole answers and
in streamed tool-call deltas alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import orjson

from redacto.upstream import DONE, SseSplitter, event_data, event_lines
from redacto.vault import StreamRestorer, Vault, restore_text

ARGUMENTS = "arguments"
"""The key whose string value is JSON text (tool calls' and function calls' arguments)."""


def restore_json(value: Any, vault: Vault, *, json_text: bool = False) -> Any:
    """A JSON value with every string restored (keys are the API's own, left as they are)."""
    if isinstance(value, str):
        return restore_text(value, vault, json_text=json_text)
    if isinstance(value, list):
        return [restore_json(item, vault) for item in value]
    if isinstance(value, dict):
        return {
            key: restore_json(item, vault, json_text=key == ARGUMENTS)
            for key, item in value.items()
        }
    return value


_MAY_HOLD_PLACEHOLDER = re.compile(rb'\[[A-Z"]|\\u')
"""In an event's JSON, what a string holding a placeholder or the start of one shows: `[`
and a capital (`[NAME_1]`, `[NA`), `[` ending the string (`"…["`), or any `\\u` escape (a
`[` or a capital may be written so). JSON's own brackets (`[{`, `[]`) are none of these."""

_STREAMED_FIELDS = (("delta", "content"), ("delta", "reasoning_content"), ("text",))
"""Where a streamed chunk carries answer text: chat deltas, and completions' text."""


@dataclass
class SseRestorer:
    """Rewrites an OpenAI-style server-sent event stream, restoring the answer text.

    Bytes go in as the network delivers them; whole events come out (`SseSplitter`). Each
    choice's text, and each of its tool calls' arguments, is restored by its own
    `StreamRestorer`; any other string outside the choices is restored whole. What a choice
    still holds is sent with its `finish_reason`, or, at `[DONE]` or the end of the stream,
    in one extra event shaped like the last one.
    """

    vault: Vault
    _splitter: SseSplitter = field(default_factory=SseSplitter)
    _streams: dict[tuple[Any, ...], StreamRestorer] = field(default_factory=dict)
    _last_event: dict[str, Any] | None = None

    def feed(self, data: bytes) -> bytes:
        return b"".join(self._event(event) for event in self._splitter.feed(data))

    def close(self) -> bytes:
        """The upstream ended: the unfinished event (if any) and everything held."""
        rest = self._splitter.close()
        tail = self._event(rest) if rest.strip() else b""
        return tail + self._flush_all()

    def _event(self, event: bytes) -> bytes:
        lines = event_lines(event)
        payload = event_data(lines)
        if payload is None:
            return event + b"\n\n"  # a comment or a keep-alive: nothing to restore
        if not _MAY_HOLD_PLACEHOLDER.search(payload) and not self._holding():
            # Most events of a long answer: no string in them can hold a placeholder or the
            # start of one, and no text is held back to send with them — sent as they came,
            # without the parse and the rewrite (ten times the cost of a PII-free stream).
            return event + b"\n\n"
        if payload.strip() == DONE:
            return self._flush_all() + b"data: [DONE]\n\n"
        try:
            chunk = orjson.loads(payload)
        except orjson.JSONDecodeError:
            return event + b"\n\n"
        if not isinstance(chunk, dict):
            return event + b"\n\n"
        others = [line for line in lines if line and not line.startswith(b"data:")]
        restored = self._chunk(chunk)
        return b"".join(line + b"\n" for line in others) + _data(restored)

    def _holding(self) -> bool:
        """Some stream holds back text that could still become a placeholder."""
        return any(stream.holding for stream in self._streams.values())

    def _chunk(self, chunk: dict[str, Any]) -> dict[str, Any]:
        choices = chunk.get("choices")
        rest = restore_json({k: v for k, v in chunk.items() if k != "choices"}, self.vault)
        if not isinstance(choices, list):
            return rest
        restored = []
        for choice in choices:
            if not isinstance(choice, dict):
                restored.append(choice)
                continue
            choice = dict(choice)
            number = choice.get("index", 0)
            finished = choice.get("finish_reason") is not None
            for path in _STREAMED_FIELDS:
                self._restore_field(choice, number, path, finished)
            self._restore_tool_calls(choice, number, finished)
            restored.append(choice)
        rest["choices"] = restored
        self._last_event = rest
        return rest

    def _restore_field(
        self, choice: dict[str, Any], number: int, path: tuple[str, ...], finished: bool
    ) -> None:
        holder: Any = choice
        for key in path[:-1]:
            holder = holder.get(key) if isinstance(holder, dict) else None
        if not isinstance(holder, dict):
            return
        key = path[-1]
        stream = self._streams.setdefault((number, *path), StreamRestorer(self.vault))
        text = holder.get(key)
        if isinstance(text, str):
            holder[key] = stream.feed(text)
        if finished:
            held = stream.flush()
            if held:
                holder[key] = (holder.get(key) or "") + held

    def _restore_tool_calls(self, choice: dict[str, Any], number: int, finished: bool) -> None:
        """Each streamed tool call's `arguments` pieces, by the call's `index`."""
        delta = choice.get("delta")
        calls = delta.get("tool_calls") if isinstance(delta, dict) else None
        for position, call in enumerate(calls if isinstance(calls, list) else ()):
            function = call.get("function") if isinstance(call, dict) else None
            if isinstance(function, dict) and isinstance(function.get(ARGUMENTS), str):
                key = (number, _TOOL_CALL, call.get("index", position))
                stream = self._streams.setdefault(key, StreamRestorer(self.vault, json_text=True))
                function[ARGUMENTS] = stream.feed(function[ARGUMENTS])
        if not finished:
            return
        for (stream_number, kind, *rest), stream in self._streams.items():
            if stream_number == number and kind == _TOOL_CALL and (held := stream.flush()):
                if not isinstance(choice.get("delta"), dict):
                    choice["delta"] = {}
                choice["delta"].setdefault("tool_calls", []).append(_tool_call_piece(rest[0], held))

    def _flush_all(self) -> bytes:
        out = []
        for (number, *path), stream in self._streams.items():
            held = stream.flush()
            if held:
                out.append(_data(self._extra_event(number, path, held)))
        return b"".join(out)

    def _extra_event(self, number: int, path: list[Any], text: str) -> dict[str, Any]:
        template = {k: v for k, v in (self._last_event or {}).items() if k != "choices"}
        choice: dict[str, Any] = {"index": number, "finish_reason": None}
        if path[0] == _TOOL_CALL:
            choice["delta"] = {"tool_calls": [_tool_call_piece(path[1], text)]}
            return {**template, "choices": [choice]}
        holder = choice
        for key in path[:-1]:
            holder = holder.setdefault(key, {})
        holder[path[-1]] = text
        return {**template, "choices": [choice]}


_TOOL_CALL = "tool_call"
"""The stream key's kind for a tool call's arguments: (choice, `_TOOL_CALL`, call index)."""


def _tool_call_piece(index: Any, arguments: str) -> dict[str, Any]:
    """A streamed tool-call delta carrying only more of the call's arguments."""
    return {"index": index, "function": {ARGUMENTS: arguments}}


def _data(chunk: dict[str, Any]) -> bytes:
    return b"data: " + orjson.dumps(chunk) + b"\n\n"
