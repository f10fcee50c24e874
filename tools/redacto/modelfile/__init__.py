"""A model file's identity: what it is, what it may be trusted with, and how to tell.

- `manifest`: the TOML files under `models/` that describe a model (its source, build
  settings and the `[pipeline]` policy, `PipelineSettings`);
- `litertlm_file`: a `.litertlm` header read by hand (system metadata, sections), as the
  phone's `LitertlmFile.kt` reads it;
- `policy`: the policy sealed inside a built file, read back and verified
  (`check_model_file`), never taken from the file's name;
- `stamp`: writes that policy into a file the build made;
- `record`: the build record beside a built file (its sha256, stage timings, tool versions).

None of this needs the build toolchain (`redacto.models`, torch, LiteRT's converter), so the
engines, the pipeline and the reports may read a model's identity; only `stamp` writes, and
it loads LiteRT-LM's FlatBuffers schema when it is called. The modules are imported by name
(nothing is re-exported here), so reading a header loads no more than its own module.
"""
