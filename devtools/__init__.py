"""The workstation's developer tools, kept out of the `redacto` wheel.

`devtools.generated` renders every committed generated file (Kotlin constants, golden
vectors, tables, corpora, fonts) and checks them; `devtools.bench` holds the benchmarks and
their shared harness. Run them from the repository root (`python -m devtools.…`); pytest
finds the package through `pythonpath` in pyproject.toml.
"""
