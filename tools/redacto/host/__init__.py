"""What the package needs of the machine it runs on and the checkout it may run from.

- `resources`: where the shipped files lie (prompts, model manifests, the lexicon: the
  wheel's copy or the checkout's own folders), where built models go, and paths made
  relative to the checkout so a committed report names no machine's folders;
- `generated`: the committed files rendered from the sources (the app's Kotlin constants),
  written or checked for staleness;
- `onnx_telemetry`: ONNX Runtime's telemetry switched off before it is first imported, so
  nothing leaves the machine.

These sit below every other package and import none of them.
"""
