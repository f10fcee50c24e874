package dev.redacto.core

/**
 * 150-element chunks with global indices, and the element-list format the prompts show.
 *
 * The phone's model is compiled with a 1,024-token KV cache; 150 OCR words plus a detect
 * prompt fit in it with room for the answer. Indices stay global across chunks, so a
 * model's `151:NAME` in the second chunk means element 151 of the page.
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

/**
 * The indexed list the prompts show: `[0] Patient`, one per line. [shown] replaces an
 * element's text (the redacted list shows `[1] [NAME_1]`).
 */
fun formatElements(
    elements: List<Element>,
    shown: Map<Int, String> = emptyMap(),
): String = elements.joinToString("\n") { "[${it.index}] ${shown[it.index] ?: it.text}" }

private val WORD = PyText.regex("""\S+""")

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
