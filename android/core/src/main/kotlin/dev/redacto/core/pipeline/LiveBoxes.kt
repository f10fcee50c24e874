package dev.redacto.core.pipeline

import dev.redacto.core.Box
import dev.redacto.core.Document
import dev.redacto.core.RunReport
import dev.redacto.core.describeReasons
import dev.redacto.core.ner.NerDetector
import dev.redacto.core.rules.RuleDetector

/**
 * The boxes a screen shows while an image-mode run streams, and the count beside them.
 *
 * Rule and NER hits appear first (pass [rules] and [ner] to [redact] or [runPipeline]), then each element as
 * the detector or the validator names it ([onEvent]). The count is always the number of boxes
 * drawn; when the run ends, [finish] replaces them with the result's boxes, one for each box
 * burned (widened there over any glyph it cuts), so the final count is the report's `countShown`.
 */
class LiveBoxes(
    private val document: Document,
) {
    private val shown = linkedMapOf<Int, Box>()
    private var final: List<Box>? = null

    /** The boxes to draw now, in the order they appeared. */
    val boxes: List<Box> get() = final ?: shown.values.toList()

    /** The number shown to the user: exactly the boxes drawn. */
    val count: Int get() = boxes.size

    /** [inner], reporting each hit here as it is returned to the pipeline. */
    fun rules(inner: RuleDetector): RuleDetector =
        RuleDetector { document, category -> inner.find(document, category).also { hits -> hits.forEach { add(it.index) } } }

    /** [inner], reporting each NER hit here as it is returned to the pipeline. */
    fun ner(inner: NerDetector): NerDetector =
        NerDetector { document, category, labels -> inner.find(document, category, labels).also { hits -> hits.forEach { add(it.index) } } }

    /** Draws the element a PROGRESS event names; true if a new box appeared. */
    fun onEvent(event: ProgressEvent): Boolean = event.phase == Phase.PROGRESS && add(event.index)

    /**
     * The run is over: show exactly the run's boxes ([InputRedaction.boxes], the report's);
     * each is burned widened over any glyph its edge cuts ([InputRedaction.burn]).
     */
    fun finish(boxes: List<Box>) {
        final = boxes
    }

    private fun add(index: Int?): Boolean {
        if (index == null || index in shown) return false
        val box = document.elements.getOrNull(index)?.box ?: return false
        shown[index] = box
        return true
    }
}

/** Whole pixels to black out for [box] in a [width]×[height] image: rounded outward, clipped. */
data class PixelBounds(
    val left: Int,
    val top: Int,
    val right: Int,
    val bottom: Int,
)

fun pixelBounds(
    box: Box,
    width: Int,
    height: Int,
): PixelBounds =
    PixelBounds(
        left =
            kotlin.math
                .floor(box.x0)
                .toInt()
                .coerceIn(0, width),
        top =
            kotlin.math
                .floor(box.y0)
                .toInt()
                .coerceIn(0, height),
        right =
            kotlin.math
                .ceil(box.x1)
                .toInt()
                .coerceIn(0, width),
        bottom =
            kotlin.math
                .ceil(box.y1)
                .toInt()
                .coerceIn(0, height),
    )

/**
 * What a reviewer must check on a NEEDS_REVIEW run, one line each: first every word no reader
 * could explain (`to check: Wiik`, the residual check's, which a reviewer looks at first), then
 * every item the validator named (`4:MRN` shown with the word it points at) and every reason
 * the run was not verified ([describeReasons]).
 */
fun reviewItems(
    report: RunReport,
    document: Document,
): List<String> {
    val named =
        report.validatorMissed.map { item ->
            val word =
                item
                    .substringBefore(':')
                    .trim()
                    .toIntOrNull()
                    ?.let { document.elements.getOrNull(it)?.text }
            if (word != null) "$item ($word)" else item
        }
    val toCheck = report.unexplained.map { "to check: ${it.value}" }
    return toCheck + named + describeReasons(report) + report.notLocated.map { "not located: ${it.label}" }
}
