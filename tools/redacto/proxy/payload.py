"""Redact an OpenAI-style request body: every text a model would read, and every image.

`fields` walks the body against the allow-list of documented request fields: user text is
redacted here (the rules tier, the model tier where configured, and every value the
conversation's vault knows), inline images go through the photo pipeline, identifiers
are checked (one that holds a value refuses the request: it cannot be rewritten), and
anything else has been refused by the walk already. Nothing is forwarded as is unless it
went through one of these.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from redacto.proxy.detectors import Found, ModelTier, TextDetector
from redacto.proxy.errors import Refused
from redacto.proxy.fields import chat_slots, completion_slots
from redacto.proxy.joined import find_across
from redacto.proxy.kinds import Name, Slot
from redacto.vault import Vault, replace_spans

__all__ = ["ImageTier", "Refused", "RequestRedactor", "RunBlocking"]

RunBlocking = Callable[[Callable[[], Any]], Awaitable[Any]]
"""Runs a blocking call on the proxy's model worker and awaits it."""

CACHED_NAMES = 4_096
MAX_CACHED_NAME = 256
"""The rules tier's verdict on names up to this long is remembered (the last 4,096)."""

ImageTier = Callable[[str], str]
"""Takes an image data URL, returns the redacted image's data URL; raises `Refused`.
Blocking: it runs on the model worker."""


@dataclass
class RequestRedactor:
    """Redacts request bodies in place with a conversation's vault."""

    rules: TextDetector
    """The cheap tier every text goes through (the rules; a benchmark may put a peer here)."""
    ner: TextDetector | None = None
    """The NER tier (blocking: with it, every body is scrubbed on a scrub thread)."""
    model: ModelTier | None = None
    images: ImageTier | None = None
    run_blocking: RunBlocking | None = None
    _checked_names: OrderedDict[str, bool] = field(default_factory=OrderedDict, repr=False)
    """Whether the rules tier finds a value in a name, for the names seen last: the same
    model and tool names come with every request, and the rules tier's fixed cost per
    text is about that of the rest of a small request."""

    async def redact(self, endpoint: str, body: dict[str, Any], vault: Vault) -> int:
        """Redact `body` in place; returns how many values and images it replaced (0: the
        body is unchanged and may be forwarded as received). Raises `Refused`."""
        slots = chat_slots(body) if endpoint == "chat" else completion_slots(body)
        if slots.images:
            await self._redact_images(slots.images)
        hidden = len(slots.images)
        # The texts are read together: a value split across parts or messages is found.
        by_rules = find_across(self.rules, [slot.text for slot in slots.texts])
        for slot, found in zip(slots.texts, by_rules, strict=True):
            found += await self._context_finds(slot.text, vault)
            hidden += _rewrite(slot, found, vault)
        for slot in slots.ids:  # machine-made: the model tier would only add seconds
            hidden += _rewrite(slot, self.rules.find(slot.text), vault)
        self._check_names(slots.names, vault)
        return hidden

    def _check_names(self, names: list[Name], vault: Vault) -> None:
        """Identifiers go on unchanged, so one that holds a value refuses the request.

        Checked after the texts, so a value this very request shows is known by then."""
        for name in names:
            if self._rules_find_in_name(name.text) or vault.hide_known(name.text):
                raise Refused(
                    422,
                    f"{name.path}: an identifier (a name, an id or a key) that holds what "
                    "looks like personal data; identifiers are forwarded unchanged, so "
                    "nothing was forwarded",
                    "personal_data_in_identifier",
                )

    def check_headers(self, headers: list[tuple[bytes, bytes]], vault: Vault | None) -> None:
        """Headers the operator named for passthrough go on as sent, so one that holds a
        value refuses the request (checked after the body, whose values are known by then).
        The message names the header, never its value."""
        for name, raw in headers:
            value = raw.decode("utf-8", errors="replace")
            if self._rules_find_in_name(value) or (vault is not None and vault.hide_known(value)):
                raise Refused(
                    422,
                    f"the {name.decode('ascii', errors='replace').lower()} header holds what "
                    "looks like personal data; passed-through headers are forwarded "
                    "unchanged, so nothing was forwarded",
                    "personal_data_in_header",
                )

    def _rules_find_in_name(self, text: str) -> bool:
        known = self._checked_names.get(text)
        if known is not None:
            self._checked_names.move_to_end(text)
            return known
        found = bool(self.rules.find(text))
        if len(text) <= MAX_CACHED_NAME:
            self._checked_names[text] = found
            if len(self._checked_names) > CACHED_NAMES:
                self._checked_names.popitem(last=False)
        return found

    async def _context_finds(self, text: str, vault: Vault) -> list[Found]:
        """What the tiers that read context (NER, the model) find in a text this
        conversation has not shown them: a chat resends its history with every turn, and a
        text seen before has its values in the vault already (hide_known finds them)."""
        if self.ner is None and self.model is None:
            return []
        seen = vault.text_hash(text)
        if seen in vault.seen_texts or not text.strip():
            return []
        found = self.ner.find(text) if self.ner is not None else []
        if self.model is not None:
            assert self.run_blocking is not None
            model = self.model
            found += await self.run_blocking(lambda: model.find(text))
        vault.mark_seen(seen)
        return found

    async def _redact_images(self, slots: list[Slot]) -> None:
        if self.images is None or self.run_blocking is None:
            raise Refused(422, "image parts need the proxy started with --model")
        tier = self.images
        for slot in slots:
            slot.write(await self.run_blocking(partial(tier, slot.text)))


def _rewrite(slot: Slot, found: list[Found], vault: Vault) -> int:
    redacted, count = _apply(slot.text, found, vault)
    if count:
        slot.write(redacted)
    return count


def _apply(text: str, found: list[Found], vault: Vault) -> tuple[str, int]:
    """`text` with every found value and every value the vault knows replaced."""
    for item in found:  # known from now on: hide_known finds every occurrence
        if item.value:
            vault.placeholder_for(item.label, item.value)
    spans = [
        (f.start, f.end, f.label, f.value)
        for f in found
        if f.start is not None and f.end is not None
    ]
    return replace_spans(text, spans, vault)
