"""The proxy's allow-list: every field of an OpenAI request body it knows, and what it holds.

A request is walked against this list before anything is forwarded. Each string lands in
one of these places, and nothing else gets through:

- **text** (a message's content and name, a tool call's arguments, descriptions, `stop`,
  `user`, `metadata` values, every string of a JSON schema …): goes through the detectors
  and is forwarded with its values replaced by placeholders (answers have them put back);
- **call ids** (`tool_calls[].id`, `tool_call_id`, an assistant's `audio.id`): redacted by
  the rules tier and the vault alone, which give a value one placeholder everywhere, so a
  call and its answer still pair up;
- **names** (the model, tool and function names, `metadata` and JSON-schema keys):
  identifiers the upstream must see as sent, so they are checked instead — one the rules
  tier or the conversation's vault finds a value in refuses the request;
- **choices** (`role`, `type`, `tool_choice`, `reasoning_effort` …): one of the documented
  values;
- **inline images** (`data:image/…` URLs): the photo pipeline.

Numbers and booleans must be numbers and booleans. A field the list does not name, a value
of the wrong type, or content the proxy cannot read (audio, files, images by URL) refuses
the request with 422 and a message naming the field's path, never its value.

The fields are those of the OpenAI Python SDK's request types (openai-python e43b422,
2026-08-21: `types/chat/completion_create_params.py`, `types/completion_create_params.py`
and what they import), plus a few numbers self-hosted servers take (`top_k`, `min_p`,
`repetition_penalty`, `stream_options.continuous_usage_stats`) and `reasoning_content` on
an assistant message (vLLM, DeepSeek). docs/proxy.md has the table.
"""

from __future__ import annotations

from typing import Any

from redacto.proxy.errors import Refused
from redacto.proxy.kinds import (
    AnyOf,
    Choice,
    Field,
    Flag,
    Ident,
    InlineImage,
    JsonSchema,
    ListOf,
    MapOf,
    Number,
    Obj,
    Refuse,
    Slots,
    Tagged,
    Text,
    TokenId,
)

_CALL_ID = Ident(rewrite=True)
_CACHE_BREAKPOINT = Obj({"mode": Choice("explicit")})
_TEXT_PART = Obj({"text": Text(), "prompt_cache_breakpoint": _CACHE_BREAKPOINT})
_TEXT_PARTS = Tagged("type", {"text": _TEXT_PART})
_USER_PARTS = Tagged(
    "type",
    {
        "text": _TEXT_PART,
        "image_url": Obj(
            {"image_url": InlineImage(), "prompt_cache_breakpoint": _CACHE_BREAKPOINT}
        ),
        "input_audio": Refuse("audio cannot be inspected"),
        "file": Refuse("files cannot be inspected"),
    },
)
_ASSISTANT_PARTS = Tagged("type", {"text": _TEXT_PART, "refusal": Obj({"refusal": Text()})})
_TOOL_CALL = Tagged(
    "type",
    {
        "function": Obj({"id": _CALL_ID, "function": Obj({"name": Ident(), "arguments": Text()})}),
        "custom": Obj({"id": _CALL_ID, "custom": Obj({"name": Ident(), "input": Text()})}),
    },
)


def _content(parts: Field) -> AnyOf:
    return AnyOf(Text(), ListOf(parts))


_MESSAGE = Tagged(
    "role",
    {
        "developer": Obj({"content": _content(_TEXT_PARTS), "name": Text()}),
        "system": Obj({"content": _content(_TEXT_PARTS), "name": Text()}),
        "user": Obj({"content": _content(_USER_PARTS), "name": Text()}),
        "assistant": Obj(
            {
                "content": _content(_ASSISTANT_PARTS),
                "refusal": Text(),
                "name": Text(),
                "audio": Obj({"id": _CALL_ID}),
                "tool_calls": ListOf(_TOOL_CALL),
                "function_call": Obj({"name": Ident(), "arguments": Text()}),
                "reasoning_content": Text(),
            }
        ),
        "tool": Obj({"content": _content(_TEXT_PARTS), "tool_call_id": _CALL_ID}),
        "function": Obj({"content": Text(), "name": Ident()}),
    },
)
_FUNCTION = Obj(
    {"name": Ident(), "description": Text(), "parameters": JsonSchema(), "strict": Flag()}
)
_TOOL = Tagged(
    "type",
    {
        "function": Obj({"function": _FUNCTION}),
        "custom": Obj(
            {
                "custom": Obj(
                    {
                        "name": Ident(),
                        "description": Text(),
                        "format": Tagged(
                            "type",
                            {
                                "text": Obj({}),
                                "grammar": Obj(
                                    {
                                        "grammar": Obj(
                                            {
                                                "definition": Text(),
                                                "syntax": Choice("lark", "regex"),
                                            }
                                        )
                                    }
                                ),
                            },
                        ),
                    }
                )
            }
        ),
    },
)
_TOOL_REFERENCE = Tagged(
    "type",
    {
        "function": Obj({"function": Obj({"name": Ident()})}),
        "custom": Obj({"custom": Obj({"name": Ident()})}),
    },
)
_TOOL_CHOICE = AnyOf(
    Choice("none", "auto", "required"),
    Tagged(
        "type",
        {
            "function": Obj({"function": Obj({"name": Ident()})}),
            "custom": Obj({"custom": Obj({"name": Ident()})}),
            "allowed_tools": Obj(
                {
                    "allowed_tools": Obj(
                        {"mode": Choice("auto", "required"), "tools": ListOf(_TOOL_REFERENCE)}
                    )
                }
            ),
        },
    ),
)
_STOP = AnyOf(Text(), ListOf(Text()))
_STREAM_OPTIONS = Obj(
    {"include_usage": Flag(), "include_obfuscation": Flag(), "continuous_usage_stats": Flag()}
)
_LOGIT_BIAS = MapOf(TokenId(), Number())
_SAMPLING: dict[str, Field] = {
    "model": Ident(),
    "frequency_penalty": Number(),
    "presence_penalty": Number(),
    "logit_bias": _LOGIT_BIAS,
    "max_tokens": Number(integer=True),
    "n": Number(integer=True),
    "seed": Number(integer=True),
    "stop": _STOP,
    "stream": Flag(),
    "stream_options": _STREAM_OPTIONS,
    "temperature": Number(),
    "top_p": Number(),
    "user": Text(),
    # Sampling numbers that vLLM, llama.cpp's server and Ollama take beside OpenAI's.
    "top_k": Number(integer=True),
    "min_p": Number(),
    "repetition_penalty": Number(),
}

CHAT = Obj(
    {
        **_SAMPLING,
        "messages": ListOf(_MESSAGE),
        "audio": Obj(
            {
                "format": Choice("wav", "aac", "mp3", "flac", "opus", "pcm16"),
                "voice": AnyOf(Ident(), Obj({"id": Ident()})),
            }
        ),
        "function_call": AnyOf(Choice("none", "auto"), Obj({"name": Ident()})),
        "functions": ListOf(
            Obj({"name": Ident(), "description": Text(), "parameters": JsonSchema()})
        ),
        "logprobs": Flag(),
        "max_completion_tokens": Number(integer=True),
        "metadata": MapOf(Ident(), Text()),
        "modalities": ListOf(Choice("text", "audio")),
        "moderation": Obj(
            {
                "model": Ident(),
                "policy": Obj(
                    {
                        "input": Obj({"mode": Choice("score", "block")}),
                        "output": Obj({"mode": Choice("score", "block")}),
                    }
                ),
            }
        ),
        "parallel_tool_calls": Flag(),
        "prediction": Tagged("type", {"content": Obj({"content": _content(_TEXT_PARTS)})}),
        "prompt_cache_key": Text(),
        "prompt_cache_options": Obj({"mode": Choice("implicit", "explicit"), "ttl": Choice("30m")}),
        "prompt_cache_retention": Choice("in_memory", "24h"),
        "reasoning_effort": Choice("none", "minimal", "low", "medium", "high", "xhigh", "max"),
        "response_format": Tagged(
            "type",
            {
                "text": Obj({}),
                "json_object": Obj({}),
                "json_schema": Obj(
                    {
                        "json_schema": Obj(
                            {
                                "name": Ident(),
                                "description": Text(),
                                "schema": JsonSchema(),
                                "strict": Flag(),
                            }
                        )
                    }
                ),
            },
        ),
        "safety_identifier": Text(),
        "service_tier": Choice("auto", "default", "flex", "scale", "priority", "fast"),
        "store": Flag(),
        "tool_choice": _TOOL_CHOICE,
        "tools": ListOf(_TOOL),
        "top_logprobs": Number(integer=True),
        "verbosity": Choice("low", "medium", "high"),
        "web_search_options": Obj(
            {
                "search_context_size": Choice("low", "medium", "high"),
                "user_location": Tagged(
                    "type",
                    {
                        "approximate": Obj(
                            {
                                "approximate": Obj(
                                    {
                                        "city": Text(),
                                        "country": Text(),
                                        "region": Text(),
                                        "timezone": Text(),
                                    }
                                )
                            }
                        )
                    },
                ),
            }
        ),
    }
)
"""`POST /v1/chat/completions`."""

COMPLETION = Obj(
    {
        **_SAMPLING,
        "prompt": AnyOf(
            Text(), ListOf(Text(wrong="only text prompts can be inspected (not token ids)"))
        ),
        "best_of": Number(integer=True),
        "echo": Flag(),
        "logprobs": Number(integer=True),
        "suffix": Text(),
    }
)
"""`POST /v1/completions`."""


def chat_slots(body: dict[str, Any]) -> Slots:
    """Walk a chat request; raises `Refused` for anything outside the allow-list."""
    messages = body.get("messages")
    if not isinstance(messages, list):
        raise Refused(400, "a chat request needs a list of messages")
    if not all(isinstance(message, dict) for message in messages):
        raise Refused(400, "each message must be an object")
    slots = Slots()
    CHAT.visit_fields(body, "", slots)
    return slots


def completion_slots(body: dict[str, Any]) -> Slots:
    """Walk a completions request; raises `Refused` for anything outside the allow-list."""
    prompt = body.get("prompt")
    if not isinstance(prompt, (str, list)):
        raise Refused(422, "prompt: only text prompts can be inspected (not token ids)")
    slots = Slots()
    COMPLETION.visit_fields(body, "", slots)
    return slots
