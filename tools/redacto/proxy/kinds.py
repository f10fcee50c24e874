"""The kinds of value an allow-list is made of, and the walk that checks a body against one.

A kind checks one value (`visit`) and files what it holds into `Slots`: a string to
redact (`Text`), an identifier to check (`Ident`), an inline image (`InlineImage`), or
nothing (`Choice`, `Number`, `Flag`); containers (`Obj`, `Tagged`, `ListOf`, `AnyOf`,
`MapOf`, `JsonSchema`) walk their parts. Anything a kind does not expect raises `Refused`
with the path of the field, never its value. `redacto.proxy.fields` is the list itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from redacto.proxy.errors import Refused

MAX_SCHEMA_DEPTH = 64
"""A JSON schema nested deeper is refused (the walk recurses; the stack is not for clients)."""
BIG_NUMBER = 100_000_000
"""A number this large (9 digits before its decimal point) could be a card, an account or
an ID number; it cannot be replaced by a placeholder where a number is due, so it refuses
the request. A fraction's digits are not counted: a client that computes its temperature
sends 0.30000000000000004."""
_SHOWN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}\Z")
"""An unknown key shaped like this is named back to the client (never logged)."""


@dataclass
class Slot:
    """A string in the body, and where to write its redacted form."""

    holder: dict[str, Any] | list[Any]
    key: str | int

    @property
    def text(self) -> str:
        return self.holder[self.key]  # type: ignore[index]

    def write(self, text: str) -> None:
        self.holder[self.key] = text  # type: ignore[index]


@dataclass(frozen=True)
class Name:
    """An identifier the upstream must see as sent; `path` says where, for a refusal."""

    path: str
    text: str


@dataclass
class Slots:
    """What a walk found: texts to redact, ids to redact without the model tier, inline
    images, identifiers to check."""

    texts: list[Slot] = field(default_factory=list)
    ids: list[Slot] = field(default_factory=list)
    images: list[Slot] = field(default_factory=list)
    names: list[Name] = field(default_factory=list)


class Field(Protocol):
    """One kind of value in the allow-list."""

    def accepts(self, value: Any) -> bool:
        """Whether `value` has this kind's JSON type (for `AnyOf` to pick a kind)."""
        ...

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        """Check `holder[key]`, adding what it holds to `slots`; raises `Refused`."""
        ...

    def paths(self, prefix: str) -> Iterator[str]:
        """Every leaf path this kind allows (`[]` a list item, `{}` a key, `<kind>` a variant)."""
        ...


def check_number(path: str, value: float) -> None:
    """Refuses a number of 9 digits or more (`BIG_NUMBER`); never repeats it."""
    if abs(value) >= BIG_NUMBER:
        raise Refused(
            422,
            f"{path}: a number of 9 digits or more, which could be a card, an account or an "
            "ID number; numbers are forwarded as numbers, so nothing was forwarded",
            "personal_data_in_number",
        )


def _wrong(path: str, expected: str) -> Refused:
    return Refused(422, f"{path}: expected {expected}; nothing was forwarded", "unexpected_type")


@dataclass(frozen=True)
class Text:
    """User text: redacted (`wrong` replaces the message for a value of another type)."""

    wrong: str = ""

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str)

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        value = holder[key]
        if value is None:
            return
        if not isinstance(value, str):
            if self.wrong:
                raise Refused(422, f"{path}: {self.wrong}", "cannot_inspect")
            raise _wrong(path, "a string")
        slots.texts.append(Slot(holder, key))

    def paths(self, prefix: str) -> Iterator[str]:
        yield prefix


@dataclass(frozen=True)
class Ident:
    """An identifier: forwarded unchanged once no detector finds a value in it; with
    `rewrite` (call ids), redacted by the rules tier and the vault instead, which give a
    value the same placeholder everywhere, so a call and its answer still pair up."""

    rewrite: bool = False

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str)

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        value = holder[key]
        if value is None:
            return
        if not isinstance(value, str):
            raise _wrong(path, "a string")
        if self.rewrite:
            slots.ids.append(Slot(holder, key))
        else:
            slots.names.append(Name(path, value))

    def paths(self, prefix: str) -> Iterator[str]:
        yield prefix


@dataclass(frozen=True)
class Choice:
    """One of a documented set of strings."""

    values: tuple[str, ...]

    def __init__(self, *values: str) -> None:
        object.__setattr__(self, "values", values)

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str)

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        value = holder[key]
        if value is not None and value not in self.values:
            raise _wrong(path, "one of " + ", ".join(self.values))

    def paths(self, prefix: str) -> Iterator[str]:
        yield prefix


@dataclass(frozen=True)
class Number:
    """A number (`integer`: a whole one); booleans are not numbers here."""

    integer: bool = False

    def accepts(self, value: Any) -> bool:
        kinds = (int,) if self.integer else (int, float)
        return isinstance(value, kinds) and not isinstance(value, bool)

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        value = holder[key]
        if value is None:
            return
        if not self.accepts(value):
            raise _wrong(path, "an integer" if self.integer else "a number")
        check_number(path, value)

    def paths(self, prefix: str) -> Iterator[str]:
        yield prefix


@dataclass(frozen=True)
class Flag:
    """A boolean."""

    def accepts(self, value: Any) -> bool:
        return isinstance(value, bool)

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        value = holder[key]
        if value is not None and not isinstance(value, bool):
            raise _wrong(path, "true or false")

    def paths(self, prefix: str) -> Iterator[str]:
        yield prefix


@dataclass(frozen=True)
class Refuse:
    """Known, but not something the proxy can read: always refused."""

    reason: str

    def accepts(self, value: Any) -> bool:
        return True

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        raise Refused(422, f"{path}: {self.reason}; nothing was forwarded", "cannot_inspect")

    def paths(self, prefix: str) -> Iterator[str]:
        yield prefix


@dataclass(frozen=True)
class Obj:
    """An object with exactly these fields (each optional; null is allowed for any)."""

    fields: Mapping[str, Field]

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        value = holder[key]
        if value is None:
            return
        if not isinstance(value, dict):
            raise _wrong(path, "an object")
        self.visit_fields(value, path, slots)

    def visit_fields(self, value: dict[str, Any], path: str, slots: Slots, skip: str = "") -> None:
        fields = self.fields
        for name in value:
            kind = fields.get(name)
            if kind is not None:
                kind.visit(value, name, f"{path}.{name}" if path else name, slots)
            elif name != skip:
                raise unknown(path, name)

    def paths(self, prefix: str) -> Iterator[str]:
        for name, kind in self.fields.items():
            yield from kind.paths(join(prefix, name))


@dataclass(frozen=True)
class Tagged:
    """An object whose `tag` field (`type`, `role`) says which fields it may hold."""

    tag: str
    variants: Mapping[str, Obj | Refuse]

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        value = holder[key]
        if value is None:
            return
        if not isinstance(value, dict):
            raise _wrong(path, "an object")
        tag = value.get(self.tag)
        variant = self.variants.get(tag) if isinstance(tag, str) else None
        if variant is None:
            # The tag's own value is never repeated: clients have put text there.
            raise Refused(
                422,
                f"{join(path, self.tag)}: not a kind the proxy inspects (it knows "
                f"{', '.join(self.variants)}); nothing was forwarded",
                "cannot_inspect",
            )
        if isinstance(variant, Refuse):
            variant.visit(holder, key, path, slots)
        else:
            variant.visit_fields(value, path, slots, skip=self.tag)

    def paths(self, prefix: str) -> Iterator[str]:
        for name, variant in self.variants.items():
            yield f"{join(prefix, self.tag)}={name}"
            yield from variant.paths(f"{prefix}<{name}>")


@dataclass(frozen=True)
class ListOf:
    """A list whose items are all of one kind."""

    item: Field

    def accepts(self, value: Any) -> bool:
        return isinstance(value, list)

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        value = holder[key]
        if value is None:
            return
        if not isinstance(value, list):
            raise _wrong(path, "a list")
        for number in range(len(value)):
            self.item.visit(value, number, f"{path}[{number}]", slots)

    def paths(self, prefix: str) -> Iterator[str]:
        yield from self.item.paths(f"{prefix}[]")


@dataclass(frozen=True)
class AnyOf:
    """One of several kinds, chosen by the value's JSON type (the first that accepts it)."""

    kinds: tuple[Field, ...]

    def __init__(self, *kinds: Field) -> None:
        object.__setattr__(self, "kinds", kinds)

    def accepts(self, value: Any) -> bool:
        return any(kind.accepts(value) for kind in self.kinds)

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        value = holder[key]
        if value is None:
            return
        for kind in self.kinds:
            if kind.accepts(value):
                kind.visit(holder, key, path, slots)
                return
        raise _wrong(path, "a value of a documented type")

    def paths(self, prefix: str) -> Iterator[str]:
        for kind in self.kinds:
            yield from kind.paths(prefix)


@dataclass(frozen=True)
class MapOf:
    """An object whose keys are the client's (checked as `keys` says) and values of one kind."""

    keys: Ident | Choice | TokenId
    value: Field

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        value = holder[key]
        if value is None:
            return
        if not isinstance(value, dict):
            raise _wrong(path, "an object")
        for name in value:
            self.keys.visit({name: name}, name, f"{path}{{}}", slots)
            self.value.visit(value, name, f"{path}{{}}", slots)

    def paths(self, prefix: str) -> Iterator[str]:
        yield f"{prefix}{{}}"
        yield from self.value.paths(f"{prefix}{{}}")


@dataclass(frozen=True)
class TokenId:
    """A `logit_bias` key: a token id written as a string of digits."""

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str)

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        value = holder[key]
        if not (isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 7):
            raise _wrong(path, "token ids (at most 7 digits) as keys")

    def paths(self, prefix: str) -> Iterator[str]:
        yield prefix


@dataclass(frozen=True)
class JsonSchema:
    """A JSON schema (tool parameters, a response format): any shape, so every key is a
    name to check, every string a text to redact and every number checked (`check_number`)."""

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        value = holder[key]
        if value is not None and not isinstance(value, dict):
            raise _wrong(path, "a JSON schema object")
        self._walk(holder, key, path, slots, 0)

    def _walk(self, holder: Any, key: Any, path: str, slots: Slots, depth: int) -> None:
        if depth > MAX_SCHEMA_DEPTH:
            raise Refused(422, f"{path}: nested too deeply; nothing was forwarded", "too_deep")
        value = holder[key]
        if isinstance(value, str):
            slots.texts.append(Slot(holder, key))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            check_number(path, value)
        elif isinstance(value, dict):
            for name in value:
                slots.names.append(Name(f"{path}{{}}", name))
                self._walk(value, name, f"{path}{{}}", slots, depth + 1)
        elif isinstance(value, list):
            for number in range(len(value)):
                self._walk(value, number, f"{path}[]", slots, depth + 1)

    def paths(self, prefix: str) -> Iterator[str]:
        yield prefix


@dataclass(frozen=True)
class InlineImage:
    """An `image_url`: `{url, detail}` (or the URL alone), inline `data:image/` URLs only.

    The URL is neither text nor a name: the image it holds goes through the photo pipeline."""

    def accepts(self, value: Any) -> bool:
        return isinstance(value, (dict, str))

    def visit(self, holder: Any, key: Any, path: str, slots: Slots) -> None:
        value = holder[key]
        if isinstance(value, dict):
            for name in value:
                if name not in ("url", "detail"):
                    raise unknown(path, name)
            if "detail" in value:
                _DETAIL.visit(value, "detail", join(path, "detail"), slots)
            holder, key, path = value, "url", join(path, "url")
        url = holder.get(key) if isinstance(holder, dict) else None
        if not isinstance(url, str) or not url.startswith("data:image/"):
            raise Refused(
                422,
                f"{path}: only images given inline (data:image/… URLs) are redacted; "
                "the proxy fetches nothing, and nothing was forwarded",
                "cannot_inspect",
            )
        slots.images.append(Slot(holder, key))

    def paths(self, prefix: str) -> Iterator[str]:
        yield prefix
        yield join(prefix, "url")
        yield join(prefix, "detail")


def join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def unknown(path: str, name: str) -> Refused:
    where = path or "the request"
    refusal = Refused(
        422,
        f"{where}: holds a field the proxy does not inspect; nothing was forwarded",
        "unknown_field",
    )
    if _SHOWN_KEY.match(name):  # the client's own key, back to the client only
        refusal.answer = f"{join(path, name)}: a field the proxy does not inspect; " + (
            "nothing was forwarded"
        )
    return refusal


_DETAIL = Choice("auto", "low", "high")
