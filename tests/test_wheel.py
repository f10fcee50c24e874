"""The package as a user installs it: a wheel built from this tree, in a fresh venv.

An editable install reads `prompts/`, `models/` and `lexicon/` from the checkout, so it would hide a
wheel that forgot them. Here the wheel is built from a copy of the tree (no build folders
or egg-info land in the checkout), installed into a new venv with `--no-deps --no-index`
(offline and fast), and run from a folder outside the repository. The venv borrows the
dependencies, not redacto, from this environment's site-packages through a `.pth` line:
a path a `.pth` file names is put on `sys.path` without its own `.pth` files being read,
so this environment's editable redacto stays out of it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from redacto.cli import app
from redacto.host.resources import SOURCE_ROOT

pytestmark = pytest.mark.slow  # builds the wheel and installs it into a fresh venv

BUILD_INPUTS = (
    "pyproject.toml",
    "setup.py",
    "MANIFEST.in",
    "README.md",
    "tools",
    "prompts",
    "models",
    "lexicon",
)
NOTE = "Mrs. Chen called 408-555-1234 on Monday.\n"


def _run(command: list[str | Path], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """(the venv's `redacto` script, the built wheel, a clean environment to run it in)."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "src"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in BUILD_INPUTS:
        origin = SOURCE_ROOT / name
        if origin.is_dir():
            shutil.copytree(origin, source / name, ignore=ignore)
        else:
            shutil.copy2(origin, source / name)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["REDACTO_BUILD_DIR"] = str(root / "models-built")  # nothing lands in ~/.local
    pip = [sys.executable, "-m", "pip"]
    built = _run(
        [
            *pip,
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-q",
            "-w",
            root / "dist",
            source,
        ],
        root,
        env,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (root / "dist").glob("redacto-*.whl")
    venv = root / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", venv], root, env)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    added = _run(
        [*pip, "--python", python, "install", "--no-deps", "--no-index", "-q", wheel], root, env
    )
    assert added.returncode == 0, added.stderr
    site = Path(
        _run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], root, env
        ).stdout.strip()
    )
    (site / "_borrowed_dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    return venv / "bin" / "redacto", wheel, env


def test_the_wheel_ships_prompts_manifests_and_rules(installed):
    _, wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "redacto/_data/prompts/classify.md",
        "redacto/_data/prompts/labels.yaml",
        "redacto/_data/prompts/medical/detect.md",
        "redacto/_data/models/redacto-270m.toml",
        "redacto/_data/models/chat/gemma-turns.jinja",
        "redacto/rules/recognizers.yaml",
        "redacto/_data/models/ner/rampart.toml",
        "redacto/ner/labels.yaml",
        "redacto/text/not_names.txt",
        "redacto/pdf/glyphless.ttf",  # the text layer's font of redacted.pdf
        "redacto/evaluation/report.html.j2",
        "redacto/py.typed",
        # The residual check's dictionaries, pinned, with their licence notices.
        "redacto/_data/lexicon/manifest.json",
        "redacto/_data/lexicon/en.words.gz",
        "redacto/_data/lexicon/fr.words.gz",
        "redacto/_data/lexicon/LICENSE.en.txt",
        "redacto/_data/lexicon/LICENSE.fr.txt",
    ):
        assert needed in names


def test_the_installed_package_is_the_wheel_not_the_checkout(installed, tmp_path):
    script, _, env = installed
    python = script.parent / "python"
    shown = _run(
        [
            python,
            "-c",
            "import redacto.host.resources as r; print(r.__file__); print(r.checkout_root())",
        ],
        tmp_path,
        env,
    )
    where, checkout = shown.stdout.split()
    assert Path(where).is_relative_to(script.parent.parent), shown.stdout
    assert checkout == "None"


def test_prompts_show_reads_the_shipped_prompts(installed, tmp_path):
    script, _, env = installed
    arguments = ["prompts", "show", "detect", "--mode", "text", "--category", "Medical"]
    shown = _run([script, *arguments], tmp_path, env)
    assert shown.returncode == 0, shown.stderr
    from_checkout = CliRunner().invoke(app, arguments)
    assert from_checkout.exit_code == 0
    assert shown.stdout == from_checkout.stdout
    assert shown.stdout.startswith("# medical.detect")


def test_a_scripted_redaction_runs_from_the_wheel(installed, tmp_path):
    script, _, env = installed
    note = tmp_path / "note.txt"
    note.write_text(NOTE, encoding="utf-8")
    replies = tmp_path / "replies.json"
    replies.write_text(
        json.dumps(
            {
                "classify": ["DOCUMENT_TYPE: Note\nCATEGORY: Medical"],
                "detect": ["NAME: Mrs. Chen"],
                "redact": ["[NAME_1] called [PHONE_1] on Monday.\n"],
                "validate": ["PASS"],
                "pipeline": {"trust_validator_pass": True},
            }
        ),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    ran = _run(
        [script, "redact", note, "--model", f"scripted:{replies}", "--out", out], tmp_path, env
    )
    assert ran.returncode == 0, ran.stderr
    assert (out / "redacted.txt").read_text(encoding="utf-8") == (
        "[NAME_1] called [PHONE_1] on Monday.\n"
    )
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["status"] == "PASS"
    # The NER tier (on by default in `redacto redact`) names "Chen" inside "Mrs. Chen".
    assert {d["source"] for d in report["detections"]} == {"detect", "rule", "ner"}
