package dev.redacto.core.pipeline

import dev.redacto.core.Span
import dev.redacto.core.text.CodePointText
import dev.redacto.core.text.PyText

/**
 * Finds where a detected value sits in the original text, despite OCR noise.
 *
 * The model reports values as it read them ("inquire@blucurrent.mail"); the text holds what
 * OCR read ("inquire@blucurrent. mail"). [Locator.locate] tries its levels strictest first,
 * stopping at the first that finds something:
 *
 * 1. exact — the value verbatim, on word boundaries (every normalized occurrence is then
 *    added as well, so "JANE SMITH" goes with "Jane Smith");
 * 2. normalized — the same letters and digits ignoring case, quotes, punctuation and
 *    whitespace, on word boundaries, every occurrence; then, for a value with a digit, the
 *    same with the letter O read as the digit 0 on both sides;
 * 3. unique occurrence — one approximate occurrence (edit distance up to a third of the
 *    length, one for mostly-digit values; values of 4+ letters/digits); two or more
 *    candidates are ambiguous and rejected;
 * 4. substring — the longest common run of at least 5 letters/digits (and at least half the
 *    value; all of it for mostly-digit values), widened to its whole whitespace-delimited
 *    token ("MRN4471829", "inquire@blucurrent."), every occurrence;
 * 5. words — each word of the value of [MIN_WORD_LENGTH] or more letters, every occurrence.
 *
 * Anything else is "not located" (null): the caller reports it and fails closed. A
 * proofreading mistake is placed by [locateMistake]'s own strategies ([MISTAKE_METHODS]).
 * Spans count code points, as in Python. Mirrors `tools/redacto/pipeline/locator.py`;
 * tests/vectors/locator holds Python's answers, which both languages must give.
 */
const val MIN_FUZZY_LENGTH = 4
const val MIN_SUBSTRING_LENGTH = 5
const val MAX_FUZZY_LENGTH = 64

/**
 * The words level places a value's words of this many letters or more (shorter ones are
 * titles and particles: "Dr", "Mrs", "van").
 */
const val MIN_WORD_LENGTH = 4

/** A word of a value this long (letters and digits) found in the text makes it a near miss. */
const val MIN_TRACE_LENGTH = 3

/** The runs of letters and digits in [value], as written. */
private fun wordsOf(value: String): List<String> {
    val words = mutableListOf<String>()
    val word = StringBuilder()
    (value.codePoints().toArray() + ' '.code).forEach { codePoint ->
        if (PyText.isAlnum(codePoint)) {
            word.appendCodePoint(codePoint)
        } else if (word.isNotEmpty()) {
            words.add(word.toString())
            word.clear()
        }
    }
    return words
}

enum class LocateMethod(
    val wire: String,
) {
    EXACT("exact"),
    NORMALIZED("normalized"),
    O_AS_ZERO("o_as_zero"),
    UNIQUE("unique"),
    SUBSTRING("substring"),
    WORDS("words"),
    CONTEXT("context"),
    CONTEXT_NORMALIZED("context_normalized"),
    ERROR_ONCE("error_once"),
    JOINED_SUBSTRING("joined_substring"),
    ;

    companion object {
        fun fromWire(wire: String): LocateMethod =
            entries.firstOrNull { it.wire == wire } ?: throw IllegalArgumentException("unknown locate method '$wire'")
    }
}

/** The strategies [locateMistake] tries, in order. */
val MISTAKE_METHODS = listOf(LocateMethod.CONTEXT, LocateMethod.CONTEXT_NORMALIZED, LocateMethod.ERROR_ONCE, LocateMethod.JOINED_SUBSTRING)

/** Where a value was found (spans sorted, non-overlapping) and by which level. */
data class Located(
    val method: LocateMethod,
    val spans: List<Span>,
)

/** Letters and digits only, case-folded: the form values are compared in. */
fun skeleton(text: String): String {
    val kept = StringBuilder()
    text.codePoints().forEach { if (PyText.isAlnum(it)) kept.append(PyText.casefold(it)) }
    return kept.toString()
}

/**
 * Mostly digits: such values only tolerate one OCR slip and no partial overlap, since two
 * different phone or account numbers often share long runs of digits.
 */
fun isNumeric(target: String): Boolean {
    val points = codePointsOf(target)
    return points.count { PyText.isDigit(it) } * 2 >= points.size
}

/** Edits tolerated between a skeleton and its OCR'd occurrence. */
fun fuzzyBudget(target: String): Int = if (isNumeric(target)) 1 else maxOf(1, (codePointsOf(target).size + 1) / 3)

/** Levenshtein distance (insertions, deletions, substitutions all cost 1). */
internal fun editDistance(
    a: IntArray,
    b: IntArray,
): Int {
    var previous = IntArray(b.size + 1) { it }
    for (i in 1..a.size) {
        val current = IntArray(b.size + 1)
        current[0] = i
        for (j in 1..b.size) {
            val substitution = previous[j - 1] + if (a[i - 1] != b[j - 1]) 1 else 0
            current[j] = minOf(previous[j] + 1, current[j - 1] + 1, substitution)
        }
        previous = current
    }
    return previous[b.size]
}

internal fun codePointsOf(text: String): IntArray = text.codePoints().toArray()

/** A skeleton with every letter o read as the digit 0: OCR's commonest slip in numbers. */
private fun oAsZero(skeleton: String): String = skeleton.replace('o', '0')

/** Locates values in one text; build once per document, call [locate] per value. */
class Locator(
    val text: String,
) {
    private val source = CodePointText(text)
    private val skeletonText: CodePointText

    /** The skeleton with every letter o read as the digit 0 (same length, same positions). */
    private val zeroedText: CodePointText
    private val origin: IntArray

    init {
        val chars = StringBuilder()
        val origins = mutableListOf<Int>()
        for (position in 0 until source.length) {
            val codePoint = source[position]
            if (PyText.isAlnum(codePoint)) {
                PyText.casefold(codePoint).codePoints().forEach { folded ->
                    chars.appendCodePoint(folded)
                    origins.add(position)
                }
            }
        }
        skeletonText = CodePointText(chars.toString())
        zeroedText = CodePointText(oAsZero(chars.toString()))
        origin = origins.toIntArray()
    }

    // Detect asks whether a value is in the text before placing it; a value found nowhere
    // runs every level, the fuzzy ones included, so each answer is kept for the text.
    private val located = HashMap<String, Located?>()

    /** Finds [value]'s spans, or null when it is not located. */
    fun locate(value: String): Located? {
        val stripped = PyText.strip(value)
        if (stripped !in located) located[stripped] = locateStripped(stripped)
        return located[stripped]
    }

    private fun locateStripped(stripped: String): Located? {
        if (stripped.isEmpty()) return null
        val exact = exact(codePointsOf(stripped))
        val target = codePointsOf(skeleton(stripped))
        // Every normalized occurrence is redacted too: "JANE SMITH" is the same value.
        val normalized = if (target.isNotEmpty()) normalized(target) else emptyList()
        if (exact.isNotEmpty()) return Located(LocateMethod.EXACT, union(exact, normalized))
        if (normalized.isNotEmpty()) return Located(LocateMethod.NORMALIZED, normalized)
        if (target.isEmpty()) return null
        if (target.any { PyText.isDigit(it) }) {
            val zeroed = normalized(codePointsOf(oAsZero(String(target, 0, target.size))), zeroedText)
            if (zeroed.isNotEmpty()) return Located(LocateMethod.O_AS_ZERO, zeroed)
        }
        unique(target).let { if (it.isNotEmpty()) return Located(LocateMethod.UNIQUE, it) }
        substring(target).let { if (it.isNotEmpty()) return Located(LocateMethod.SUBSTRING, it) }
        words(stripped).let { if (it.isNotEmpty()) return Located(LocateMethod.WORDS, it) }
        return null
    }

    /**
     * Is there a trace of [value] in the text, though [locate] placed it nowhere? A trace is one
     * of its words (a run of letters and digits, [MIN_TRACE_LENGTH] or longer, case-folded)
     * anywhere in the text's letters and digits, or an approximate occurrence of the whole
     * value within the unique level's budget.
     */
    fun near(value: String): Boolean {
        val words = wordsOf(value).map { codePointsOf(skeleton(it)) }
        if (words.any { it.size >= MIN_TRACE_LENGTH && skeletonHits(it).isNotEmpty() }) return true
        val target = codePointsOf(skeleton(value))
        if (target.size < MIN_FUZZY_LENGTH || target.size > MAX_FUZZY_LENGTH) return false
        return fuzzyMatches(target, fuzzyBudget(String(target, 0, target.size))).isNotEmpty()
    }

    /**
     * Every place [method] (one of [MISTAKE_METHODS]) finds [error] in this text; the caller
     * accepts a strategy only when all texts together give exactly one.
     */
    fun mistakeCandidates(
        method: LocateMethod,
        error: String,
        contextBefore: String = "",
    ): List<Span> {
        val target = codePointsOf(skeleton(error))
        return when (method) {
            LocateMethod.CONTEXT -> {
                afterContext(exact(codePointsOf(error)), contextBefore)
            }

            LocateMethod.CONTEXT_NORMALIZED -> {
                if (target.isEmpty()) return emptyList()
                val context = codePointsOf(skeleton(contextBefore))
                skeletonHits(context + target).mapNotNull { hit ->
                    val first = hit + context.size
                    val (start, end) = spanOf(first, first + target.size - 1)
                    if (onBoundaries(start, end)) Span(start, end) else null
                }
            }

            LocateMethod.ERROR_ONCE -> {
                exact(codePointsOf(error)).ifEmpty { if (target.isEmpty()) emptyList() else normalized(target) }
            }

            LocateMethod.JOINED_SUBSTRING -> {
                if (target.size < MIN_SUBSTRING_LENGTH) return emptyList()
                skeletonHits(target).map { hit -> spanOf(hit, hit + target.size - 1).let { (start, end) -> Span(start, end) } }
            }

            else -> {
                throw IllegalArgumentException("$method is not a mistake-placing strategy")
            }
        }
    }

    /** The spans that follow [contextBefore] verbatim (whitespace between them free). */
    private fun afterContext(
        spans: List<Span>,
        contextBefore: String,
    ): List<Span> {
        val context = PyText.rstrip(contextBefore)
        if (PyText.strip(context).isEmpty()) return spans
        return spans.filter { PyText.rstrip(source.slice(0, it.start)).endsWith(context) }
    }

    // -- helpers ----------------------------------------------------------------------------

    private fun alnumAt(position: Int): Boolean = position in 0 until source.length && PyText.isAlnum(source[position])

    /** No letter or digit glued to either side of an alphanumeric edge of the match. */
    private fun onBoundaries(
        start: Int,
        end: Int,
    ): Boolean {
        val leftOk = !(PyText.isAlnum(source[start]) && alnumAt(start - 1))
        val rightOk = !(PyText.isAlnum(source[end - 1]) && alnumAt(end))
        return leftOk && rightOk
    }

    /** Original [start, end) of skeleton positions first..last inclusive. */
    private fun spanOf(
        first: Int,
        last: Int,
    ): Pair<Int, Int> = origin[first] to origin[last] + 1

    private fun widen(span: Pair<Int, Int>): Pair<Int, Int> {
        var (start, end) = span
        while (alnumAt(start - 1)) start--
        while (alnumAt(end)) end++
        return start to end
    }

    /** Widens to the whitespace-delimited token, minus its outer punctuation. */
    private fun widenToToken(span: Pair<Int, Int>): Pair<Int, Int> {
        var (start, end) = span
        while (start > 0 && !PyText.isSpace(source[start - 1])) start--
        while (end < source.length && !PyText.isSpace(source[end])) end++
        while (start < end && !PyText.isAlnum(source[start])) start++
        while (end > start && !PyText.isAlnum(source[end - 1])) end--
        return start to end
    }

    private fun skeletonHits(
        target: IntArray,
        text: CodePointText = skeletonText,
    ): List<Int> {
        val hits = mutableListOf<Int>()
        var at = text.find(target, 0)
        while (at != -1) {
            hits.add(at)
            at = text.find(target, at + 1)
        }
        return hits
    }

    // -- the four levels -------------------------------------------------------------------

    private fun exact(value: IntArray): List<Span> {
        val spans = mutableListOf<Span>()
        var at = source.find(value, 0)
        while (at != -1) {
            val end = at + value.size
            if (onBoundaries(at, end) && (spans.isEmpty() || at >= spans.last().end)) spans.add(Span(at, end))
            at = source.find(value, at + 1)
        }
        return spans
    }

    private fun normalized(
        target: IntArray,
        text: CodePointText = skeletonText,
    ): List<Span> {
        val spans = mutableListOf<Span>()
        for (hit in skeletonHits(target, text)) {
            val (start, end) = spanOf(hit, hit + target.size - 1)
            if (onBoundaries(start, end) && (spans.isEmpty() || start >= spans.last().end)) spans.add(Span(start, end))
        }
        return spans
    }

    private fun unique(target: IntArray): List<Span> {
        val length = target.size
        if (length < MIN_FUZZY_LENGTH || length > MAX_FUZZY_LENGTH) return emptyList()
        val budget = fuzzyBudget(String(target, 0, target.size))
        val candidates = mutableSetOf<Pair<Int, Int>>()
        for ((first, last) in fuzzyMatches(target, budget)) {
            val (start, end) = widen(spanOf(first, last))
            if (codePointsOf(skeleton(source.slice(start, end))).size > length + budget) continue
            candidates.add(start to end)
        }
        val occurrences = dropOverlaps(candidates)
        if (occurrences.size != 1) return emptyList()
        val (start, end) = occurrences.single()
        return listOf(Span(start, end))
    }

    /** (first, last) skeleton windows within [budget] edits of [target]. */
    private fun fuzzyMatches(
        target: IntArray,
        budget: Int,
    ): List<Pair<Int, Int>> {
        val text = skeletonText.points
        val length = target.size
        // Sellers: column[length] = fewest edits turning target into a text substring ending at j.
        val costs = IntArray(text.size + 1)
        var previousColumn = IntArray(length + 1) { it }
        for (j in 1..text.size) {
            val column = IntArray(length + 1)
            for (i in 1..length) {
                val substitution = previousColumn[i - 1] + if (target[i - 1] != text[j - 1]) 1 else 0
                column[i] = minOf(previousColumn[i] + 1, column[i - 1] + 1, substitution)
            }
            costs[j] = column[length]
            previousColumn = column
        }
        val matches = mutableListOf<Pair<Int, Int>>()
        for (j in 1..text.size) {
            val cost = costs[j]
            if (cost > budget) continue
            val left = if (j > 1) costs[j - 1] else budget + 1
            val right = if (j < text.size) costs[j + 1] else budget + 1
            if (cost > left || cost > right) continue
            var bestStart = -1
            var bestDistance = Int.MAX_VALUE
            for (start in maxOf(0, j - length - budget)..maxOf(0, j - length + budget)) {
                if (start >= j) break
                val distance = editDistance(target, text.copyOfRange(start, j))
                if (distance < bestDistance) {
                    bestStart = start
                    bestDistance = distance
                }
            }
            if (bestStart >= 0 && bestDistance <= budget) matches.add(bestStart to j - 1)
        }
        return matches
    }

    private fun words(value: String): List<Span> {
        val pairs =
            wordsOf(value)
                .filter { word -> word.codePoints().allMatch(PyText::isAlpha) }
                .map { codePointsOf(skeleton(it)) }
                .filter { it.size >= MIN_WORD_LENGTH }
                .flatMap { normalized(it) }
                .map { it.start to it.end }
                .toSet()
        return dropOverlaps(pairs).map { (start, end) -> Span(start, end) }
    }

    private fun substring(target: IntArray): List<Span> {
        val wholeIfNumeric = if (isNumeric(String(target, 0, target.size))) target.size else (target.size + 1) / 2
        val shortest = maxOf(MIN_SUBSTRING_LENGTH, wholeIfNumeric)
        for (size in target.size downTo shortest) {
            for (offset in 0..target.size - size) {
                val hits = skeletonHits(target.copyOfRange(offset, offset + size))
                if (hits.isNotEmpty()) {
                    val widened = hits.map { widenToToken(spanOf(it, it + size - 1)) }.toSet()
                    return dropOverlaps(widened).map { (start, end) -> Span(start, end) }
                }
            }
        }
        return emptyList()
    }
}

/**
 * Places one proofreading mistake in a document of several texts (one per page): the position
 * of the text it is on and where, by the first of [MISTAKE_METHODS] that finds exactly one
 * place in all of them together; null when none does (the caller lists it as not located
 * rather than draw it somewhere wrong). Mirrors Python's `locate_mistake`.
 */
fun locateMistake(
    locators: List<Locator>,
    error: String,
    contextBefore: String = "",
): Pair<Int, Located>? {
    val stripped = PyText.strip(error)
    if (stripped.isEmpty()) return null
    for (method in MISTAKE_METHODS) {
        val found =
            locators.flatMapIndexed { position, locator ->
                locator.mistakeCandidates(method, stripped, contextBefore).map {
                    position to
                        it
                }
            }
        if (found.size == 1) return found.single().let { (position, span) -> position to Located(method, listOf(span)) }
        // The stricter strategies were ambiguous: looser ones would be too.
        if (found.size > 1) return null
    }
    return null
}

/** Merges overlapping (start, end) pairs into disjoint ranges, sorted by start. */
private fun dropOverlaps(spans: Set<Pair<Int, Int>>): List<Pair<Int, Int>> {
    val merged = mutableListOf<Pair<Int, Int>>()
    for ((start, end) in spans.sortedWith(compareBy({ it.first }, { it.second }))) {
        if (merged.isNotEmpty() && start < merged.last().second) {
            merged[merged.lastIndex] = merged.last().first to maxOf(merged.last().second, end)
        } else {
            merged.add(start to end)
        }
    }
    return merged
}

private fun union(
    first: List<Span>,
    second: List<Span>,
): List<Span> = dropOverlaps((first + second).map { it.start to it.end }.toSet()).map { (start, end) -> Span(start, end) }
