"""The docs read as reference: short pages, no issue numbers in headings, no broken links.

Every `docs/*.md` page (the journal aside: it is history) stays within 400 lines and names
no issue in a heading: an issue number means nothing to a reader of the repository. Every
relative Markdown link in the pages a reader follows resolves to a file, and to one of its
headings when it names an anchor (GitHub's slugs); every `docs/….md` a page names in
backticks exists, so a page that is split or renamed cannot leave stale pointers behind.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from redacto.host.resources import SOURCE_ROOT

MAX_LINES = 400
DOCS = SOURCE_ROOT / "docs"
REFERENCE_PAGES = sorted(DOCS.glob("*.md"))
LINKED_PAGES = sorted(
    {
        SOURCE_ROOT / "README.md",
        SOURCE_ROOT / "eval" / "README.md",
        SOURCE_ROOT / "eval" / "baselines" / "README.md",
        SOURCE_ROOT / "tests" / "vectors" / "README.md",
        *DOCS.rglob("*.md"),
    }
)

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
ISSUE = re.compile(r"\bissues?\s+\d+|#\d+\b", re.IGNORECASE)
# [text](target) and ![alt](target); a target may carry a "title" after a space
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
DOCS_PATH = re.compile(r"`(docs/[\w./-]+\.md)")


def prose_lines(text: str) -> list[str]:
    """The page's lines outside fenced code blocks (a `# comment` in one is no heading)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def headings(text: str) -> list[str]:
    return [m.group(2) for line in prose_lines(text) if (m := HEADING.match(line))]


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its rendered text, lower case, punctuation dropped,
    spaces made hyphens (a repeated heading gets -1, -2: see `anchors`)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link renders as its text
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    seen: dict[str, int] = {}
    result = set()
    for heading in headings(text):
        slug = github_slug(heading)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        result.add(slug if count == 0 else f"{slug}-{count}")
    return result


def markdown_anchors(page: Path) -> set[str]:
    return anchors(page.read_text(encoding="utf-8"))


def broken_links(page: Path) -> list[str]:
    """Each relative link of `page` that names no file, or no heading of its file."""
    text = page.read_text(encoding="utf-8")
    broken = []
    for line in prose_lines(text):
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                continue  # https:, mailto: — not a file of this repository
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{target}: no such file")
            elif anchor and linked.suffix == ".md" and anchor not in markdown_anchors(linked):
                broken.append(f"{target}: no such heading")
    return broken


def name(page: Path) -> str:
    return page.relative_to(SOURCE_ROOT).as_posix()


@pytest.mark.parametrize("page", REFERENCE_PAGES, ids=name)
def test_a_reference_page_is_short(page: Path) -> None:
    lines = len(page.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{name(page)}: {lines} lines; split it by concept"


@pytest.mark.parametrize("page", REFERENCE_PAGES, ids=name)
def test_no_heading_names_an_issue(page: Path) -> None:
    named = [h for h in headings(page.read_text(encoding="utf-8")) if ISSUE.search(h)]
    assert named == []


@pytest.mark.parametrize("page", LINKED_PAGES, ids=name)
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken_links(page) == []


@pytest.mark.parametrize("page", LINKED_PAGES, ids=name)
def test_every_docs_page_named_exists(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    missing = sorted({p for p in DOCS_PATH.findall(text) if not (SOURCE_ROOT / p).exists()})
    assert missing == []


@pytest.mark.parametrize(
    ("heading", "slug"),
    [
        ("A local Ray listens on loopback only", "a-local-ray-listens-on-loopback-only"),
        ("`redacto serve`: the review page", "redacto-serve-the-review-page"),
        (
            "Figures: each tier alone and together (`--detectors`)",
            "figures-each-tier-alone-and-together---detectors",
        ),
        ("The model's policy", "the-models-policy"),
        ("`ocr/*.json` and [its script](x.md)", "ocrjson-and-its-script"),
    ],
)
def test_github_slugs(heading: str, slug: str) -> None:
    assert github_slug(heading) == slug


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("# Present heading\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](there.md) [ok](there.md#present-heading) [web](https://example.org/x.md)\n"
        "[gone](missing.md) [wrong](there.md#absent)\n"
        "```\n[in code](ignored.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == ["missing.md: no such file", "there.md#absent: no such heading"]
