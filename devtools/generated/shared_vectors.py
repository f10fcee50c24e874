"""Write the golden vectors whose answers come from the Python reference; check them.

    python -m devtools.generated --check shared-vectors   # exit 1, naming each stale file
    python -m devtools.generated --write shared-vectors   # rewrite them

The pipeline, rule, chunking and constraint vectors under `tests/vectors/` are written by
hand. These sets are not: their inputs are listed beside this module
(`shared_vector_cases.py`, `shared_vector_texts.py`), and what each must give is asked of the
Python that the Kotlin core imitates, so the files say exactly what Python does, including
where that is surprising:

- `locator/`: `Locator.locate` and `Locator.near` (every level) and `locate_mistake` (every
  strategy) on the locator's tables and on texts in other scripts;
- `policy/`: what each committed `.litertlm` file under `policy/files/` carries and whether
  it verifies (`check_model_file`; the files are made by `policy_vector_files.py`), and how
  `apply_model_settings` lays a model's settings onto a caller's options;
- `text/`: the `str` methods, character classes and `re` semantics that `PyText.kt` copies;
- `normalise/`: the text the rules read (`redacto.rules.normalise`, Kotlin `RuleNormalise`)
  and where each of its characters came from;
- `not_identifiers/`: the values that identify no one (a time of day, an amount) and the
  greetings cut from a NAME (`redacto.text.not_identifiers`, Kotlin `NotIdentifiers`; inputs in
  `shared_vector_not_identifiers.py`).

`tests/pipeline/test_shared_vectors.py` runs every case in Python, and the Kotlin core's
`LocatorVectorTest`, `PolicyVectorTest`, `PyTextVectorTest` and `NotIdentifiersVectorTest`
read the same files. A change
to the Python that changes an answer makes the check fail: rewrite the files with `--write`,
read the diff, and change the Kotlin with it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from devtools.generated.shared_vector_cases import (
    LOCATE_CASES,
    MISTAKE_CASES,
    OPTION_CASES,
    LocateCase,
    MistakeCase,
    OptionCase,
)
from devtools.generated.shared_vector_normalise import NORMALISE_CASES
from devtools.generated.shared_vector_not_identifiers import NOT_IDENTIFIER_CASES, NotIdentifierCase
from devtools.generated.shared_vector_texts import (
    CHARACTERS,
    REGEX_CASES,
    STRING_CASES,
    STRIP_CHARS_CASES,
    RegexCase,
)
from redacto.modelfile.manifest import load_manifest
from redacto.modelfile.policy import check_model_file, phone_settings
from redacto.pipeline.detections import rejected_as, trimmed_item
from redacto.pipeline.locator import MISTAKE_METHODS, Locator, locate_mistake
from redacto.pipeline.parsing import TextItem
from redacto.pipeline.policy import apply_model_settings
from redacto.pipeline.state import PipelineOptions
from redacto.rules.normalise import normalise
from redacto.text.not_identifiers import (
    identifies_no_one,
    is_amount_value,
    is_time_of_day,
    without_openers,
)

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors"

Json = dict[str, Any]
SHARED_FIELDS = ("trust_validator_pass", "image_reading", "model_redact", "constrained_decoding")
"""The `[pipeline]` settings the phone has; the verdict rule and margin need a runtime that
scores, which the phone lacks (tests/vectors/README.md)."""


def _locate_case(case: LocateCase) -> Json:
    locator = Locator(case.text)
    located = locator.locate(case.value)
    return {
        "name": case.name,
        "description": case.description,
        "text": case.text,
        "value": case.value,
        "method": None if located is None else located.method.value,
        "spans": [] if located is None else [[s.start, s.end] for s in located.spans],
        "found": [] if located is None else [case.text[s.start : s.end] for s in located.spans],
        "near": locator.near(case.value),
    }


def _mistake_case(case: MistakeCase) -> Json:
    locators = [Locator(page) for page in case.pages]
    placed = locate_mistake(locators, case.error, case.context_before)
    # A blank error is refused before any strategy runs: it has no candidates to show.
    candidates = {
        method.value: [
            [position, span.start, span.end]
            for position, locator in enumerate(locators)
            for span in locator.mistake_candidates(method, case.error.strip(), case.context_before)
        ]
        for method in MISTAKE_METHODS
        if case.error.strip()
    }
    expect: Json | None = None
    if placed is not None:
        position, located = placed
        (span,) = located.spans
        expect = {
            "method": located.method.value,
            "page": position,
            "span": [span.start, span.end],
            "found": case.pages[position][span.start : span.end],
        }
    return {
        "name": case.name,
        "description": case.description,
        "pages": list(case.pages),
        "error": case.error,
        "context_before": case.context_before,
        "candidates": candidates,
        "placed": expect,
    }


def _shared(settings: Any) -> Json:
    return {name: _wire(getattr(settings, name)) for name in SHARED_FIELDS}


def _wire(value: Any) -> Any:
    return getattr(value, "value", value)


def _policy_file_case(path: Path) -> Json:
    check = check_model_file(path)
    policy = check.policy
    return {
        "file": path.name,
        "sha256": check.sha256,
        "state": check.state.name.lower(),
        "manifest": None if policy is None else policy.manifest,
        "quant": None if policy is None else policy.quant,
        "settings": _shared(phone_settings(check.settings)),
    }


def _option_case(case: OptionCase) -> Json:
    manifest = load_manifest(case.manifest).pipeline if case.manifest else None
    settings = phone_settings(manifest) if manifest else None
    options = PipelineOptions(**case.caller)
    applied = apply_model_settings(options, settings) if settings else options
    return {
        "name": case.name,
        "description": case.description,
        "caller": {name: _wire(getattr(options, name)) for name in SHARED_FIELDS},
        "manifest": case.manifest,
        "settings": None if settings is None else _shared(settings),
        "applied": {name: _wire(getattr(applied, name)) for name in SHARED_FIELDS},
    }


def _character(ch: str) -> Json:
    return {
        "char": ch,
        "name": unicodedata.name(ch, f"U+{ord(ch):04X}"),
        "isspace": ch.isspace(),
        "isalpha": ch.isalpha(),
        "isalnum": ch.isalnum(),
        "isdecimal": ch.isdecimal(),
        "isdigit": ch.isdigit(),
        "isupper": ch.isupper(),
        "casefold": ch.casefold(),
        "lower": ch.lower(),
        "upper": ch.upper(),
    }


def _string(text: str) -> Json:
    return {
        "text": text,
        "strip": text.strip(),
        "lstrip": text.lstrip(),
        "rstrip": text.rstrip(),
        "split": text.split(),
        "splitlines": text.splitlines(),
        "isupper": text.isupper(),
        "casefold": text.casefold(),
        "lower": text.lower(),
        "upper": text.upper(),
    }


def _regex_case(case: RegexCase) -> Json:
    pattern = re.compile(case.pattern, re.IGNORECASE if case.ignore_case else 0)
    return {
        "description": case.description,
        "pattern": case.pattern,
        "ignore_case": case.ignore_case,
        "text": case.text,
        "matches": [
            {"span": [m.start(), m.end()], "groups": list(m.groups())}
            for m in pattern.finditer(case.text)
        ],
    }


def _normalise_case(name: str, description: str, text: str) -> Json:
    read = normalise(text)
    return {
        "name": name,
        "description": description,
        "text": text,
        "normalised": read.text,
        "origins": [list(read.source_span(i, i + 1)) for i in range(len(read.text))],
    }


def _not_identifier_case(case: NotIdentifierCase) -> Json:
    item = trimmed_item(TextItem(case.label, case.value))
    assert isinstance(item, TextItem)
    reason = rejected_as(item)
    return {
        "description": case.description,
        "label": case.label,
        "value": case.value,
        "time_of_day": is_time_of_day(case.value),
        "amount": is_amount_value(case.value),
        "identifies_no_one": identifies_no_one(case.value),
        "without_openers": without_openers(case.label, case.value),
        "rejected_as": None if reason is None else reason.value,
    }


def _vector_set(name: str, description: str, cases: list[Json]) -> Json:
    return {"name": name, "description": description, "cases": cases}


SETS: dict[str, Callable[[], Json]] = {
    "locator/locate.json": lambda: _vector_set(
        "locate",
        "Locator(text).locate(value) and .near(value): the level that placed the value, its "
        "spans ([start, end) in code points) and their texts, or method null and no spans.",
        [_locate_case(case) for case in LOCATE_CASES],
    ),
    "locator/mistakes.json": lambda: _vector_set(
        "mistakes",
        "locate_mistake(pages, error, context_before): what each strategy finds "
        "(candidates: [page, start, end]) and the one place accepted, or placed null.",
        [_mistake_case(case) for case in MISTAKE_CASES],
    ),
    "policy/files.json": lambda: _vector_set(
        "files",
        "check_model_file(files/<file>) as the phone may use it: the whole file's sha256, the "
        "policy's state (verified, absent, edited, content_changed, unreadable), the manifest "
        "and quant it names (null: none readable), and the settings a run gets (the "
        "fail-closed defaults unless verified; phone_settings: no scored verdict).",
        [_policy_file_case(path) for path in sorted((VECTORS / "policy" / "files").iterdir())],
    ),
    "policy/options.json": lambda: _vector_set(
        "options",
        "apply_model_settings(caller, settings): the options a run uses, settings being the "
        "manifest's [pipeline] table as the phone may use it (manifest and settings null: the "
        "caller's own, unchanged).",
        [_option_case(case) for case in OPTION_CASES],
    ),
    "normalise/normalise.json": lambda: _vector_set(
        "normalise",
        "normalise(text) (redacto.rules.normalise, Kotlin RuleNormalise): the text the rules "
        "read, and for each of its characters the [start, end) of the original it came from "
        "(code points).",
        [_normalise_case(*case) for case in NORMALISE_CASES],
    ),
    "not_identifiers/not_identifiers.json": lambda: _vector_set(
        "not_identifiers",
        "redacto.text.not_identifiers on one value named label: is_time_of_day, is_amount_value, "
        "identifies_no_one, without_openers(label, value), and rejected_as of the item "
        "trimmed_item makes of it (a RejectReason value, null: kept), as detect and "
        "validate decide a LABEL: value line.",
        [_not_identifier_case(case) for case in NOT_IDENTIFIER_CASES],
    ),
    "text/characters.json": lambda: _vector_set(
        "characters",
        "One character's str predicates and case mappings, as CPython answers them.",
        [_character(ch) for ch in CHARACTERS],
    ),
    "text/strings.json": lambda: _vector_set(
        "strings",
        "str.strip/lstrip/rstrip/split/splitlines/isupper/casefold/lower/upper of one text.",
        [_string(text) for text in STRING_CASES],
    ),
    "text/strip_chars.json": lambda: _vector_set(
        "strip_chars",
        "str.strip(chars) and str.rstrip(chars).",
        [
            {"text": t, "chars": c, "strip": t.strip(c), "rstrip": t.rstrip(c)}
            for t, c in STRIP_CHARS_CASES
        ],
    ),
    "text/regex.json": lambda: _vector_set(
        "regex",
        "re.finditer(pattern, text) with re's str semantics: each match's span (code points) "
        "and groups (null: did not take part).",
        [_regex_case(case) for case in REGEX_CASES],
    ),
}
"""Each generated file, relative to tests/vectors/, and how it is built."""


def render(vector: Json) -> str:
    """The file text of one vector set: stable, readable, non-ASCII written as itself."""
    return json.dumps(vector, ensure_ascii=False, indent=1) + "\n"


def outputs() -> dict[str, str]:
    """Every generated vector file (relative to the repository root) and its text."""
    relative = VECTORS.relative_to(ROOT).as_posix()
    return {f"{relative}/{name}": render(build()) for name, build in SETS.items()}
