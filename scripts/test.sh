#!/usr/bin/env bash
# Every test Redacto has: lint, types, import contracts, generated-code staleness, Python
# tests (the tiny model is built and run for real), and the Kotlin core's JUnit tests. Sets
# up first (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source .venv/bin/activate

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

say "ruff"
ruff check tools tests scripts devtools
ruff format --check tools tests scripts devtools

say "mypy (tools/redacto and devtools, [tool.mypy] in pyproject.toml)"
mypy

say "import contracts (the layers DESIGN.md states, [tool.importlinter] in pyproject.toml)"
lint-imports --no-cache

say "generated files are up to date (devtools/generated, docs/generated.md)"
python -m devtools.generated --check

say "Python tests"
pytest -q "$@"

if [ -x android/core/test.sh ]; then
  say "Kotlin core tests"
  bash android/core/test.sh
fi
