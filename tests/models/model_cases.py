"""Helpers shared by the model tests."""

from __future__ import annotations

import jinja2

from redacto.models import load_manifest

GOOD_TINY = """
name = "{name}"
description = "d"
licence = "l"
[source]
kind = "tiny"
corpus = "corpus.txt"
[quant.int8]
method = "hf-export"
recipe = "dynamic_wi8_afp32"
"""
"""A minimal valid manifest of the tiny kind; `.format(name=...)` names it."""


def render_turns(model: str, system: str, user: str) -> str:
    """The model's packaged chat template rendered for one system + user message, the
    way LiteRT-LM renders it before prefill."""
    template = jinja2.Environment().from_string(load_manifest(model).chat_template_text() or "")
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    return template.render(messages=messages, bos_token="<bos>", add_generation_prompt=True)
