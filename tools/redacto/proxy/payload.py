"""Redact an OpenAI-style request body: every text a model would read, and every image.

Chat requests: each message's `content` (a string, or parts of type `text` and
`image_url`) and earlier tool calls' `arguments`. Completions: `prompt` and `suffix`.
What cannot be inspected is refused, never forwarded as is: token-id prompts, audio or
file parts, images given by URL (the proxy fetches nothing), unknown shapes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from redacto.proxy.detectors import Found, ModelTier, TextDetector
from redacto.proxy.vault import Vault

RunBlocking = Callable[[Callable[[], Any]], Awaitable[Any]]
"""Runs a blocking call on the proxy's model worker and awaits it."""


class Refused(Exception):
    """The request cannot be forwarded; `status` and the message go back to the client."""

    def __init__(self, status: int, message: str, code: str = "redacto_refused") -> None:
        super().__init__(message)
        self.status = status
        self.code = code


ImageTier = Callable[[str], str]
"""Takes an image data URL, returns the redacted image's data URL; raises `Refused`.
Blocking: it runs on the model worker."""


@dataclass
class _Slot:
    """A string in the body that a model reads, and where to write its redacted form."""

    holder: dict[str, Any] | list[Any]
    key: str | int

    @property
    def text(self) -> str:
        return self.holder[self.key]  # type: ignore[index]

    def write(self, text: str) -> None:
        self.holder[self.key] = text  # type: ignore[index]


@dataclass
class _Slots:
    texts: list[_Slot] = field(default_factory=list)
    images: list[_Slot] = field(default_factory=list)


@dataclass
class RequestRedactor:
    """Redacts request bodies in place with a conversation's vault."""

    rules: TextDetector
    """The cheap tier every text goes through (the rules; a benchmark may put a peer here)."""
    model: ModelTier | None = None
    images: ImageTier | None = None
    run_blocking: RunBlocking | None = None

    async def redact(self, endpoint: str, body: dict[str, Any], vault: Vault) -> int:
        """Redact `body` in place; returns how many values and images it replaced (0: the
        body is unchanged and may be forwarded as received). Raises `Refused`."""
        slots = _chat_slots(body) if endpoint == "chat" else _completion_slots(body)
        if slots.images:
            await self._redact_images(slots.images)
        hidden = len(slots.images)
        for slot in slots.texts:
            text = slot.text
            found = self.rules.find(text)
            if self.model is not None:
                found += await self._model_finds(text, vault)
            redacted, count = _apply(text, found, vault)
            if count:
                slot.write(redacted)
                hidden += count
        return hidden

    async def _model_finds(self, text: str, vault: Vault) -> list[Found]:
        seen = _text_hash(text)
        if seen in vault.seen_texts or not text.strip():
            return []  # its values are in the vault already: hide_known finds them
        assert self.model is not None and self.run_blocking is not None
        model = self.model
        found: list[Found] = await self.run_blocking(lambda: model.find(text))
        vault.seen_texts.add(seen)
        return found

    async def _redact_images(self, slots: list[_Slot]) -> None:
        if self.images is None or self.run_blocking is None:
            raise Refused(422, "image parts need the proxy started with --model")
        tier = self.images
        for slot in slots:
            slot.write(await self.run_blocking(partial(tier, slot.text)))


def _text_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def _apply(text: str, found: list[Found], vault: Vault) -> tuple[str, int]:
    """`text` with every found value and every value the vault knows replaced."""
    for item in found:  # known from now on: hide_known finds every occurrence
        vault.placeholder_for(item.label, item.value)
    spans = [(f.start, f.end, f.label) for f in found if f.start is not None and f.end is not None]
    spans += [(start, end, _label(token)) for start, end, token in vault.hide_known(text)]
    if not spans:
        return text, 0
    merged = _merge(spans)
    out, position = [], 0
    for start, end, label in merged:
        out.append(text[position:start])
        out.append(vault.placeholder_for(label, text[start:end]))
        position = end
    out.append(text[position:])
    return "".join(out), len(merged)


def _label(token: str) -> str:
    return token[1:-1].rsplit("_", 1)[0]


def _merge(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Overlapping spans become one (its label: the longest piece's), in order."""
    merged: list[tuple[int, int, str]] = []
    for start, end, label in sorted(spans, key=lambda s: (s[0], -s[1])):
        if merged and start < merged[-1][1]:
            first_start, first_end, first_label = merged[-1]
            longer = label if end - start > first_end - first_start else first_label
            merged[-1] = (first_start, max(first_end, end), longer)
        else:
            merged.append((start, end, label))
    return merged


def _chat_slots(body: dict[str, Any]) -> _Slots:
    messages = body.get("messages")
    if not isinstance(messages, list):
        raise Refused(400, "a chat request needs a list of messages")
    slots = _Slots()
    for message in messages:
        if not isinstance(message, dict):
            raise Refused(400, "each message must be an object")
        _content_slots(message, slots)
        for call in message.get("tool_calls") or []:
            function = call.get("function") if isinstance(call, dict) else None
            if isinstance(function, dict) and isinstance(function.get("arguments"), str):
                slots.texts.append(_Slot(function, "arguments"))
    return slots


def _content_slots(message: dict[str, Any], slots: _Slots) -> None:
    content = message.get("content")
    if content is None:
        return
    if isinstance(content, str):
        slots.texts.append(_Slot(message, "content"))
        return
    if not isinstance(content, list):
        raise Refused(400, "message content must be a string or a list of parts")
    for part in content:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text" and isinstance(part.get("text"), str):
            slots.texts.append(_Slot(part, "text"))
        elif kind == "image_url":
            image = part.get("image_url")
            url = image.get("url") if isinstance(image, dict) else image
            if not isinstance(url, str) or not url.startswith("data:image/"):
                raise Refused(422, "only images given inline (data:image/… URLs) are redacted")
            if isinstance(image, dict):
                slots.images.append(_Slot(image, "url"))
            else:
                slots.images.append(_Slot(part, "image_url"))
        else:
            raise Refused(422, f"a message part of type {kind!r} cannot be inspected")


def _completion_slots(body: dict[str, Any]) -> _Slots:
    slots = _Slots()
    prompt = body.get("prompt")
    if isinstance(prompt, str):
        slots.texts.append(_Slot(body, "prompt"))
    elif isinstance(prompt, list) and all(isinstance(item, str) for item in prompt):
        slots.texts.extend(_Slot(prompt, number) for number in range(len(prompt)))
    else:
        raise Refused(422, "only text prompts can be inspected (not token ids)")
    if isinstance(body.get("suffix"), str):
        slots.texts.append(_Slot(body, "suffix"))
    return slots
