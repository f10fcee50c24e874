package dev.redacto.core.ner

import dev.redacto.core.text.CodePointText
import dev.redacto.core.text.PyText
import kotlin.math.exp

/*
 * From the classifier's per-token output to labelled words: pure, the same steps as Python's
 * `redacto.ner.decode`, so both languages decide alike (tests/vectors/ner).
 *
 * A text is tokenized once and read in windows of at most `windowTokens` tokens, neighbours
 * sharing about `overlapTokens`, each wrapped as [CLS] … [SEP]; a token seen twice takes the
 * reading of the window where it has more context on its shorter side. A token is a hit when
 * its most probable label is not `O` and that probability reaches the threshold. Decisions are
 * by word: any hit token inside a word puts the whole word under its label. Offsets count
 * code points.
 */

/** The probability a token's best label must reach to count (FINDINGS 5 measured Rampart at 0.5). */
const val NER_THRESHOLD = 0.5

/** Tokens per model call besides [CLS] and [SEP]: the model's 512 positions. */
const val NER_WINDOW_TOKENS = 510

/** Tokens two neighbouring windows share, so a value cut by one edge is whole in the other. */
const val NER_OVERLAP_TOKENS = 64

private const val OUTSIDE = "O"

/** Tokens [start, end) of the text, read in one model call. */
data class NerWindow(
    val start: Int,
    val end: Int,
)

/** What the model said about one token: its best label (`B-GIVEN_NAME`) and that label's probability. */
data class TokenReading(
    val label: String,
    val score: Double,
) {
    /** The entity type (`GIVEN_NAME`) when this is a hit at [threshold], else null. */
    fun entity(threshold: Double = NER_THRESHOLD): String? {
        if (label == OUTSIDE || score < threshold) return null
        return if (label.startsWith("B-") || label.startsWith("I-")) label.substring(2) else label
    }
}

/** A word's core, [start, end) in code points, its leading and trailing punctuation trimmed. */
data class NerWord(
    val start: Int,
    val end: Int,
)

/** A word under a pipeline label, with the entity and score that decided it. */
data class WordHit(
    val start: Int,
    val end: Int,
    val label: String,
    val entity: String,
    val score: Double,
)

/** Neighbouring hit words of one label joined: what becomes a detection. */
data class SpanHit(
    val start: Int,
    val end: Int,
    val label: String,
    /** The entity of each word, in order (a span of cities alone is no address). */
    val entities: List<String>,
)

/**
 * Windows of at most [windowTokens] covering every token, neighbours sharing about
 * [overlapTokens]; a window after the first starts at the beginning of a tokenizer word where it
 * can, so it never opens on a `##` continuation.
 */
fun planWindows(
    wordIds: List<Int>,
    windowTokens: Int,
    overlapTokens: Int,
): List<NerWindow> {
    require(overlapTokens in 0 until windowTokens) { "overlap must be at least 0 and smaller than the window" }
    val count = wordIds.size
    val windows = mutableListOf<NerWindow>()
    var start = 0
    while (start < count) {
        val end = minOf(start + windowTokens, count)
        windows.add(NerWindow(start, end))
        if (end == count) break
        var next = end - overlapTokens
        while (next - 1 > start && wordIds[next] == wordIds[next - 1]) next--
        start = next
    }
    return windows
}

/** The window (its number) that reads token [position] with the most context on its shorter side; the first on a tie. */
fun bestWindow(
    position: Int,
    windows: List<NerWindow>,
): Int {
    var best = -1
    var bestMargin = -1
    windows.forEachIndexed { number, window ->
        if (position < window.start || position >= window.end) return@forEachIndexed
        val margin = minOf(position - window.start, window.end - 1 - position)
        if (margin > bestMargin) {
            best = number
            bestMargin = margin
        }
    }
    require(best >= 0) { "token $position lies in no window" }
    return best
}

/** The best label id and its softmax probability (the first on a tie). */
fun softmaxBest(logits: FloatArray): Pair<Int, Double> {
    var best = 0
    for (i in logits.indices) if (logits[i] > logits[best]) best = i
    val top = logits[best].toDouble()
    val total = logits.sumOf { exp(it.toDouble() - top) }
    return best to 1.0 / total
}

/** Every word core of [text], in order (a run of punctuation alone is no word). */
fun nerWordsOf(text: String): List<NerWord> {
    val points = text.codePoints().toArray()
    val words = mutableListOf<NerWord>()
    var position = 0
    while (position < points.size) {
        if (PyText.isSpace(points[position])) {
            position++
            continue
        }
        val start = position
        while (position < points.size && !PyText.isSpace(points[position])) position++
        var coreStart = start
        var coreEnd = position
        while (coreStart < coreEnd && isPunctuation(points[coreStart])) coreStart++
        while (coreEnd > coreStart && isPunctuation(points[coreEnd - 1])) coreEnd--
        if (coreStart < coreEnd) words.add(NerWord(coreStart, coreEnd))
    }
    return words
}

/** Python's `unicodedata.category(c).startswith("P")`. */
internal fun isPunctuation(codePoint: Int): Boolean =
    when (Character.getType(codePoint).toByte()) {
        Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.START_PUNCTUATION, Character.END_PUNCTUATION,
        Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION, Character.OTHER_PUNCTUATION,
        -> true

        else -> false
    }

/**
 * Each word that a hit token overlaps, under the pipeline label of its most probable hit
 * ([toLabel] maps an entity to the pipeline's label, null to drop it).
 */
fun wordHits(
    text: String,
    tokens: List<NerToken>,
    readings: List<TokenReading>,
    toLabel: (String) -> String?,
    threshold: Double = NER_THRESHOLD,
): List<WordHit> {
    require(tokens.size == readings.size) { "${tokens.size} tokens, ${readings.size} readings" }
    val words = nerWordsOf(text)
    val best = sortedMapOf<Int, WordHit>()
    var wordNumber = 0
    for ((token, reading) in tokens.zip(readings)) {
        val entity = reading.entity(threshold) ?: continue
        if (token.end <= token.start) continue
        val label = toLabel(entity) ?: continue
        while (wordNumber < words.size && words[wordNumber].end <= token.start) wordNumber++
        var number = wordNumber
        while (number < words.size && words[number].start < token.end) {
            val word = words[number]
            val held = best[number]
            if (held == null || reading.score > held.score) best[number] = WordHit(word.start, word.end, label, entity, reading.score)
            number++
        }
    }
    return best.values.toList()
}

/**
 * Neighbouring word hits of one label with only whitespace between them, as spans; for a label
 * in [commaJoins] also across one comma (`12 rue des Lilas, 69003 Lyon`).
 */
fun joinHits(
    text: String,
    hits: List<WordHit>,
    commaJoins: Set<String> = emptySet(),
): List<SpanHit> {
    val points = CodePointText(text)
    val spans = mutableListOf<SpanHit>()
    for (hit in hits) {
        val last = spans.lastOrNull()
        if (last != null && last.label == hit.label) {
            val between = points.slice(last.end, hit.start)
            val spaces = between.isNotEmpty() && between.codePoints().allMatch { PyText.isSpace(it) }
            val comma = last.label in commaJoins && PyText.strip(between) == "," && between.startsWith(",")
            if (spaces || comma) {
                spans[spans.size - 1] = SpanHit(last.start, hit.end, last.label, last.entities + hit.entity)
                continue
            }
        }
        spans.add(SpanHit(hit.start, hit.end, hit.label, listOf(hit.entity)))
    }
    return spans
}
