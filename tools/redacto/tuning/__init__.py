"""Teaching a small model the pipeline's four steps: training data, LoRA tuning, merging.

examples = build_examples(documents)            # the exact prompts + gold answers
result = tune(TuneConfig(...), examples)        # LoRA on CPU, time-boxed, resumable
merge_adapter(base_checkpoint, adapter, out)    # the `merge` stage of `model build`
"""

from redacto.tuning.dataset import (
    TrainingExample,
    build_examples,
    examples_summary,
    read_examples,
    word_labels,
    write_examples,
)
from redacto.tuning.merge import merge_adapter
from redacto.tuning.train import (
    StepLog,
    TuneConfig,
    TuneResult,
    chat_prompt,
    read_step_log,
    tune,
)

__all__ = [
    "StepLog",
    "TrainingExample",
    "TuneConfig",
    "TuneResult",
    "build_examples",
    "chat_prompt",
    "examples_summary",
    "merge_adapter",
    "read_examples",
    "read_step_log",
    "tune",
    "word_labels",
    "write_examples",
]
