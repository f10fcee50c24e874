package dev.redacto.core.pipeline

import dev.redacto.core.Category
import dev.redacto.core.Document
import dev.redacto.core.Mode
import dev.redacto.core.Step
import dev.redacto.core.modelfile.ImageReading

/**
 * Step 1 — Classify: which of the seven categories' prompts should drive detection.
 *
 * A universal prompt sees at most the first chunk's worth of the document. An answer that
 * cannot be read, or names no known category, falls back to General — recorded in the
 * report, never an exception: General's detector is the broadest, so the fallback fails safe.
 */
data class Classification(
    val category: Category,
    val documentType: String,
    val fallback: Boolean,
    /** The user named the category; the model was not asked. */
    val given: Boolean = false,
)

/**
 * Asks the model for DOCUMENT_TYPE and CATEGORY; General when the answer is unusable.
 *
 * A category given in the options is taken as it is, without a model call.
 */
suspend fun classify(
    document: Document,
    context: StepContext,
): Classification {
    context.emit(ProgressEvent(step = Step.CLASSIFY, phase = Phase.START))
    context.options.category?.let { category ->
        val given = Classification(category, "", fallback = false, given = true)
        context.emit(ProgressEvent(step = Step.CLASSIFY, phase = Phase.END, category = given.category))
        return given
    }
    // A page read as text is classified as text too, its OCR lines kept.
    val shown =
        if (document.mode == Mode.IMAGE && context.options.imageReading == ImageReading.TEXT) {
            Document.fromText(PageText.of(document.elements).text)
        } else {
            document
        }
    val template = context.prompts.template(Step.CLASSIFY, shown.mode, null)
    val (system, user) = template.render(mapOf("document" to classifyText(shown, context.options.chunkSize)))
    val parse = ClassifyParse()
    val reply = context.callLines(Step.CLASSIFY, system, user, parse.rejected, onLine = parse::feed)
    context.record(Step.CLASSIFY, reply, parse.rejected)
    val result =
        Classification(
            category = parse.category ?: Category.GENERAL,
            documentType = parse.documentType,
            fallback = parse.category == null,
        )
    context.emit(ProgressEvent(step = Step.CLASSIFY, phase = Phase.END, category = result.category))
    return result
}
