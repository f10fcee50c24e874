package dev.redacto.core.inputs

import dev.redacto.core.Box
import dev.redacto.core.RunReport
import dev.redacto.core.Status
import dev.redacto.core.engines.LlmEngine
import dev.redacto.core.imaging.coverInk
import dev.redacto.core.lexicon.LexiconFiles
import dev.redacto.core.ner.NerDetector
import dev.redacto.core.pipeline.PipelineOptions
import dev.redacto.core.pipeline.PipelineResult
import dev.redacto.core.pipeline.PixelBounds
import dev.redacto.core.pipeline.ProgressEvent
import dev.redacto.core.pipeline.PromptBook
import dev.redacto.core.pipeline.pixelBounds
import dev.redacto.core.pipeline.runPipeline
import dev.redacto.core.rules.RuleDetector
import dev.redacto.core.rules.Rules

/*
 * `redact` a read photo in memory: the pipeline on its document, then what to burn into it.
 * Mirrors `inputs/redaction.py`'s `redact` and `finish`. Its `write` has no counterpart: the
 * app saves the burned bitmap as a new PNG itself (`PageImages.kt`).
 */

/**
 * One photo's finished run, in memory: its report (final, naming the OCR), the redacted text,
 * the boxes the run drew and the whole pixels to burn. Mirrors Python's `inputs.Redaction`
 * (named apart from the redact step's own [Redaction]); Python's redacted files are [burn]
 * here, burned into the photo by the app.
 */
data class InputRedaction(
    val input: ImageInput,
    val report: RunReport,
    val redactedText: String? = null,
    /** The result's boxes, in the photo's pixels (what a screen draws over it). */
    val boxes: List<Box> = emptyList(),
    /**
     * The pixels to black out in the [ImageInput.width]×[ImageInput.height] photo: every box
     * widened over the glyphs its edges cut ([coverInk]), rounded outward to whole pixels and
     * clipped ([pixelBounds]). Empty when the run did not redact: an ERROR run claims no
     * redaction, and a box whose glyphs run on past where a word could end makes it ERROR.
     */
    val burn: List<PixelBounds> = emptyList(),
)

/**
 * Runs the pipeline on [input]'s document and lists what to burn, all in memory, checked
 * against the ink of the photo itself ([ImageInput.pixels], read in the caller's context: run
 * it off the main thread).
 *
 * Never throws for a failed run, as far as [runPipeline]'s contract goes: an engine failure
 * ([EngineException]) is an ERROR report there. Python also turns any other exception inside
 * the pipeline into an ERROR report; here anything else (a bug, [OutOfMemoryError],
 * cancellation) reaches the caller, so a coroutine's cancellation is never swallowed and the
 * app keeps telling "the model failed" apart from "something went wrong". [rules], [ner] and
 * [onEvent] are [runPipeline]'s: pass [LiveBoxes.rules], [LiveBoxes.ner] and
 * [LiveBoxes.onEvent] to draw boxes as they are found; [lexicon] is [runPipeline]'s too (the
 * app's `lexicon/` assets).
 */
suspend fun redact(
    input: ImageInput,
    engine: LlmEngine,
    prompts: PromptBook = PromptBook.BUILT_IN,
    options: PipelineOptions = PipelineOptions(),
    rules: RuleDetector = Rules.DETECTOR,
    ner: NerDetector? = null,
    lexicon: LexiconFiles? = null,
    onEvent: ((ProgressEvent) -> Unit)? = null,
): InputRedaction = finish(input, runPipeline(input.document, engine, prompts, options, rules, ner, lexicon, onEvent))

/**
 * A pipeline result on [input] as a redaction: the report names the input's OCR, and a run
 * that redacted (not ERROR, with a redacted text: Python's `redacted`) gets its boxes, widened
 * over the glyphs they cut in [ImageInput.pixels] ([coverInk]), as whole pixels of the photo to
 * burn. When a box's glyphs run on past where a word could end, the run ends ERROR with
 * nothing to burn, as Python's `ImageInput.redacted_files` does (same status, same reason;
 * its review reasons are kept, as there).
 */
internal fun finish(
    input: ImageInput,
    result: PipelineResult,
): InputRedaction {
    val report = result.report.copy(ocr = input.ocrName)
    val redacted = report.status != Status.ERROR && result.redactedText != null
    if (!redacted) return InputRedaction(input, report, result.redactedText, result.boxes)
    val covered = coverInk(input.pixels, result.boxes)
    if (covered.unresolved.isNotEmpty()) {
        val failed = report.copy(status = Status.ERROR, error = unresolvedInk(covered.unresolved.size))
        return InputRedaction(input, failed, result.redactedText, result.boxes)
    }
    val burn = covered.boxes.map { pixelBounds(it, input.width, input.height) }
    return InputRedaction(input, report, result.redactedText, result.boxes, burn)
}

/** The report's error when [count] boxes cut endless ink: Python's words, to the letter. */
internal fun unresolvedInk(count: Int): String =
    "$count box(es) cut ink that runs on past where a word could end, so a part of a value could stay readable; no image was written"
