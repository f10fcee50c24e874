package dev.redacto.core.lexicon

import dev.redacto.core.Category
import dev.redacto.core.Span
import dev.redacto.core.WordKind
import dev.redacto.core.ner.NerLabels
import dev.redacto.core.rules.RuleMatching
import dev.redacto.core.rules.Rules
import dev.redacto.core.text.CodePointText
import dev.redacto.core.text.NotIdentifiers
import dev.redacto.core.text.PyText
import dev.redacto.core.text.wordList

/*
 * The residual check: every word left readable is explained, or a reader must look at it.
 * Mirrors `redacto.lexicon.residual` word for word (docs/lexicon.md, "What explains a word";
 * tests/vectors/lexicon pins both). Each word ([LexiconWords.words]) of an output (the text
 * with each redacted value masked `…`) is decided in this order:
 *
 * 1. never explained: `@` ([WordKind.EMAIL]), a URL, a domain-like word;
 * 2. inside a match a category's preserve rule keeps ([Reason.PRESERVED]);
 * 3. a word holding a digit: a time of day, an amount, a date the category keeps, an article
 *    or page number, a small quantity (alone, or joined by hyphens to common words:
 *    `2-bedroom`), a measurement (`500 mg`, `BP 128/82`: [Measures]), a model code after a
 *    listed make, a field's label (`CVV2`); else [WordKind.DIGITS];
 * 4. a word of letters: a common word of the language's dictionary, a currency, a company form
 *    or part of a company's name, a name under a title the category keeps, a make before a
 *    model code, a field's label ([LABEL_WORDS]: `SSN`, `MRN`, in any category), a unit after
 *    its number (`400 IU`), a proper noun the dictionary knows; else capitalised, lower-case
 *    or other.
 *
 * Only the given language's dictionary explains words: on a mixed page the other language's
 * words are unexplained.
 */

/** Why a readable word needs no reader (the vectors' and the report's `reason`). */
enum class Reason(
    val wire: String,
) {
    DICTIONARY("dictionary"),
    PRESERVED("preserved"),
    ORGANISATION("organisation"),
    TITLE("title"),
    TIME("time"),
    AMOUNT("amount"),
    DATE("date"),
    REFERENCE("reference"),
    QUANTITY("quantity"),
    EQUIPMENT("equipment"),
    LABEL("label"),
    MEASUREMENT("measurement"),
    PROPER_NOUN("proper noun"),
}

/** One readable word, and why it is explained or what it looks like when it is not (exactly one of [reason], [kind]). */
data class WordDecision(
    val word: Word,
    val reason: Reason? = null,
    val kind: WordKind? = null,
) {
    init {
        require((reason == null) != (kind == null)) { "a word is explained or has a kind, not both" }
    }

    val explained: Boolean get() = reason != null
}

/** The residual check's decision on each word of an output (`redacto.lexicon.residual_words`). */
object ResidualWords {
    /**
     * Words after which a number is an article, section or page number (case-folded, edge
     * punctuation trimmed); a code letter between counts as one of the two words (`article L.`).
     */
    val REFERENCE_WORDS: Set<String> =
        wordList(
            """
            article, articles, art, section, sections, §, §§, alinéa, alinéas, al, paragraph,
            paragraphs, paragraphe, paragraphes, chapter, chapitre, clause, clauses, page, pages, p, pp,
            """,
        )

    /**
     * Context words of the rules that are never a [Reason.LABEL]: each may be a person's name
     * (`redacto.lexicon.NOT_LABELS`; the shared vectors pin the [LABEL_WORDS] that result).
     */
    val NOT_LABELS: Set<String> =
        wordList(
            """
            # Given names or surnames in Faker's person lists (Python's test checks them): a
            # privacy check fails closed, so a word that may be a name is never a field's label.
            aba, case, china, cid, french, german, good, loan, us, valid,
            # Surnames and given names those lists miss, and `jp`, a name's usual initials.
            fein, driver, born, box, lock, reg, jp,
            """,
        )

    /**
     * Words that name a field (case-folded): every word of every recognizer's context phrases
     * ([Rules.catalog], the rules' own data), but one-letter words (an initial is part of a
     * name) and [NOT_LABELS] (`redacto.lexicon.LABEL_WORDS`).
     */
    val LABEL_WORDS: Set<String> by lazy {
        Rules.catalog.recognizers.values
            .flatMap { recognizer -> recognizer.contextPhrases.flatten() }
            .map { PyText.casefold(it) }
            .filter { it.codePointCount(0, it.length) >= 2 && it !in NOT_LABELS }
            .toSet()
    }

    private val DOMAIN = PyText.regex("""[^\W_](?:[\w-]*[^\W_])?(?:\.[^\W_](?:[\w-]*[^\W_])?)*\.[^\W\d_]{2,}""")
    private val QUANTITY =
        PyText.regex(
            """\d{1,2}(?:[.,]\d)?(?:%|st|nd|rd|th|er|re|e|ème|eme|ᵉ)?|\d{1,3}(?:[.,]\d{1,2})?%""",
            ignoreCase = true,
        )
    private val NAME_SHAPE = PyText.regex("""[^\W\d_]+(?:['-][^\W\d_]+)*""")

    /**
     * Every word of [text] (an output with its redacted values masked as `…`) decided under
     * [category], in the dictionary of [language] (`en`, `fr`; null: the language whose
     * dictionary knows the most of the text's words, [Lexicon.languageOf]). [lexiconFor] gives
     * a language's lexicon ([LexiconFiles.load]).
     */
    fun residualWords(
        text: String,
        category: Category,
        language: String?,
        lexiconFor: (String) -> Lexicon,
    ): List<WordDecision> {
        val found = LexiconWords.words(text)
        val chosen = language ?: Lexicon.languageOf(found, Lexicon.LANGUAGES.map(lexiconFor))
        val context = Context(text, category, lexiconFor(chosen))
        return found.map { decide(it, context) }
    }

    /** The decisions no reader could explain, in order. */
    fun unexplained(decisions: List<WordDecision>): List<WordDecision> = decisions.filterNot { it.explained }

    private class Token(
        val start: Int,
        val end: Int,
        val text: String,
    )

    private class Context(
        val text: String,
        val category: Category,
        val lexicon: Lexicon,
    ) {
        val preserved: List<Span> = Rules.preservedSpans(text, category)
        val dates: List<Span> = keptDates(text, category)

        /** Every whitespace-separated token, for the neighbours of a number (code points). */
        val raw: List<Token> =
            run {
                val points = CodePointText(text)
                val tokens = mutableListOf<Token>()
                var at = 0
                while (at < points.length) {
                    if (PyText.isSpace(points[at])) {
                        at++
                        continue
                    }
                    val start = at
                    while (at < points.length && !PyText.isSpace(points[at])) at++
                    tokens.add(Token(start, at, points.slice(start, at)))
                }
                tokens
            }

        private val starts: IntArray = raw.map { it.start }.toIntArray()

        private val points = CodePointText(text)

        /**
         * The line that holds [word] and the word's offsets in it. [NerLabels]' company, title
         * and equipment tests read no further than a word's own line (`\n`-separated), so they
         * answer on it as on the whole text, without converting the whole text for every word.
         */
        fun onLine(word: Word): Triple<String, Int, Int> {
            var lineStart = word.start
            while (lineStart > 0 && points[lineStart - 1] != '\n'.code) lineStart--
            var lineEnd = word.end
            while (lineEnd < points.length && points[lineEnd] != '\n'.code) lineEnd++
            return Triple(points.slice(lineStart, lineEnd), word.start - lineStart, word.end - lineStart)
        }

        /** Whether [word] is a listed make before a model code, or that code ([NerLabels.namesEquipment]). */
        fun namesEquipment(word: Word): Boolean {
            val (line, start, end) = onLine(word)
            return NerLabels.namesEquipment(line, start, end, category)
        }

        /**
         * The index of the whitespace token that holds [word] (a word never spans whitespace),
         * found by bisection: a long page reads in linear time.
         */
        fun position(word: Word): Int {
            val found = starts.binarySearch(word.start)
            val at = if (found >= 0) found else -found - 2
            check(at >= 0 && word.end <= raw[at].end) { "a word lies inside one whitespace token" }
            return at
        }

        /** The word's own text, then every run of up to three whitespace tokens around it, joined by a space. */
        fun windows(word: Word): List<String> {
            val at = position(word)
            val found = mutableListOf(word.text)
            for (size in 1..3) {
                for (first in at - size + 1..at) {
                    if (first >= 0 && first + size <= raw.size) {
                        found.add(raw.subList(first, first + size).joinToString(" ") { it.text })
                    }
                }
            }
            return found
        }

        /** Whether the whitespace token before or after the word's is a bare number once trimmed (`06 12 34`). */
        fun besideANumber(word: Word): Boolean {
            val at = position(word)
            return listOf(at - 1, at + 1)
                .filter { it in raw.indices }
                .map { LexiconWords.trim(raw[it].text) }
                .any { token -> token.isNotEmpty() && token.codePoints().allMatch { PyText.isDigit(it) } }
        }

        /**
         * The word's whitespace token, and the tokens before and after it on its line (null at
         * the line's edge); a lone `:` before is passed over (French `TA : 12/8`).
         */
        fun onLineTokens(word: Word): Triple<String, String?, String?> {
            val at = position(word)
            val own = raw[at]
            var back = at - 1
            if (back > 0 && raw[back].text == ":") back--
            val before = if (back >= 0) raw[back] else null
            val after = if (at + 1 < raw.size) raw[at + 1] else null
            fun sameLine(
                from: Int,
                to: Int,
            ): Boolean = (from until to).none { points[it] == '\n'.code }
            return Triple(
                own.text,
                before?.takeIf { sameLine(it.end, own.start) }?.text,
                after?.takeIf { sameLine(own.end, it.start) }?.text,
            )
        }

        fun rawBefore(
            word: Word,
            count: Int,
        ): List<String> {
            val at = position(word)
            return raw.subList(maxOf(0, at - count), at).map { it.text }
        }
    }

    private fun inside(
        word: Word,
        spans: List<Span>,
    ): Boolean = spans.any { it.start <= word.start && word.end <= it.end }

    private fun neverExplained(text: String): WordKind? {
        if ("@" in text) return WordKind.EMAIL
        val lowered = text.lowercase()
        if ("://" in lowered || lowered.startsWith("www.")) return WordKind.URL
        if (DOMAIN.matcher(PyText.rstrip(text, "%")).matches()) return WordKind.DOMAIN
        return null
    }

    private fun numberReason(
        word: Word,
        context: Context,
    ): Reason? {
        val windows = context.windows(word)
        return when {
            windows.any { NotIdentifiers.isTimeOfDay(it) } -> Reason.TIME
            windows.any { NotIdentifiers.isAmountValue(it) } -> Reason.AMOUNT
            inside(word, context.dates) -> Reason.DATE
            afterReference(context.rawBefore(word, 2)) -> Reason.REFERENCE
            QUANTITY.matcher(word.text).matches() && !context.besideANumber(word) -> Reason.QUANTITY
            counted(word.text, context.lexicon) && !context.besideANumber(word) -> Reason.QUANTITY
            measurement(word, context) -> Reason.MEASUREMENT
            context.namesEquipment(word) -> Reason.EQUIPMENT
            PyText.casefold(word.text) in LABEL_WORDS -> Reason.LABEL
            else -> null
        }
    }

    /**
     * A number with its unit (`500 mg`, `500mg`, `72/min`) or a vital sign's reading after its
     * label (`BP 128/82`), on one line ([Measures]); never a number that is not its token's own
     * (`#4432`), nor one after a number in groups, a number sign or a field's label.
     */
    private fun measurement(
        word: Word,
        context: Context,
    ): Boolean {
        val (own, before, after) = context.onLineTokens(word)
        if (!own.removePrefix("(").startsWith(word.text) || LexiconWords.trim(own) != word.text) return false
        val label = if (before != null) PyText.casefold(LexiconWords.trim(before)) else ""
        if (Measures.vitalReading(word.text, label)) return true
        val numbered =
            (label.isNotEmpty() && label.codePoints().allMatch { PyText.isDigit(it) }) ||
                label in LABEL_WORDS ||
                label in Measures.NUMBER_SIGNS ||
                (before != null && ('#' in before || '№' in before))
        return !numbered && Measures.withUnit(word.text, after?.let { LexiconWords.trim(it) })
    }

    /** A unit after its number on the same line (`mmHg` in `128/82 mmHg`, `IU` in `400 IU`). */
    private fun afterAMeasure(
        word: Word,
        context: Context,
    ): Boolean {
        val before = context.onLineTokens(word).second
        return before != null && Measures.withUnit(LexiconWords.trim(before), word.text)
    }

    /**
     * A small quantity joined by hyphens to common words (`2-bedroom`, `0.4-acre`, `3-year-old`):
     * every hyphen-cut part a [QUANTITY] or a common dictionary word of two letters or more, at
     * least one of each.
     */
    private fun counted(
        text: String,
        lexicon: Lexicon,
    ): Boolean {
        val parts = text.split('-', '\u2010', '\u2011').map { LexiconWords.trim(it) }
        val numbers = parts.filter { part -> part.codePoints().anyMatch { PyText.isDigit(it) } }
        val words = parts.filter { it !in numbers }
        return numbers.isNotEmpty() &&
            words.isNotEmpty() &&
            numbers.all { QUANTITY.matcher(it).matches() } &&
            words.all { it.codePointCount(0, it.length) >= 2 && lexicon.knowsForm(it) == Known.COMMON }
    }

    /** The word before is a reference word, or a code letter that one follows (`art. L.`). */
    private fun afterReference(before: List<String>): Boolean {
        // An elided article is no part of the word (`l'article`).
        val bare = before.map { LexiconWords.trim(LexiconWords.normalised(it)).substringAfterLast('\'') }
        if (bare.isNotEmpty() && PyText.casefold(bare.last()) in REFERENCE_WORDS) return true
        if (bare.size != 2) return false
        val code = bare[1]
        return code.codePointCount(0, code.length) in 1..2 &&
            code.codePoints().allMatch { PyText.isAlpha(it) } &&
            PyText.isUpper(code) &&
            PyText.casefold(bare[0]) in REFERENCE_WORDS
    }

    private fun lettersReason(
        word: Word,
        context: Context,
    ): Reason? {
        val known = context.lexicon.knows(word.text)
        if (known == Known.COMMON) return Reason.DICTIONARY
        if (PyText.casefold(word.text) in NotIdentifiers.CURRENCIES) return Reason.AMOUNT
        val (text, start, end) = context.onLine(word)
        return when {
            word.text in NerLabels.ORGANISATION_FORMS || NerLabels.namesAnOrganisation(text, start, end) -> Reason.ORGANISATION
            NerLabels.titled(text, start, end, context.category) -> Reason.TITLE
            context.namesEquipment(word) -> Reason.EQUIPMENT
            PyText.casefold(word.text) in LABEL_WORDS -> Reason.LABEL
            Measures.isUnit(word.text) && afterAMeasure(word, context) -> Reason.MEASUREMENT
            known == Known.PROPER -> Reason.PROPER_NOUN
            else -> null
        }
    }

    private fun unknownKind(text: String): WordKind {
        if (text.isNotEmpty() && PyText.isUpper(String(Character.toChars(text.codePointAt(0))))) return WordKind.CAPITALISED
        if (NAME_SHAPE.matcher(text).matches()) return WordKind.LOWER_CASE
        return WordKind.OTHER
    }

    private fun decide(
        word: Word,
        context: Context,
    ): WordDecision {
        neverExplained(word.text)?.let { return WordDecision(word, kind = it) }
        if (inside(word, context.preserved)) return WordDecision(word, reason = Reason.PRESERVED)
        if (word.text.codePoints().anyMatch { PyText.isDigit(it) }) {
            val reason = numberReason(word, context)
            return if (reason != null) WordDecision(word, reason = reason) else WordDecision(word, kind = WordKind.DIGITS)
        }
        val reason = lettersReason(word, context)
        return if (reason != null) WordDecision(word, reason = reason) else WordDecision(word, kind = unknownKind(word.text))
    }

    /** Whether [category] leaves dates readable: its rules run no `date` recognizer. */
    private fun keepsDates(category: Category): Boolean = Rules.recognizersFor(category).none { it.name == "date" }

    /** The date-recognizer matches a category that runs no `date` recognizer keeps (not a birth date's), in code points. */
    private fun keptDates(
        text: String,
        category: Category,
    ): List<Span> {
        if (!keepsDates(category)) return emptyList()
        val recognizers = Rules.catalog.recognizers

        fun scan(name: String): List<Span> =
            RuleMatching.scanText(text, listOf(recognizers.getValue(name)), emptyList()).map {
                Span(text.codePointCount(0, it.start), text.codePointCount(0, it.end))
            }
        val births = scan("birth_date")
        return scan("date").filter { date -> births.none { it.start < date.end && date.start < it.end } }
    }
}
