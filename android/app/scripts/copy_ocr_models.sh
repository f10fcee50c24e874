#!/usr/bin/env bash
# Copies the PP-OCRv6 detector and recogniser that the workstation uses (shipped inside the
# rapidocr wheel, version pinned by pyproject.toml) into the app's assets, and prints their
# sha256. The recogniser's dictionary is inside its ONNX metadata, so nothing else is needed.
#   android/app/scripts/copy_ocr_models.sh [PYTHON]   (default: the repository's .venv)
set -euo pipefail
app=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$app/../.." && pwd)
python=${1:-$root/.venv/bin/python}
models=$("$python" -c 'import pathlib, rapidocr; print(pathlib.Path(rapidocr.__file__).parent / "models")')
version=$("$python" -c 'from importlib.metadata import version; print(version("rapidocr"))')
out=$app/src/main/assets/ppocr
mkdir -p "$out"
for name in PP-OCRv6_det_small.onnx PP-OCRv6_rec_small.onnx; do
  if [ ! -f "$models/$name" ]; then
    echo "copy_ocr_models.sh: $models/$name not found (rapidocr $version); install the 'ocr' extra" >&2
    exit 1
  fi
  cp "$models/$name" "$out/$name"
done
echo "rapidocr $version → $out"
(cd "$out" && sha256sum PP-OCRv6_det_small.onnx PP-OCRv6_rec_small.onnx)
