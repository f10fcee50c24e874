"""The layers at run time: what the import contracts (`lint-imports`) cannot see.

The contracts in pyproject.toml read import statements. Importing `redacto.rules.matching`
also runs `redacto/rules/__init__.py`, and grimp does not count that as an import, so a
package's `__init__` could drag a forbidden layer into the pipeline unseen. Here the
pipeline is imported for real in a fresh interpreter and what it loaded is checked against
the same contract, and against the heavy model SDKs DESIGN.md says load only with their
engine.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

import pytest

from redacto.host.resources import SOURCE_ROOT

HEAVY_SDKS = ("torch", "transformers", "tensorflow", "litert_lm", "litert_torch", "llama_cpp")
PROXY_EXTRA = ("uvloop", "orjson")
"""The proxy extra's packages (pyproject.toml): only `redacto.proxy` may need them.
(httptools and uvicorn are base dependencies: the upstream client parses HTTP with the one,
and both the review page and the proxy serve on the other.)"""


def _forbidden_for_the_pipeline() -> list[str]:
    config = tomllib.loads((SOURCE_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (core,) = [contract for contract in contracts if contract["id"] == "pipeline-core"]
    return list(core["forbidden_modules"])


def _loaded_by(*modules: str) -> list[str]:
    imports = "".join(f"import {module}; " for module in modules)
    script = f"{imports}import sys, json; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(done.stdout)


def test_importing_the_pipeline_and_its_rules_loads_no_layer_above_them_and_no_model_sdk():
    forbidden = _forbidden_for_the_pipeline()
    assert "redacto.models" in forbidden and "redacto.cli" in forbidden
    loaded = _loaded_by("redacto.pipeline", "redacto.pipeline.run", "redacto.rules")
    assert "redacto.pipeline.run" in loaded
    above = [
        name
        for name in loaded
        if any(name == layer or name.startswith(f"{layer}.") for layer in forbidden)
    ]
    assert above == []
    assert [name for name in loaded if name.split(".")[0] in HEAVY_SDKS] == []


@pytest.mark.slow
def test_proofread_and_the_review_page_load_neither_the_proxy_nor_its_extra():
    loaded = _loaded_by("redacto.proofread", "redacto.proofread.run", "redacto.serve")
    assert "redacto.vault" in loaded and "redacto.proofread.run" in loaded
    assert "redacto.upstream" in loaded
    assert [name for name in loaded if name.startswith("redacto.proxy")] == []
    assert [name for name in loaded if name.split(".")[0] in PROXY_EXTRA] == []


def test_a_model_files_identity_loads_without_the_build_or_a_model_sdk():
    modules = [f"redacto.modelfile.{name}" for name in ("manifest", "policy", "record", "stamp")]
    loaded = _loaded_by(*modules, "redacto.modelfile.litertlm_file")
    assert set(modules) <= set(loaded)
    assert [name for name in loaded if name == "redacto.models" or "redacto.models." in name] == []
    assert [name for name in loaded if name.split(".")[0] in HEAVY_SDKS] == []
