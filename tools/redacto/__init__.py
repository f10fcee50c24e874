"""Redacto: offline document redaction with a small on-device model.

The pipeline (classify → detect → redact → validate, up to 3 rounds) lives in
`redacto.pipeline`; engines in `redacto.engines`; prompts in `redacto.prompts`.
"""

__version__ = "0.1.0"
