package dev.redacto.core.lexicon

import dev.redacto.core.text.PyText
import java.text.Normalizer

/** One word of a text: its characters (NFC, apostrophes as `'`) and where it stands, in code points. */
data class Word(
    val text: String,
    val start: Int,
    val end: Int,
)

/**
 * The words of an output, cut the same way in Kotlin and Python (`redacto.lexicon.words`,
 * docs/lexicon.md). A word is a run of characters between whitespace or `…` (the mask a
 * redacted value reads as), with Unicode punctuation (general category P*) trimmed off both
 * ends except `@` and `%`; a run with no letter or digit left is no word. The dictionary is
 * asked about the whole word first, then about its [pieces]. Offsets count code points, as
 * Python's do.
 */
object LexiconWords {
    /** What a redacted value reads as (the pipeline's second opinion masks with it too); it separates words. */
    const val MASK = "…"
    private val MASK_POINT = MASK.codePointAt(0)

    private val KEPT_EDGES = setOf('@'.code, '%'.code)

    /** Where a word is cut into pieces for the dictionary (after `’` is written `'`). */
    private val PIECE_BREAKS: Set<Int> = "-\u2010\u2011/'.\u00b0".codePoints().toArray().toSet()

    /** Python's `unicodedata.category(c).startswith("P")`. */
    private fun isPunctuation(codePoint: Int): Boolean =
        when (Character.getType(codePoint).toByte()) {
            Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.START_PUNCTUATION,
            Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
            Character.OTHER_PUNCTUATION,
            -> true

            else -> false
        }

    private fun edge(codePoint: Int): Boolean = codePoint !in KEPT_EDGES && (PyText.isSpace(codePoint) || isPunctuation(codePoint))

    private fun bounds(
        points: IntArray,
        start: Int,
        end: Int,
    ): Pair<Int, Int> {
        var lo = start
        var hi = end
        while (lo < hi && edge(points[lo])) lo++
        while (hi > lo && edge(points[hi - 1])) hi--
        return lo to hi
    }

    /** [token] without the punctuation at its ends (`@` and `%` stay). */
    fun trim(token: String): String {
        val points = token.codePoints().toArray()
        val (lo, hi) = bounds(points, 0, points.size)
        return String(points, lo, hi - lo)
    }

    /** A word as it is compared: NFC, `’` written `'`. */
    fun normalised(word: String): String = Normalizer.normalize(word, Normalizer.Form.NFC).replace('\u2019', '\'')

    /** Every word of [text], in order. */
    fun words(text: String): List<Word> {
        val points = text.codePoints().toArray()
        val found = mutableListOf<Word>()
        var start = -1
        for (position in 0..points.size) {
            val breaks = position == points.size || PyText.isSpace(points[position]) || points[position] == MASK_POINT
            if (breaks && start >= 0) {
                val (lo, hi) = bounds(points, start, position)
                if ((lo until hi).any { PyText.isAlnum(points[it]) }) {
                    found.add(Word(normalised(String(points, lo, hi - lo)), lo, hi))
                }
                start = -1
            } else if (!breaks && start < 0) {
                start = position
            }
        }
        return found
    }

    /** The word cut at hyphens, slashes, apostrophes, full stops and `°`, each piece trimmed; empty pieces go. */
    fun pieces(word: String): List<String> {
        val parts = mutableListOf<String>()
        val current = StringBuilder()
        val points = normalised(word).codePoints().toArray() + '-'.code
        for (codePoint in points) {
            if (codePoint in PIECE_BREAKS) {
                val piece = trim(current.toString())
                if (piece.isNotEmpty()) parts.add(piece)
                current.setLength(0)
            } else {
                current.appendCodePoint(codePoint)
            }
        }
        return parts
    }
}
