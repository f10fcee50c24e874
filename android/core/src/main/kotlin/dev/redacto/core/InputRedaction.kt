package dev.redacto.core

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
     * rounded outward to whole pixels and clipped ([pixelBounds]). Empty when the run did not
     * redact: an ERROR run claims no redaction.
     */
    val burn: List<PixelBounds> = emptyList(),
)

/**
 * Runs the pipeline on [input]'s document and lists what to burn, all in memory.
 *
 * Never throws for a failed run, as far as [runPipeline]'s contract goes: an engine failure
 * ([EngineException]) is an ERROR report there. Python also turns any other exception inside
 * the pipeline into an ERROR report; here anything else (a bug, [OutOfMemoryError],
 * cancellation) reaches the caller, so a coroutine's cancellation is never swallowed and the
 * app keeps telling "the model failed" apart from "something went wrong". [rules], [ner] and
 * [onEvent] are [runPipeline]'s: pass [LiveBoxes.rules], [LiveBoxes.ner] and
 * [LiveBoxes.onEvent] to draw boxes as they are found.
 */
suspend fun redact(
    input: ImageInput,
    engine: LlmEngine,
    prompts: PromptBook = PromptBook.BUILT_IN,
    options: PipelineOptions = PipelineOptions(),
    rules: RuleDetector = Rules.DETECTOR,
    ner: NerDetector? = null,
    onEvent: ((ProgressEvent) -> Unit)? = null,
): InputRedaction = finish(input, runPipeline(input.document, engine, prompts, options, rules, ner, onEvent))

/**
 * A pipeline result on [input] as a redaction: the report names the input's OCR, and a run
 * that redacted (not ERROR, with a redacted text: Python's `redacted`) gets its boxes as whole
 * pixels of the photo to burn.
 */
internal fun finish(
    input: ImageInput,
    result: PipelineResult,
): InputRedaction {
    val redacted = result.report.status != Status.ERROR && result.redactedText != null
    val burn = if (redacted) result.boxes.map { pixelBounds(it, input.width, input.height) } else emptyList()
    return InputRedaction(input, result.report.copy(ocr = input.ocrName), result.redactedText, result.boxes, burn)
}
