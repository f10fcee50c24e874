"""Request bodies that use every documented field of OpenAI's chat-completions and
completions requests, for the proxy's schema walk (`test_proxy_fields.py`).

Written from the OpenAI Python SDK's request types (openai-python e43b422, 2026-08-21):
`types/chat/completion_create_params.py`, `types/completion_create_params.py` and the
message, content-part, tool, tool-choice, response-format and audio types they import.
Where a field takes one of several shapes (a string or a list of parts, a choice or an
object), the variants below take the others. Every value is ordinary and PII-free: the
walk plants a value in each place in turn.
"""

from __future__ import annotations

import base64
import io
from typing import Any

from PIL import Image


def _tiny_png() -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), "white").save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


IMAGE_URL = _tiny_png()

_SCHEMA = {
    "type": "object",
    "title": "Weather query",
    "description": "Where and when",
    "properties": {
        "city": {"type": "string", "description": "The city", "examples": ["Paris"]},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
        "when": {"$ref": "#/$defs/when"},
    },
    "required": ["city"],
    "additionalProperties": False,
    "$defs": {"when": {"type": "string", "format": "date", "pattern": "^[0-9-]+$"}},
}

_STREAM_OPTIONS = {
    "include_usage": True,
    "include_obfuscation": False,
    "continuous_usage_stats": False,
}

_EXTENSIONS = {"top_k": 40, "min_p": 0.05, "repetition_penalty": 1.1}
"""Sampling numbers self-hosted servers (vLLM, llama.cpp, Ollama) take beside OpenAI's."""

CHAT: dict[str, Any] = {
    "model": "gemma-3-270m-it",
    "messages": [
        {"role": "developer", "content": "Answer briefly.", "name": "rules"},
        {
            "role": "system",
            "content": [
                {
                    "type": "text",
                    "text": "You are a helpful assistant.",
                    "prompt_cache_breakpoint": {"mode": "explicit"},
                }
            ],
            "name": "setup",
        },
        {
            "role": "user",
            "name": "customer",
            "content": [
                {"type": "text", "text": "What is the weather?"},
                {
                    "type": "image_url",
                    "image_url": {"url": IMAGE_URL, "detail": "low"},
                    "prompt_cache_breakpoint": {"mode": "explicit"},
                },
            ],
        },
        {
            "role": "assistant",
            "name": "helper",
            "content": [
                {"type": "text", "text": "Let me look."},
                {"type": "refusal", "refusal": "I cannot say more."},
            ],
            "refusal": "Not that part.",
            "reasoning_content": "The user asks about weather.",
            "audio": {"id": "audio_abc123"},
            "tool_calls": [
                {
                    "id": "call_abc123",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                },
                {
                    "id": "call_def456",
                    "type": "custom",
                    "custom": {"name": "run_query", "input": "weather Paris"},
                },
            ],
            "function_call": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
        },
        {
            "role": "tool",
            "tool_call_id": "call_abc123",
            "content": [{"type": "text", "text": "Sunny, 21 degrees."}],
        },
        {"role": "function", "name": "get_weather", "content": "Sunny."},
        {"role": "user", "content": "Thanks, and tomorrow?"},
    ],
    "audio": {"format": "mp3", "voice": "alloy"},
    "frequency_penalty": 0.1,
    "function_call": {"name": "get_weather"},
    "functions": [
        {"name": "get_weather", "description": "Weather for a city", "parameters": _SCHEMA}
    ],
    "logit_bias": {"50256": -100},
    "logprobs": True,
    "max_completion_tokens": 64,
    "max_tokens": 64,
    "metadata": {"team": "support"},
    "modalities": ["text", "audio"],
    "moderation": {
        "model": "omni-moderation-latest",
        "policy": {"input": {"mode": "score"}, "output": {"mode": "block"}},
    },
    "n": 1,
    "parallel_tool_calls": True,
    "prediction": {
        "type": "content",
        "content": [
            {
                "type": "text",
                "text": "It will be",
                "prompt_cache_breakpoint": {"mode": "explicit"},
            }
        ],
    },
    "presence_penalty": 0.2,
    "prompt_cache_key": "support-bot",
    "prompt_cache_options": {"mode": "explicit", "ttl": "30m"},
    "prompt_cache_retention": "24h",
    "reasoning_effort": "low",
    "response_format": {
        "type": "json_schema",
        "json_schema": {
            "name": "weather",
            "description": "A weather report",
            "schema": _SCHEMA,
            "strict": True,
        },
    },
    "safety_identifier": "hashed-user-7",
    "seed": 7,
    "service_tier": "auto",
    "stop": ["\n\nUser:"],
    "store": False,
    "stream": False,
    "stream_options": _STREAM_OPTIONS,
    "temperature": 0.2,
    "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Weather for a city",
                "parameters": _SCHEMA,
                "strict": True,
            },
        },
        {
            "type": "custom",
            "custom": {
                "name": "run_query",
                "description": "Runs a query",
                "format": {
                    "type": "grammar",
                    "grammar": {"definition": "start: WORD+", "syntax": "lark"},
                },
            },
        },
        {"type": "custom", "custom": {"name": "free_text", "format": {"type": "text"}}},
    ],
    "top_logprobs": 2,
    "top_p": 0.9,
    "user": "user-7",
    "verbosity": "low",
    "web_search_options": {
        "search_context_size": "low",
        "user_location": {
            "type": "approximate",
            "approximate": {
                "city": "Paris",
                "country": "FR",
                "region": "Ile-de-France",
                "timezone": "Europe/Paris",
            },
        },
    },
    **_EXTENSIONS,
}
"""Every chat field at once."""

_USER = {"role": "user", "content": "Hello"}

CHAT_VARIANTS: list[dict[str, Any]] = [
    CHAT,
    {  # the other shapes: strings for part lists, choices for objects, and back
        "model": "m",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "developer", "content": [{"type": "text", "text": "Plain words."}]},
            {
                "role": "user",
                "content": [{"type": "image_url", "image_url": IMAGE_URL}],  # the URL alone
            },
            {"role": "assistant", "content": "Sure.", "tool_calls": []},
            {"role": "assistant", "content": None, "refusal": None, "audio": None},
            {"role": "tool", "tool_call_id": "call_1", "content": "done"},
            {"role": "function", "name": "f", "content": None},
            _USER,
        ],
        "audio": {"format": "wav", "voice": {"id": "voice_123"}},
        "function_call": "auto",
        "prediction": {"type": "content", "content": "It will be"},
        "response_format": {"type": "json_object"},
        "stop": "\n\nUser:",
        "tool_choice": "auto",
    },
    {
        "model": "m",
        "messages": [_USER],
        "response_format": {"type": "text"},
        "tool_choice": {"type": "custom", "custom": {"name": "run_query"}},
    },
    {
        "model": "m",
        "messages": [_USER],
        "tool_choice": {
            "type": "allowed_tools",
            "allowed_tools": {
                "mode": "auto",
                "tools": [
                    {"type": "function", "function": {"name": "get_weather"}},
                    {"type": "custom", "custom": {"name": "run_query"}},
                ],
            },
        },
    },
]

COMPLETION: dict[str, Any] = {
    "model": "gemma-3-270m",
    "prompt": "Once upon a time",
    "best_of": 1,
    "echo": False,
    "frequency_penalty": 0.1,
    "logit_bias": {"50256": -100},
    "logprobs": 2,
    "max_tokens": 16,
    "n": 1,
    "presence_penalty": 0.2,
    "seed": 7,
    "stop": "\n",
    "stream": False,
    "stream_options": _STREAM_OPTIONS,
    "suffix": "The end.",
    "temperature": 0.2,
    "top_p": 0.9,
    "user": "user-7",
    **_EXTENSIONS,
}
"""Every completions field at once."""

COMPLETION_VARIANTS: list[dict[str, Any]] = [
    COMPLETION,
    {"model": "m", "prompt": ["Once", "upon a time"], "stop": ["\n", "END"]},
]

REQUESTS: list[tuple[str, dict[str, Any]]] = [
    *(("/v1/chat/completions", body) for body in CHAT_VARIANTS),
    *(("/v1/completions", body) for body in COMPLETION_VARIANTS),
]
"""(endpoint, body) for every example."""
