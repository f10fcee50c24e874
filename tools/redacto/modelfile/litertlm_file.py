"""Read a `.litertlm` file's header: its system metadata and where its sections lie.

A `.litertlm` file (LiteRT-LM's container) starts with the magic `LITERTLM`, three
little-endian u32 version numbers, and at byte 24 a u64 saying where its header ends; from
byte 32 to there lies a FlatBuffers table (`LiteRTLMMetaData`: system metadata as key/value
pairs, then one entry per section with its byte range and data type). The sections — the
model graph, its weights, the tokenizer, the LLM metadata — follow at 16 KiB-aligned offsets.

This reader walks that FlatBuffers table by hand (tables, vtables, strings, vectors, a
union), checking every offset against the buffer, so reading a model's policy needs no
LiteRT package and the phone's Kotlin reader (`LitertlmFile.kt`) can do exactly the same.
Only string values of system metadata are read; other types are kept as their type code.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

MAGIC = b"LITERTLM"
HEADER_END_AT = 24
"""Byte offset of the u64 that says where the header (the FlatBuffers table) ends."""
HEADER_BEGIN = 32
"""Byte offset where the FlatBuffers table starts."""
BLOCK_SIZE = 16 * 1024
"""Sections start at multiples of this."""
MAX_HEADER_BYTES = 16 << 20
"""A header larger than this is no model file we wrote (real ones are a few KiB)."""

_STRING_VALUE = 9
"""`VData.StringValue`, the union tag of a string value in the schema."""


class LitertlmFormatError(ValueError):
    """The bytes are not a readable `.litertlm` header; the message says what is wrong."""


@dataclass(frozen=True)
class Section:
    """One section's byte range in the file (end exclusive) and its data type code."""

    begin: int
    end: int
    data_type: int


@dataclass(frozen=True)
class LitertlmHeader:
    """What a `.litertlm` header says: its version, system metadata, and sections."""

    version: tuple[int, int, int]
    header_end: int
    strings: dict[str, str]
    """System metadata entries whose value is a string, by key."""
    keys: tuple[str, ...]
    """Every system metadata key, in file order (string-valued or not)."""
    sections: tuple[Section, ...]


def read_header(path: Path) -> LitertlmHeader:
    """Read the header of the `.litertlm` file at `path`.

    Raises `LitertlmFormatError` when the file is not one (wrong magic, a header that runs
    past the file's end, an offset outside the table, a section outside the file), and
    `OSError` when it cannot be read.
    """
    size = path.stat().st_size
    with path.open("rb") as handle:
        start = handle.read(HEADER_BEGIN)
        if len(start) < HEADER_BEGIN or start[:8] != MAGIC:
            raise LitertlmFormatError("not a .litertlm file (no LITERTLM magic)")
        major, minor, patch = struct.unpack_from("<3I", start, 8)
        (header_end,) = struct.unpack_from("<Q", start, HEADER_END_AT)
        if not HEADER_BEGIN < header_end <= min(size, HEADER_BEGIN + MAX_HEADER_BYTES):
            raise LitertlmFormatError(f"header end {header_end} lies outside the file")
        table = handle.read(header_end - HEADER_BEGIN)
    if len(table) != header_end - HEADER_BEGIN:
        raise LitertlmFormatError("the file ends inside its header")
    header = _parse_table(_FlatBuffer(table), (major, minor, patch), header_end)
    for section in header.sections:
        if not header_end <= section.begin <= section.end <= size:
            raise LitertlmFormatError(
                f"a section ({section.begin}–{section.end}) lies outside the file "
                f"({size} bytes): truncated?"
            )
    return header


def _parse_table(buffer: _FlatBuffer, version: tuple[int, int, int], end: int) -> LitertlmHeader:
    root = buffer.root()
    strings: dict[str, str] = {}
    keys: list[str] = []
    system = buffer.table_field(root, 0)
    if system is not None:
        for entry in buffer.table_vector(system, 0):
            key = buffer.string_field(entry, 0)
            if key is None:
                raise LitertlmFormatError("a system metadata entry has no key")
            keys.append(key)
            if buffer.scalar(entry, 1, "B") == _STRING_VALUE:
                value_table = buffer.table_field(entry, 2)
                value = None if value_table is None else buffer.string_field(value_table, 0)
                strings[key] = value or ""
    sections: list[Section] = []
    section_metadata = buffer.table_field(root, 1)
    if section_metadata is not None:
        for item in buffer.table_vector(section_metadata, 0):
            sections.append(
                Section(
                    begin=buffer.scalar(item, 1, "Q"),
                    end=buffer.scalar(item, 2, "Q"),
                    data_type=buffer.scalar(item, 3, "B"),
                )
            )
    return LitertlmHeader(version, end, strings, tuple(keys), tuple(sections))


class _FlatBuffer:
    """Bounds-checked reads of a FlatBuffers buffer: tables, fields, strings, vectors."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def _unpack(self, fmt: str, at: int) -> int:
        width = struct.calcsize(fmt)
        if at < 0 or at + width > len(self.data):
            raise LitertlmFormatError(f"an offset ({at}) points outside the header")
        value: int = struct.unpack_from("<" + fmt, self.data, at)[0]
        return value

    def root(self) -> int:
        return self._unpack("I", 0)

    def _field_at(self, table: int, field: int) -> int | None:
        """Where field number `field` of the table at `table` lies, or None if absent."""
        vtable = table - self._unpack("i", table)
        vtable_size = self._unpack("H", vtable)
        slot = 4 + 2 * field
        if slot + 2 > vtable_size:
            return None
        offset = self._unpack("H", vtable + slot)
        return table + offset if offset else None

    def scalar(self, table: int, field: int, fmt: str) -> int:
        at = self._field_at(table, field)
        return 0 if at is None else self._unpack(fmt, at)

    def _follow(self, at: int) -> int:
        return at + self._unpack("I", at)

    def table_field(self, table: int, field: int) -> int | None:
        at = self._field_at(table, field)
        return None if at is None else self._follow(at)

    def string_field(self, table: int, field: int) -> str | None:
        at = self._field_at(table, field)
        if at is None:
            return None
        start = self._follow(at)
        length = self._unpack("I", start)
        if start + 4 + length > len(self.data):
            raise LitertlmFormatError("a string runs past the header")
        try:
            return self.data[start + 4 : start + 4 + length].decode("utf-8")
        except UnicodeDecodeError as error:
            raise LitertlmFormatError("a metadata string is not UTF-8") from error

    def table_vector(self, table: int, field: int) -> list[int]:
        at = self._field_at(table, field)
        if at is None:
            return []
        start = self._follow(at)
        count = self._unpack("I", start)
        if start + 4 + 4 * count > len(self.data):
            raise LitertlmFormatError("a vector runs past the header")
        return [self._follow(start + 4 + 4 * index) for index in range(count)]
