"""The request-schema walk: a value planted anywhere in a documented OpenAI request never
reaches the upstream — each string is redacted, or the request is refused.

The bodies (`openai_requests.py`) use every field of the chat-completions and completions
requests. Each node of each body in turn is replaced by the planted value (a string where
a number, a list or an object was, too), every object gets an unknown key, and every
object a key that is the value itself; the echo upstream records what it received.
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest
from openai_requests import CHAT, COMPLETION, IMAGE_URL, REQUESTS

from devtools.fixtures.echo_upstream import EchoUpstream
from devtools.fixtures.running_proxy import RunningProxy, start_proxy
from redacto.proxy import ProxyConfig, build_proxy
from redacto.proxy.fields import CHAT as CHAT_FIELDS
from redacto.proxy.fields import COMPLETION as COMPLETION_FIELDS
from redacto.proxy.kinds import Field
from redacto.proxy.server import model_worker

PLANTED = "jane.doe@example.com"
"""A value the rules tier always finds."""
REDACTED_IMAGE = IMAGE_URL.replace("data:image/png", "data:image/png;redacted=1")

Path = tuple[str | int, ...]

TEXT_FIELDS = {
    "messages[].content",
    "messages[].content[].text",
    "messages[].content[].refusal",
    "messages[].name",
    "messages[].refusal",
    "messages[].reasoning_content",
    "messages[].audio.id",
    "messages[].tool_call_id",
    "messages[].tool_calls[].id",
    "messages[].tool_calls[].function.arguments",
    "messages[].tool_calls[].custom.input",
    "messages[].function_call.arguments",
    "functions[].description",
    "tools[].function.description",
    "tools[].custom.description",
    "tools[].custom.format.grammar.definition",
    "response_format.json_schema.description",
    "prediction.content",
    "prediction.content[].text",
    "metadata.team",
    "prompt_cache_key",
    "safety_identifier",
    "stop",
    "stop[]",
    "user",
    "web_search_options.user_location.approximate.city",
    "web_search_options.user_location.approximate.country",
    "web_search_options.user_location.approximate.region",
    "web_search_options.user_location.approximate.timezone",
    "prompt",
    "prompt[]",
    "suffix",
}
"""Where a planted value is user text: redacted and forwarded, never refused."""
FREE_FORM = ("metadata", "logit_bias", ".parameters", ".schema")
"""Objects whose keys are the client's own (a JSON schema, `metadata`, `logit_bias`)."""


def shape(path: Path) -> str:
    """`("messages", 3, "content")` → `messages[].content`."""
    out = ""
    for part in path:
        out += "[]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def is_text(body: dict[str, Any], path: Path) -> bool:
    """Whether the string at `path` is user text (a function message's `name` is the
    function's, an identifier)."""
    if shape(path) == "messages[].name" and at(body, path[:2]).get("role") == "function":
        return False
    return shape(path) in TEXT_FIELDS


def nodes(value: Any, path: Path = ()) -> Iterator[Path]:
    """Every node's path, containers included, the root excepted."""
    if path:
        yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from nodes(item, (*path, key))
    elif isinstance(value, list):
        for number, item in enumerate(value):
            yield from nodes(item, (*path, number))


def objects(value: Any, path: Path = ()) -> Iterator[Path]:
    if isinstance(value, dict):
        yield path
        for key, item in value.items():
            yield from objects(item, (*path, key))
    elif isinstance(value, list):
        for number, item in enumerate(value):
            yield from objects(item, (*path, number))


def at(body: Any, path: Path) -> Any:
    for part in path:
        body = body[part]
    return body


def replaced(body: dict[str, Any], path: Path, value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(body)
    at(changed, path[:-1])[path[-1]] = value
    return changed


def with_key(body: dict[str, Any], path: Path, key: str, value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(body)
    at(changed, path)[key] = value
    return changed


@pytest.fixture
def walked(upstream: EchoUpstream) -> Iterator[RunningProxy]:
    """The rules-tier proxy, with a stand-in image tier so image parts are accepted."""
    proxy = build_proxy(ProxyConfig(upstream=upstream.url, read_timeout_s=5.0))
    proxy.redactor.images = lambda url: REDACTED_IMAGE
    proxy.redactor.run_blocking = model_worker()
    running = start_proxy(proxy)
    yield running
    running.stop()


def post(
    client: httpx.Client, upstream: EchoUpstream, endpoint: str, body: dict[str, Any]
) -> tuple[httpx.Response, str]:
    """The answer, and what the upstream received for it ("" when nothing)."""
    before = len(upstream.seen)
    answer = client.post(endpoint, json=body)
    forwarded = orjson.dumps(upstream.seen[before:]).decode()
    return answer, forwarded


def assert_never_forwarded(
    answer: httpx.Response, forwarded: str, where: str, caplog: pytest.LogCaptureFixture
) -> None:
    assert PLANTED not in forwarded, f"{where}: forwarded verbatim"
    assert answer.status_code in (200, 400, 422), f"{where}: {answer.status_code}"
    if answer.status_code == 200:
        assert "[EMAIL_1]" in forwarded, f"{where}: answered 200, but not redacted"
    else:
        assert forwarded == "[]", f"{where}: refused, yet something was forwarded"
        assert PLANTED not in answer.text, f"{where}: the refusal repeats the value"
    assert PLANTED not in caplog.text, f"{where}: logged"


@pytest.mark.parametrize(("endpoint", "body"), REQUESTS)
def test_every_documented_field_is_accepted_as_it_is(
    walked: RunningProxy, upstream: EchoUpstream, endpoint: str, body: dict[str, Any]
) -> None:
    with walked.client() as client:
        answer, forwarded = post(client, upstream, endpoint, body)
    assert answer.status_code == 200, answer.text
    expected = copy.deepcopy(body)
    for path in nodes(body):
        if at(body, path) == IMAGE_URL:
            at(expected, path[:-1])[path[-1]] = REDACTED_IMAGE
    assert orjson.loads(forwarded) == [expected]


@pytest.mark.slow
@pytest.mark.parametrize(("endpoint", "body"), REQUESTS)
def test_a_value_planted_in_any_field_never_reaches_the_upstream(
    walked: RunningProxy,
    upstream: EchoUpstream,
    caplog: pytest.LogCaptureFixture,
    endpoint: str,
    body: dict[str, Any],
) -> None:
    caplog.set_level(logging.DEBUG, logger="redacto")
    outcomes: dict[str, int] = {}
    with walked.client() as client:
        for path in nodes(body):
            answer, forwarded = post(client, upstream, endpoint, replaced(body, path, PLANTED))
            assert_never_forwarded(answer, forwarded, shape(path), caplog)
            outcomes[shape(path)] = answer.status_code
            if isinstance(at(body, path), str) and is_text(body, path):
                assert answer.status_code == 200, f"{shape(path)}: text refused"
            # Planted beside the value that was there, in the same string.
            if isinstance(at(body, path), str) and at(body, path) != IMAGE_URL:
                mixed = replaced(body, path, f"{at(body, path)} {PLANTED}")
                answer, forwarded = post(client, upstream, endpoint, mixed)
                assert_never_forwarded(answer, forwarded, shape(path), caplog)
    assert any(status == 200 for status in outcomes.values())
    assert any(status == 422 for status in outcomes.values())


@pytest.mark.parametrize(("endpoint", "body"), REQUESTS)
def test_an_unknown_key_anywhere_is_refused_or_redacted(
    walked: RunningProxy,
    upstream: EchoUpstream,
    caplog: pytest.LogCaptureFixture,
    endpoint: str,
    body: dict[str, Any],
) -> None:
    caplog.set_level(logging.DEBUG, logger="redacto")
    with walked.client() as client:
        for path in objects(body):
            where = shape(path) or "(top level)"
            free_form = any(part in where for part in FREE_FORM)
            for key, value in (("x_extra", PLANTED), (PLANTED, "x")):
                answer, forwarded = post(
                    client, upstream, endpoint, with_key(body, path, key, value)
                )
                assert_never_forwarded(answer, forwarded, f"{where}.{key}", caplog)
                if not free_form:
                    assert answer.status_code == 422, f"{where}: an unknown key was accepted"
                    assert answer.json()["error"]["code"] == "unknown_field"


@pytest.mark.parametrize(
    ("endpoint", "body", "message"),
    [
        ("/v1/chat/completions", {**CHAT, "prompt": "Hi"}, "prompt: a field"),
        ("/v1/chat/completions", {**CHAT, "documents": [{"text": "x"}]}, "documents: a field"),
        (
            "/v1/chat/completions",
            replaced(CHAT, ("messages", 6, "messages"), [{"role": "user", "content": "x"}]),
            "messages[6].messages: a field",
        ),
        (
            "/v1/chat/completions",
            replaced(
                CHAT, ("messages", 0, "content"), [{"type": "text", "text": "a", "note": "b"}]
            ),
            "messages[0].content[0].note: a field",
        ),
        (
            "/v1/chat/completions",
            replaced(CHAT, ("messages", 3, "tool_calls", 0, "function", "arguments"), {"a": 1}),
            "messages[3].tool_calls[0].function.arguments: expected a string",
        ),
        (
            "/v1/chat/completions",
            replaced(CHAT, ("messages", 3, "tool_calls"), {"id": "call_1"}),
            "messages[3].tool_calls: expected a list",
        ),
        ("/v1/completions", {**COMPLETION, "prompt": [[1, 2], [3]]}, "not token ids"),
        ("/v1/chat/completions", {**CHAT, "temperature": "0.2"}, "temperature: expected a number"),
        ("/v1/chat/completions", {**CHAT, "stream": "yes"}, "stream: expected true or false"),
        ("/v1/chat/completions", {**CHAT, "n": 1.5}, "n: expected an integer"),
        ("/v1/chat/completions", {**CHAT, "seed": True}, "seed: expected an integer"),
    ],
    ids=[
        "prompt-in-chat",
        "documents",
        "nested-messages",
        "extra-key-in-a-text-part",
        "arguments-as-an-object",
        "tool-calls-as-a-dict",
        "token-ids",
        "temperature-as-a-string",
        "stream-as-a-string",
        "n-as-a-fraction",
        "seed-as-a-boolean",
    ],
)
def test_the_shapes_found_forwarded_are_refused_naming_the_field(
    walked: RunningProxy, upstream: EchoUpstream, endpoint: str, body: dict, message: str
) -> None:
    with walked.client() as client:
        answer = client.post(endpoint, json=body)
    assert answer.status_code == 422
    assert message in answer.json()["error"]["message"]
    assert upstream.seen == []


def test_a_part_type_is_never_repeated_in_the_log_or_the_answer(
    walked: RunningProxy, upstream: EchoUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="redacto")
    kind = "SSN 536-22-8741 belongs to Jane"
    body = {"model": "m", "messages": [{"role": "user", "content": [{"type": kind}]}]}
    with walked.client() as client:
        answer = client.post("/v1/chat/completions", json=body)
    assert answer.status_code == 422
    assert answer.json()["error"]["message"].startswith("messages[0].content[0].type: not a kind")
    assert "536-22-8741" not in answer.text and "536-22-8741" not in caplog.text
    assert upstream.seen == []


def test_identifiers_holding_a_value_refuse_the_request(
    walked: RunningProxy, upstream: EchoUpstream
) -> None:
    with walked.client() as client:
        model = client.post("/v1/chat/completions", json={**CHAT, "model": PLANTED})
        # A value this very request hides as text is known by the time names are checked.
        tool = copy.deepcopy(CHAT)
        tool["messages"][-1]["content"] = f"mail {PLANTED}"
        tool["tools"][0]["function"]["name"] = f"mail_{PLANTED}"
        named = client.post("/v1/chat/completions", json=tool)
    for answer, where in ((model, "model"), (named, "tools[0].function.name")):
        assert answer.status_code == 422
        assert answer.json()["error"]["code"] == "personal_data_in_identifier"
        assert answer.json()["error"]["message"].startswith(where)
    assert upstream.seen == []


def test_a_call_id_gets_the_same_placeholder_in_the_call_and_its_answer(
    walked: RunningProxy, upstream: EchoUpstream
) -> None:
    body = copy.deepcopy(CHAT)
    body["messages"][3]["tool_calls"][0]["id"] = "call_4111111111111111"
    body["messages"][4]["tool_call_id"] = "call_4111111111111111"
    with walked.client() as client:
        assert client.post("/v1/chat/completions", json=body).status_code == 200
    seen = upstream.seen[-1]["messages"]
    assert seen[3]["tool_calls"][0]["id"] == seen[4]["tool_call_id"] == "call_[CARD_1]"


UNREADABLE = {
    "messages[].content[].type=input_audio",
    "messages[].content[].type=file",
}
"""Known to the proxy and always refused (`test_proxy_http.py` sends them)."""


def allowed_paths(kind: Field) -> set[str]:
    return {re.sub(r"<[a-z_]+>", "", path) for path in kind.paths("")} - UNREADABLE


def example_paths(value: Any, allowed: set[str], path: str = "") -> Iterator[str]:
    if path:
        yield path
    if isinstance(value, str) and path:
        yield f"{path}={value}"  # tags: the example must show each variant
    if isinstance(value, dict):
        for key, item in value.items():
            child = (
                f"{path}{{}}" if f"{path}{{}}" in allowed else (f"{path}.{key}" if path else key)
            )
            yield from example_paths(item, allowed, child)
    elif isinstance(value, list):
        for item in value:
            yield from example_paths(item, allowed, f"{path}[]")


@pytest.mark.parametrize(
    ("kind", "endpoint"),
    [(CHAT_FIELDS, "/v1/chat/completions"), (COMPLETION_FIELDS, "/v1/completions")],
    ids=["chat", "completions"],
)
def test_the_examples_use_every_field_the_proxy_allows(kind: Field, endpoint: str) -> None:
    allowed = allowed_paths(kind)
    shown: set[str] = set()
    for where, body in REQUESTS:
        if where == endpoint:
            shown |= set(example_paths(body, allowed))
    assert allowed - shown == set()
