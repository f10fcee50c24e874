"""The one server-sent-events reader: bytes in as the network delivers them, whole events
out, for the proxy (which rewrites each event) and proofread (which reads each one's text).

An event ends at a blank line (`\\n\\n`, or `\\r\\n\\r\\n`); a split anywhere — inside the
JSON, inside a multi-byte character, inside the separator — only delays it.
"""

from __future__ import annotations

from dataclasses import dataclass

DONE = b"[DONE]"
"""The data of the event that ends an OpenAI-style stream."""


@dataclass
class SseSplitter:
    """Cuts a byte stream into events (each without its blank-line separator)."""

    _buffer: bytes = b""

    def feed(self, data: bytes) -> list[bytes]:
        """The events completed by `data`."""
        buffer = self._buffer + data
        # One read may hold a whole answer's events: each is found from where the last one
        # ended, and the rest is kept once at the end (cutting the buffer per event, and
        # searching all of it for a separator it does not hold, was quadratic).
        crlf = b"\r" in buffer
        start, events = 0, []
        while True:
            end, size = _event_end(buffer, start, crlf)
            if end < 0:
                break
            events.append(buffer[start:end])
            start = end + size
        self._buffer = buffer[start:]
        return events

    def close(self) -> bytes:
        """The stream ended: what is left of an unfinished event (b"" when none)."""
        rest, self._buffer = self._buffer, b""
        return rest


def event_lines(event: bytes) -> list[bytes]:
    """An event's lines, whichever line ending it used."""
    return event.replace(b"\r\n", b"\n").split(b"\n")


def event_data(lines: list[bytes]) -> bytes | None:
    """The event's data (its `data:` lines joined by line breaks), or None for an event with
    none: a comment, a keep-alive, an event name alone."""
    data = [line[5:].removeprefix(b" ") for line in lines if line.startswith(b"data:")]
    return b"\n".join(data) if data else None


def _event_end(buffer: bytes, start: int, crlf: bool) -> tuple[int, int]:
    """Where the first complete event from `start` ends and how long its blank-line
    separator is; `crlf`: the buffer holds a carriage return, so `\\r\\n\\r\\n` may end one."""
    lf = buffer.find(b"\n\n", start)
    if not crlf:
        return (lf, 2)
    cr = buffer.find(b"\r\n\r\n", start)
    found = [(end, size) for end, size in ((lf, 2), (cr, 4)) if end >= 0]
    return min(found) if found else (-1, 0)
