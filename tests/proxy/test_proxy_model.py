"""The model tier and images: a real engine behind the proxy (scripted for exact replies,
the tiny LiteRT-LM model for the runtime itself) and real OCR on real rendered pages."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest
from PIL import Image

from cli_runs import render_short_page as render_page
from devtools.fixtures.echo_upstream import EchoUpstream
from devtools.fixtures.running_proxy import start_proxy
from redacto.engines.scripted import ScriptedEngine
from redacto.proxy import ProxyConfig, build_proxy
from scripted_models import trusting

TEXT = "Jane Smith asked about the invoice."


def chat(*contents: object) -> dict:
    return {"model": "m", "messages": [{"role": "user", "content": c} for c in contents]}


def scripted(**replies: list[str]) -> ScriptedEngine:
    return trusting(replies)


@pytest.mark.slow
def test_the_model_tier_hides_a_name_and_reads_each_text_once(upstream: EchoUpstream) -> None:
    engine = scripted(detect=["NAME: Jane Smith", "NONE"], validate=["PASS", "PASS"])
    proxy = start_proxy(build_proxy(ProxyConfig(upstream=upstream.url), engine))
    try:
        with proxy.client() as client:
            headers = {"authorization": "Bearer k", "x-redacto-conversation": "c-7"}
            first = client.post("/v1/chat/completions", json=chat(TEXT), headers=headers)
            second = client.post(
                "/v1/chat/completions", json=chat(TEXT, "And Jane Smith's order?"), headers=headers
            )
    finally:
        proxy.stop()
    assert first.json()["choices"][0]["message"]["content"] == TEXT
    assert upstream.seen[0]["messages"][0]["content"] == "[NAME_1] asked about the invoice."
    # The second turn resends the first: only the new text is read, and the name the
    # model found in turn one is hidden in it by the vault.
    assert [m["content"] for m in upstream.seen[1]["messages"]] == [
        "[NAME_1] asked about the invoice.",
        "And [NAME_1]'s order?",
    ]
    assert second.json()["choices"][0]["message"]["content"] == "And Jane Smith's order?"
    assert sum(r.step.value == "detect" for r in engine.requests) == 2


def test_a_failing_model_tier_forwards_nothing(upstream: EchoUpstream) -> None:
    engine = scripted()  # no replies: every call fails, as a broken engine would
    proxy = start_proxy(build_proxy(ProxyConfig(upstream=upstream.url), engine))
    try:
        with proxy.client() as client:
            answer = client.post("/v1/chat/completions", json=chat(TEXT))
    finally:
        proxy.stop()
    assert answer.status_code == 503 and answer.json()["error"]["code"] == "detection_failed"
    assert upstream.seen == []


@pytest.mark.slow
def test_the_tiny_model_runs_as_the_model_tier(upstream: EchoUpstream, tiny_model_path) -> None:
    from redacto.engines import open_engine

    with open_engine(f"litertlm:{tiny_model_path}") as engine:
        proxy = start_proxy(build_proxy(ProxyConfig(upstream=upstream.url), engine))
        try:
            with proxy.client(timeout=120) as client:
                answer = client.post("/v1/chat/completions", json=chat("mail jane.doe@example.com"))
        finally:
            proxy.stop()
    # A random model names noise; the rules tier still hides the email either way.
    assert answer.status_code == 200
    assert answer.json()["choices"][0]["message"]["content"] == "mail jane.doe@example.com"
    assert "jane.doe@example.com" not in str(upstream.seen)


def image_part(path: Path) -> dict:
    data = base64.b64encode(path.read_bytes()).decode()
    return {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{data}"}}


def read_words(image: Image.Image) -> str:
    from redacto.ocr import open_ocr

    return " ".join(element.text for element in open_ocr("ppocr").read(image))


def post_image(upstream: EchoUpstream, engine: ScriptedEngine, page: Path, **config: object):
    proxy = start_proxy(build_proxy(ProxyConfig(upstream=upstream.url, **config), engine))  # type: ignore[arg-type]
    try:
        with proxy.client(timeout=120) as client:
            return client.post("/v1/chat/completions", json=chat([image_part(page)]))
    finally:
        proxy.stop()


@pytest.mark.slow
def test_an_image_is_forwarded_burned_when_the_pipeline_vouches_for_it(
    upstream: EchoUpstream, tmp_path: Path
) -> None:
    page = render_page(tmp_path / "page.png")
    engine = scripted(classify=["CATEGORY: General"], detect=[""], validate=["PASS"])
    answer = post_image(upstream, engine, page)
    assert answer.status_code == 200, answer.text
    url = upstream.seen[0]["messages"][0]["content"][0]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    forwarded = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    with Image.open(page) as original:
        assert forwarded.size == original.size
        assert "jane.doe" in read_words(original)
    words = read_words(forwarded)
    assert "Patient" in words  # the page still reads
    assert "jane.doe" not in words and "555-0199" not in words  # the rules' finds are burned


@pytest.mark.slow
@pytest.mark.parametrize("forward_review", [False, True], ids=["refused", "forwarded"])
def test_an_image_the_pipeline_cannot_vouch_for_is_refused_unless_asked(
    upstream: EchoUpstream, tmp_path: Path, forward_review: bool
) -> None:
    page = render_page(tmp_path / "page.png")
    engine = scripted(classify=["CATEGORY: General"], detect=[""], validate=["FAIL"])
    answer = post_image(upstream, engine, page, forward_review=forward_review)
    if forward_review:
        assert answer.status_code == 200 and len(upstream.seen) == 1
    else:
        assert answer.status_code == 422
        assert answer.json()["error"]["code"] == "image_needs_review"
        assert upstream.seen == []


WIIK_PAGE = ("Patient: Jane Wiik", "Email jane.doe@example.com or 408-555-0199")
"""OCR reads `Patient:` `Jane` `Wiik` …: a surname no dictionary knows (elements 1 and 2)."""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("detect", "strict", "status"),
    [("1:NAME", False, 422), ("1:NAME\n2:NAME", False, 200), ("1:NAME", True, 200)],
    ids=["surname-left-readable", "every-identifier-burned", "images-strict-burns-it"],
)
def test_an_image_whose_output_leaves_a_word_no_reader_explains_is_refused(
    upstream: EchoUpstream, tmp_path: Path, detect: str, strict: bool, status: int
) -> None:
    """The residual check (docs/lexicon.md) runs in the image tier's pipeline: with the
    validator's PASS trusted and the rules burning the e-mail and phone, the model naming
    the given name alone leaves `Wiik` readable, a word no reader could explain, and the
    run ends NEEDS_REVIEW: refused. The same page with the surname named too is forwarded,
    and so is the first under `--images-strict`, which burns the word (a second round)."""
    page = render_page(tmp_path / "page.png", WIIK_PAGE)
    engine = scripted(classify=["CATEGORY: General"], detect=[detect], validate=["PASS"] * 2)
    answer = post_image(upstream, engine, page, images_strict=strict)
    assert answer.status_code == status, answer.text
    if status == 422:
        assert answer.json()["error"]["code"] == "image_needs_review"
        assert upstream.seen == []
        return
    url = upstream.seen[0]["messages"][0]["content"][0]["image_url"]["url"]
    forwarded = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    words = read_words(forwarded)
    assert "Patient" in words and "Wiik" not in words and "jane.doe" not in words


def truncated_png(path: Path) -> None:
    Image.effect_noise((400, 300), 64).save(path)
    path.write_bytes(path.read_bytes()[:2000])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda path: path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64), "is not an image"),
        (truncated_png, "corrupt or truncated"),
        (lambda path: Image.new("L", (20_001, 2)).save(path), "limit is 100 megapixels"),
    ],
    ids=["garbage", "truncated", "too-wide"],
)
def test_an_image_that_cannot_be_read_is_refused_and_not_forwarded(
    upstream: EchoUpstream, tmp_path: Path, make, why: str
) -> None:
    page = tmp_path / "page.png"
    make(page)
    engine = scripted(classify=["CATEGORY: General"], detect=[""], validate=["PASS"])
    answer = post_image(upstream, engine, page)
    assert answer.status_code == 422
    message = answer.json()["error"]["message"]
    assert message.startswith("an image could not be read: ") and "(inline)" in message
    assert why in message
    assert upstream.seen == []
