package dev.redacto.core.rules

import dev.redacto.core.Element
import dev.redacto.core.text.startsLine
import java.util.regex.Pattern

/**
 * Runs recognizers over a text, or over OCR elements joined into one text per page.
 *
 * An identifier OCR split over several words ("(555)", "123-4567") is matched on the words
 * joined with single spaces; a character→element map then names every element the match
 * touches. Overlapping matches are resolved longest first, then by recognizer priority, so
 * each character — and in image mode each element — carries one label. Patterns and
 * validators search the text with OCR's letter O read as zero inside numbers ([readOcrZeros]);
 * offsets are unchanged by that reading, so the reported value is the original text of the
 * span. The rules read the text normalised ([RuleNormalise]: full-width digits, Unicode spaces
 * and dashes, invisible characters, tabs inside numbers) and each match is mapped back onto the
 * characters as written. Mirrors `redacto/rules/matching.py`. Offsets here are UTF-16 units;
 * callers convert spans.
 */
internal object RuleMatching {
    private val WORD: Pattern = Pattern.compile("[A-Za-z0-9]+")

    // java.util.regex's \s is [ \t\n\x0B\f\r], as Python's under re.ASCII.
    private val TOKEN: Pattern = Pattern.compile("\\S+")

    /** How many ASCII digits a token needs before its letter O's are read as zeros. */
    const val OCR_ZERO_MIN_DIGITS = 1

    /** What may separate the items of a list of values: "555-1234, 555-5678 or 555-9012". */
    private val LIST_GLUE: Pattern = Pattern.compile("(?:[ \\t\\n\\r,;/&]|(?i:and|or)(?=[ \\t\\n\\r]))*")

    /**
     * [text] with OCR's letter O read as zero inside numbers, one character for one.
     *
     * Tesseract and phone photos print `O` or `o` for a 0: "(5O3) 555-O199", "88-2O31". Inside a
     * token (a run of non-whitespace characters), every `O`/`o` becomes `0` when the token's only
     * letters are O/o and it holds at least [OCR_ZERO_MIN_DIGITS] ASCII digit: "(8OO)" and
     * "Nov O5," read as numbers; "Ohio", "O'Brien", "OO", "FOO123" and "MO-4471" stay as they are.
     * The result has the length of [text], so its offsets are offsets into [text]. Mirrors
     * Python's `read_ocr_zeros`.
     */
    fun readOcrZeros(text: String): String {
        if ('O' !in text && 'o' !in text) return text
        val chars = text.toCharArray()
        val matcher = TOKEN.matcher(text)
        while (matcher.find()) {
            if (!readsAsNumber(matcher.group())) continue
            for (i in matcher.start() until matcher.end()) {
                if (chars[i] == 'O' || chars[i] == 'o') chars[i] = '0'
            }
        }
        return String(chars)
    }

    /** A token whose only letters are O/o, with enough ASCII digits (letters as Python's isalpha). */
    private fun readsAsNumber(token: String): Boolean =
        ('O' in token || 'o' in token) &&
            token.count { it in '0'..'9' } >= OCR_ZERO_MIN_DIGITS &&
            token.codePoints().noneMatch { Character.isLetter(it) && it != 'O'.code && it != 'o'.code }

    /** A verified identifier at [start, end) of the text that was searched. */
    data class TextMatch(
        val recognizer: String,
        val label: String,
        val pattern: String,
        val start: Int,
        val end: Int,
        val priority: Int,
    )

    /**
     * The words of a text (runs of [A-Za-z0-9], lower-cased), indexed once per scan. A word with
     * three or more digits is a value: the context of a match never reaches back past one, so
     * in "MRN: 4471829. Order 4471830" the context belongs to the first number.
     */
    class Words(
        text: String,
    ) {
        private val words = mutableListOf<String>()
        private val ends = mutableListOf<Int>()
        private val positions = mutableMapOf<String, MutableList<Int>>()

        // afterValue[n]: where the context of a match preceded by words[:n] may begin.
        private val afterValue = mutableListOf(0)
        private val phrases = mutableMapOf<String, Pair<List<Int>, List<Int>>>()

        init {
            val matcher = WORD.matcher(text)
            while (matcher.find()) {
                words.add(matcher.group().lowercase())
                ends.add(matcher.end())
            }
            words.forEachIndexed { position, word ->
                positions.getOrPut(word) { mutableListOf() }.add(position)
                val isValue = word.count { it in '0'..'9' } >= 3
                afterValue.add(if (isValue) position + 1 else afterValue.last())
            }
        }

        /** Whether any context phrase occurs in the text at all. */
        fun mentions(recognizer: Recognizer): Boolean = occurrences(recognizer.name, recognizer.contextPhrases).first.isNotEmpty()

        /** Whether a context phrase lies within the `window` words that end by [start]. */
        fun contextBefore(
            start: Int,
            recognizer: Recognizer,
        ): Boolean {
            val window = checkNotNull(recognizer.context) { "${recognizer.name} has no context words" }.window
            return phraseBefore(start, recognizer.name, recognizer.contextPhrases, window)
        }

        /** Whether a context rule's phrase lies within its `window` words that end by [start], read as [contextBefore] reads a recognizer's. */
        fun preservedBefore(
            start: Int,
            rule: PreserveRule,
        ): Boolean {
            val context = checkNotNull(rule.context) { "a digits rule has no context words" }
            return phraseBefore(start, "preserve:${rule.recognizer}:${context.words}", rule.contextPhrases, context.window)
        }

        private fun phraseBefore(
            start: Int,
            key: String,
            phrases: List<List<String>>,
            window: Int,
        ): Boolean {
            val count = bisectRight(ends, start)
            val first = maxOf(afterValue[count], count - window)
            val (phraseEnds, phraseStarts) = occurrences(key, phrases)
            var position = bisectRight(phraseEnds, count) - 1
            while (position >= 0 && phraseEnds[position] > first) {
                if (phraseStarts[position] >= first) return true
                position--
            }
            return false
        }

        /** Word ranges [start, end) where [wanted] occur, sorted by end (then start), cached by [key]. */
        private fun occurrences(
            key: String,
            wanted: List<List<String>>,
        ): Pair<List<Int>, List<Int>> =
            phrases.getOrPut(key) {
                val found =
                    wanted
                        .flatMap { phrase ->
                            positions[phrase[0]]
                                .orEmpty()
                                .filter { position ->
                                    position + phrase.size <= words.size &&
                                        words.subList(position, position + phrase.size) == phrase
                                }.map { position -> (position + phrase.size) to position }
                        }.sortedWith(compareBy({ it.first }, { it.second }))
                found.map { it.first } to found.map { it.second }
            }
    }

    /** Python's `bisect.bisect_right` on an ascending list. */
    private fun bisectRight(
        values: List<Int>,
        target: Int,
    ): Int {
        var low = 0
        var high = values.size
        while (low < high) {
            val middle = (low + high) / 2
            if (target < values[middle]) high = middle else low = middle + 1
        }
        return low
    }

    /**
     * Where the list that a candidate at [start] continues begins, or null when it continues
     * none: walk back over earlier matches (sorted spans) joined to it by [LIST_GLUE] only.
     */
    private fun listHead(
        text: String,
        start: Int,
        earlier: List<IntArray>,
    ): Int? {
        var head: Int? = null
        var at = start
        while (true) {
            val before = earlier.lastOrNull { it[1] <= at } ?: return head
            if (!LIST_GLUE.matcher(text).region(before[1], at).matches()) return head
            at = before[0]
            head = at
        }
    }

    /**
     * The context words hold for a candidate at [start], or (given [earlier], the second pass)
     * for the first item of a list it continues: "Phones: 052 5552606 074-7111234" gives the
     * second number the word too.
     */
    private fun inContext(
        text: String,
        start: Int,
        words: Words,
        recognizer: Recognizer,
        earlier: List<IntArray>?,
    ): Boolean {
        if (words.contextBefore(start, recognizer)) return true
        val head = earlier?.let { listHead(text, start, it) } ?: return false
        return words.contextBefore(head, recognizer)
    }

    /**
     * Every verified match of one pattern. After a rejected candidate the search resumes one
     * character later, so a valid identifier inside a rejected candidate is still found.
     * [earlier] (the second pass only) holds the sorted spans of the recognizer's matches that a
     * list may continue; each match accepted here joins it.
     */
    private fun patternMatches(
        text: String,
        words: Words,
        recognizer: Recognizer,
        pattern: RecognizerPattern,
        priority: Int,
        earlier: MutableList<IntArray>? = null,
    ): List<TextMatch> {
        if (pattern.needsContext && !words.mentions(recognizer)) return emptyList()
        val matches = mutableListOf<TextMatch>()
        val matcher = pattern.regex.matcher(text)
        var position = 0
        while (position <= text.length) {
            if (!matcher.find(position)) break
            val start = matcher.start()
            val accepted: String? =
                when {
                    pattern.needsContext && !inContext(text, start, words, recognizer, earlier) -> null
                    pattern.validator != null -> pattern.validator.invoke(matcher.group())
                    else -> matcher.group()
                }
            if (!accepted.isNullOrEmpty()) {
                val end = start + accepted.length
                matches.add(TextMatch(recognizer.name, recognizer.label, pattern.name, start, end, priority))
                earlier?.let { spans -> insertSorted(spans, intArrayOf(start, end)) }
                position = end
            } else {
                // One character on: a code point, as Python's str indices are.
                position = start + if (start < text.length) Character.charCount(text.codePointAt(start)) else 1
            }
        }
        return matches
    }

    /** Python's `bisect.insort` on spans ordered by (start, end). */
    private fun insertSorted(
        spans: MutableList<IntArray>,
        span: IntArray,
    ) {
        var at = spans.size
        while (at > 0 && (spans[at - 1][0] > span[0] || (spans[at - 1][0] == span[0] && spans[at - 1][1] > span[1]))) at--
        spans.add(at, span)
    }

    /**
     * The second pass: matches of context patterns whose context is that of a list they
     * continue. Only kept matches (overlaps resolved) start a list, so a phone number that also
     * reads as a record number does not lend "patient" to the code after it.
     */
    private fun listContinuations(
        text: String,
        words: Words,
        recognizers: List<Recognizer>,
        kept: List<TextMatch>,
    ): List<TextMatch> {
        val found = mutableListOf<TextMatch>()
        recognizers.forEachIndexed { priority, recognizer ->
            val earlier =
                kept
                    .filter { it.recognizer == recognizer.name }
                    .map { intArrayOf(it.start, it.end) }
                    .sortedWith(compareBy({ it[0] }, { it[1] }))
                    .toMutableList()
            if (earlier.isEmpty()) return@forEachIndexed
            for (pattern in recognizer.patterns) {
                if (pattern.needsContext) found.addAll(patternMatches(text, words, recognizer, pattern, priority, earlier))
            }
        }
        return found
    }

    /** Keeps the longest of overlapping matches (ties: recognizer priority, then position). */
    private fun resolveOverlaps(matches: List<TextMatch>): List<TextMatch> {
        val kept = mutableListOf<TextMatch>()
        val ranked = matches.sortedWith(compareBy({ -(it.end - it.start) }, { it.priority }, { it.start }))
        for (match in ranked) {
            if (kept.all { match.end <= it.start || match.start >= it.end }) kept.add(match)
        }
        return kept.sortedWith(compareBy({ it.start }, { it.end }))
    }

    /**
     * All non-overlapping verified matches in [text], in order, minus the preserved ones; with
     * [preserved], only the preserved ones (what the category keeps readable).
     * [recognizers] are in priority order; their position breaks ties between equal lengths.
     * Patterns, validators and preserve rules read [text] through [readOcrZeros]; context words
     * are read from [text] itself. Offsets are into [text].
     */
    fun scanText(
        text: String,
        recognizers: List<Recognizer>,
        preserve: List<PreserveRule>,
        preserved: Boolean = false,
    ): List<TextMatch> {
        val normalised = RuleNormalise.normalise(text)
        val found = scanNormalised(normalised.text, recognizers, preserve, preserved)
        if (normalised.unchanged) return found
        return found.map { match ->
            val (start, end) = normalised.sourceSpan(match.start, match.end)
            match.copy(start = start, end = end)
        }
    }

    /** [scanText] on a text that is already normalised ([RuleNormalise]). */
    private fun scanNormalised(
        text: String,
        recognizers: List<Recognizer>,
        preserve: List<PreserveRule>,
        preserved: Boolean,
    ): List<TextMatch> {
        val words = Words(text)
        val searched = readOcrZeros(text)
        val found =
            recognizers.withIndex().flatMap { (priority, recognizer) ->
                recognizer.patterns.flatMap { pattern -> patternMatches(searched, words, recognizer, pattern, priority) }
            }
        var kept = resolveOverlaps(found)
        val firstPass = found.toSet()
        val continued = listContinuations(searched, words, recognizers, kept).filter { it !in firstPass }
        if (continued.isNotEmpty()) kept = resolveOverlaps(found + continued)
        // Preserved matches are dropped only after overlaps are resolved, so a kept toll-free
        // number still shadows a weaker reading of the same digits (an account number, say).
        return kept.filter { match -> preserve.any { keeps(it, match, searched, words) } == preserved }
    }

    /** Whether [rule] keeps [match] readable: its digits, or its context words before it. */
    private fun keeps(
        rule: PreserveRule,
        match: TextMatch,
        searched: String,
        words: Words,
    ): Boolean =
        when {
            rule.recognizer != match.recognizer -> false
            rule.context != null -> words.preservedBefore(match.start, rule)
            else -> rule.keepsDigits(match.recognizer, searched.substring(match.start, match.end))
        }

    /** Elements of one page joined into one text (by spaces, or by spaces and line breaks), with where each element starts. */
    class JoinedElements(
        val text: String,
        val elements: List<Element>,
        val starts: List<Int>,
    ) {
        /** Indices of the non-empty elements that overlap the character range [start, end). */
        fun indicesBetween(
            start: Int,
            end: Int,
        ): List<Int> {
            var position = maxOf(0, bisectRight(starts, start) - 1)
            val indices = mutableListOf<Int>()
            while (position < elements.size && starts[position] < end) {
                val element = elements[position]
                val elementEnd = starts[position] + element.text.length
                if (element.text.isNotEmpty() && elementEnd > start) indices.add(element.index)
                position++
            }
            return indices
        }
    }

    /**
     * One joined text per run of consecutive elements on the same page: identifiers are matched
     * across neighbouring words but never across a page break. Words are joined by spaces; with
     * [unwrapLines], by a line break where the text the page was typeset from breaks its line
     * ([unwrappedLineBreaks]), so that a reader which speaks of "the same line" sees those lines,
     * not one line per page nor a line cut by the page's width. Mirrors `join_by_page`.
     */
    fun joinByPage(
        elements: List<Element>,
        unwrapLines: Boolean = false,
    ): List<JoinedElements> {
        val pages = mutableListOf<MutableList<Element>>()
        for (element in elements) {
            if (pages.isNotEmpty() &&
                pages.last().last().page == element.page
            ) {
                pages.last().add(element)
            } else {
                pages.add(mutableListOf(element))
            }
        }
        return pages.map { page ->
            val breaks = if (unwrapLines) unwrappedLineBreaks(page) else null
            val text = StringBuilder()
            val starts = mutableListOf<Int>()
            page.forEachIndexed { position, element ->
                if (position > 0) text.append(if (breaks?.invoke(page[position - 1], element) == true) '\n' else ' ')
                starts.add(text.length)
                text.append(element.text)
            }
            JoinedElements(text.toString(), page, starts)
        }
    }

    /**
     * The line breaks of the text a page was typeset from: a printed line ends a line of that
     * text only where the next word would have fitted on it. A line that ends because its next
     * word did not fit (that word's width would pass the page's right edge, the rightmost box on
     * the page) wrapped, and goes on with a space; a line that ends short of that (a heading, a
     * list item, a form field) ends there. Words without boxes continue the line. Mirrors
     * `unwrapped_line_breaks`.
     */
    fun unwrappedLineBreaks(page: List<Element>): (Element, Element) -> Boolean {
        val right = page.mapNotNull { it.box?.x1 }.maxOrNull() ?: 0.0
        return { previous, element ->
            val before = previous.box
            val box = element.box
            when {
                !startsLine(previous, element) -> false
                before == null || box == null -> true
                else -> before.x1 + (box.x1 - box.x0) <= right
            }
        }
    }
}
