package dev.redacto.core.pipeline

import dev.redacto.core.Detection
import dev.redacto.core.Element
import dev.redacto.core.Span
import dev.redacto.core.text.startsLine

/*
 * A page's OCR words read as plain text lines, and the way back from values to words.
 *
 * Image mode's text reading ([ImageReading.TEXT]): detect and validate see the page as the
 * text-mode prompts see a document — words joined by spaces, one OCR line per line — and
 * answer `LABEL: value` lines. The locator finds each value in that text (every occurrence,
 * OCR noise tolerated, across words and lines) and the words it overlaps become the value's
 * element indices, so boxes stay exactly the OCR's own.
 *
 * Lines come from the boxes: a word starts a new line when it sits left of the word before it,
 * when its vertical centre is outside the previous word's height, or when the page changes.
 * Words without boxes continue the line. Offsets are in code points, as the locator's (and
 * Python's) are.
 *
 * The validator of a page read as text sees the redaction as text mode's validator sees a
 * redacted text: each run of redacted words of one value on one line is one placeholder,
 * numbered per distinct value ([redactedLines]), not one placeholder per word. Mirrors
 * `pipeline/page_text.py`.
 */

/** Elements joined into lines of text, with where (in code points) each element starts. */
class PageText private constructor(
    val text: String,
    private val elements: List<Element>,
    private val starts: IntArray,
    private val lengths: IntArray,
) {
    /** The locator over the page's text. */
    val locator by lazy { Locator(text) }

    /** The indices of every element the locator places [value] on; empty: not located. */
    fun locate(value: String): List<Int> {
        val located = locator.locate(value) ?: return emptyList()
        return located.spans
            .flatMap { span -> indicesBetween(span.start, span.end) }
            .toSortedSet()
            .toList()
    }

    /** Where (code points) each element stands in [text], by its index. */
    val elementSpans: Map<Int, Span> by lazy {
        elements.indices.associate { elements[it].index to Span(starts[it], starts[it] + lengths[it]) }
    }

    /** Indices of the non-empty elements that overlap code points [start, end). */
    internal fun indicesBetween(
        start: Int,
        end: Int,
    ): List<Int> =
        elements.indices
            .filter { position ->
                lengths[position] > 0 && starts[position] < end && starts[position] + lengths[position] > start
            }.map { elements[it].index }

    companion object {
        /** The page text of [elements] (in reading order; redacted ones show placeholders). */
        fun of(elements: List<Element>): PageText {
            val text = StringBuilder()
            val starts = IntArray(elements.size)
            val lengths = IntArray(elements.size)
            var offset = 0
            elements.forEachIndexed { position, element ->
                if (position > 0) {
                    text.append(if (startsLine(elements[position - 1], element)) '\n' else ' ')
                    offset += 1
                }
                starts[position] = offset
                lengths[position] = element.text.codePointCount(0, element.text.length)
                text.append(element.text)
                offset += lengths[position]
            }
            return PageText(text.toString(), elements, starts, lengths)
        }
    }
}

/**
 * The page text of [elements] with the [hidden] ones (index → its detection) redacted.
 *
 * Consecutive hidden words of one detected value (same label and value) on one line become
 * one placeholder, numbered by the words it hides (the same words, the same placeholder), so
 * `Name: Jane Smith` reads `Name: [NAME_1]`, as text mode's redaction would show it.
 */
fun redactedLines(
    elements: List<Element>,
    hidden: Map<Int, Detection>,
): String {
    val book = PlaceholderBook()
    val text = StringBuilder()
    val run = mutableListOf<String>()
    var runOf: Pair<String, String>? = null

    fun closeRun() {
        val of = runOf
        if (run.isNotEmpty() && of != null) {
            text.append(book.assign(of.first, run.joinToString(" ")))
            run.clear()
        }
    }

    elements.forEachIndexed { position, element ->
        val newLine = position > 0 && startsLine(elements[position - 1], element)
        val group = hidden[element.index]?.let { it.label to valueKey(it.value ?: "") }
        if (group != null && run.isNotEmpty() && group == runOf && !newLine) {
            run.add(element.text)
            return@forEachIndexed
        }
        closeRun()
        if (position > 0) text.append(if (newLine) '\n' else ' ')
        if (group == null) {
            text.append(element.text)
        } else {
            runOf = group
            run.add(element.text)
        }
    }
    closeRun()
    return text.toString()
}
