package dev.redacto.core.pipeline

import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.Mode
import dev.redacto.core.text.PyText

/**
 * 150-element chunks with global indices, 150-word text chunks, and the list format.
 *
 * One call must fit the model's KV cache with its prompt and answer (docs/models.md); 150
 * OCR words per call is the budget. Indices stay global across chunks, so a model's
 * `151:NAME` in the second chunk means element 151 of the page. Text mode spends the same
 * budget: at most 150 words per call, cut at line breaks where it can be.
 */
const val CHUNK_SIZE = 150

/** A run of consecutive elements; [number] counts from 0. */
data class Chunk(
    val number: Int,
    val elements: List<Element>,
) {
    /** The global indices this chunk may name; anything else is out of chunk. */
    val indexRange: IntRange
        get() = if (elements.isEmpty()) IntRange.EMPTY else elements.first().index..elements.last().index
}

/** Splits [elements] into chunks of at most [size], keeping their global indices. */
fun chunkElements(
    elements: List<Element>,
    size: Int = CHUNK_SIZE,
): List<Chunk> {
    require(size >= 1) { "chunk size must be at least 1" }
    return elements.chunked(size).mapIndexed { number, part -> Chunk(number, part) }
}

/** Code points `[start, end)` of a text, as Python counts them; [number] counts from 0. */
data class TextChunk(
    val number: Int,
    val start: Int,
    val end: Int,
) {
    /** This chunk's part of [text] (the text it was cut from). */
    fun of(text: String): String = text.substring(text.offsetByCodePoints(0, start), text.offsetByCodePoints(0, end))

    /** Do code points `[start, end)` of the text share at least one with this chunk? */
    fun overlaps(
        start: Int,
        end: Int,
    ): Boolean = start < this.end && this.start < end
}

private val WORD = PyText.regex("""\S+""")

/**
 * Cuts [text] into consecutive chunks of at most [size] whitespace-separated words.
 *
 * The chunks cover the text exactly (joined, they are the text). A chunk ends after the last
 * line break that keeps it within [size] words, so lines stay whole; a line longer than [size]
 * words is cut after its [size]-th word, and the whitespace after that word starts the next
 * chunk. A text of at most [size] words (an empty one too) is one chunk. Mirrors
 * `chunking.chunk_text`; worked in UTF-16 units, offsets converted to code points.
 */
fun chunkText(
    text: String,
    size: Int = CHUNK_SIZE,
): List<TextChunk> {
    require(size >= 1) { "chunk size must be at least 1" }
    val starts = mutableListOf<Int>()
    val ends = mutableListOf<Int>()
    val words = WORD.matcher(text)
    while (words.find()) {
        starts.add(words.start())
        ends.add(words.end())
    }
    val cuts = mutableListOf(0)
    var firstWord = 0
    while (starts.size - firstWord > size) {
        val lineBreak = text.lastIndexOf('\n', starts[firstWord + size] - 1)
        val end = if (lineBreak >= ends[firstWord]) lineBreak + 1 else ends[firstWord + size - 1]
        cuts.add(end)
        while (firstWord < starts.size && starts[firstWord] < end) firstWord++
    }
    cuts.add(text.length)
    return cuts.zipWithNext().mapIndexed { number, (start, end) ->
        TextChunk(number, text.codePointCount(0, start), text.codePointCount(0, end))
    }
}

/**
 * The indexed list the prompts show: `[0] Patient`, one per line. [shown] replaces an
 * element's text (the redacted list shows `[1] [NAME_1]`).
 */
fun formatElements(
    elements: List<Element>,
    shown: Map<Int, String> = emptyMap(),
): String = elements.joinToString("\n") { "[${it.index}] ${shown[it.index] ?: it.text}" }

/**
 * The classifier's input: at most the first chunk's worth of the document. Image mode: the
 * first [size] elements joined by spaces. Text mode: the text up to the end of its
 * [size]-th whitespace-separated word, so both modes send a similar amount.
 */
fun classifyText(
    document: Document,
    size: Int = CHUNK_SIZE,
): String {
    if (document.mode == Mode.IMAGE) return document.elements.take(size).joinToString(" ") { it.text }
    val words = WORD.matcher(document.text)
    var count = 0
    var endOfLastKept = 0
    while (words.find()) {
        count++
        if (count > size) return document.text.substring(0, endOfLastKept)
        endOfLastKept = words.end()
    }
    return document.text
}
