"""Helpers shared by the model tests."""

from __future__ import annotations

import jinja2

from redacto.models import load_manifest


def render_turns(model: str, system: str, user: str) -> str:
    """The model's packaged chat template rendered for one system + user message, the
    way LiteRT-LM renders it before prefill."""
    template = jinja2.Environment().from_string(load_manifest(model).chat_template_text() or "")
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    return template.render(messages=messages, bos_token="<bos>", add_generation_prompt=True)
