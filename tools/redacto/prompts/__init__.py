"""The prompt system: label vocabulary, category rules and every prompt variant.

`PromptLibrary.load()` reads the repository's `prompts/` folder; the pipeline asks it for
`prompt(step, mode, category)` and calls `render(**runtime)` on the result. The same
strings are compiled into the Android app by `redacto.prompts.kotlin.render_kotlin`.
"""

from redacto.prompts.examples import ExampleSet, RenderedExample
from redacto.prompts.library import (
    OUTPUT_FORMATS,
    PIPELINE_VARIABLES,
    CategoryRules,
    Label,
    LabelVocabulary,
    OutputFormat,
    PromptError,
    PromptLibrary,
    PromptTemplate,
    default_prompts_dir,
    substitute,
)

__all__ = [
    "OUTPUT_FORMATS",
    "PIPELINE_VARIABLES",
    "CategoryRules",
    "ExampleSet",
    "Label",
    "LabelVocabulary",
    "OutputFormat",
    "PromptError",
    "PromptLibrary",
    "PromptTemplate",
    "RenderedExample",
    "default_prompts_dir",
    "substitute",
]
