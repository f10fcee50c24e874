"""What the model itself says about a run, laid onto the run's options.

`run_pipeline` calls `options_for_model(options, engine)` before the first step, so every
caller of the library (the CLI, the eval, a script) gets the same fail-closed policy: a
model whose settings distrust its validator cannot end PASS, whoever runs it. The settings
are the engine's (`Engine.settings`): a built model file's sealed, verified policy
(`redacto.modelfile.policy`), never anything read from its name; a model with none gets the
fail-closed defaults.

The `[pipeline]` table (`PipelineSettings`) is applied field by field onto the
`PipelineOptions` field of the same name, here and nowhere else, so a setting added to
the manifest reaches every run without touching the callers:

- a field listed in `STRICTER` combines the caller's value and the model's into the
  stricter of the two: `trust_validator_pass` is true only if both say so, so a caller can
  distrust a validator its model trusts, never the reverse;
- any other field takes the model's value where the caller left it `None` ("as the
  model says", the option's default); a value the caller set is a deliberate choice and is
  kept (the eval's `--image-reading` compares a model's two readings this way).

A new `[pipeline]` setting therefore needs a `PipelineOptions` field of the same name,
defaulting to None (or an entry in `STRICTER`); `tests/pipeline/test_policy.py` fails if
one is missing. A context built without `run_pipeline` (`StepContext`) takes the defaults
for what is still None (`settled`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

from redacto.document import ValidatorVerdict
from redacto.engines import Engine
from redacto.modelfile.manifest import PipelineSettings
from redacto.pipeline.state import PipelineOptions

STRICTER: dict[str, Callable[[Any, Any], Any]] = {
    "trust_validator_pass": lambda caller, manifest: bool(caller and manifest),
    # A manifest's trust was measured on its verdict rule and margin: a caller may raise the
    # margin, never lower it or go back to the answer rule.
    "validator_verdict": lambda caller, manifest: (
        manifest if manifest is ValidatorVerdict.SCORED or caller is None else caller
    ),
    "pass_margin": lambda caller, manifest: (
        caller if manifest is None else manifest if caller is None else max(caller, manifest)
    ),
}
"""How a caller's value and the manifest's combine, for settings where one value is safer."""


def apply_model_settings(options: PipelineOptions, settings: PipelineSettings) -> PipelineOptions:
    """`options` with every manifest setting applied (see the module docstring for how)."""
    option_names = {field.name for field in fields(options)}
    changes: dict[str, Any] = {}
    for name in type(settings).model_fields:
        if name not in option_names:
            raise TypeError(f"PipelineOptions has no field for the manifest setting {name!r}")
        caller, manifest = getattr(options, name), getattr(settings, name)
        combine = STRICTER.get(name)
        if combine is not None:
            changes[name] = combine(caller, manifest)
        elif caller is None:
            changes[name] = manifest
    return replace(options, **changes)


def settled(options: PipelineOptions) -> PipelineOptions:
    """`options` with every setting still left to the model (None) at its default; the
    others as they are (a context built without `run_pipeline` applies no model's policy)."""
    defaults = PipelineSettings()
    left = {
        name: getattr(defaults, name)
        for name in type(defaults).model_fields
        if getattr(options, name) is None
    }
    return replace(options, **left)


def options_for_model(options: PipelineOptions, engine: Engine) -> PipelineOptions:
    """The options a run on this engine's model uses: the caller's, with the model's own
    settings applied."""
    return apply_model_settings(options, engine.settings)
