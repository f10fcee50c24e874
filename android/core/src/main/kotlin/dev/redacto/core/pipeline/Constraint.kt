package dev.redacto.core.pipeline

import dev.redacto.core.Step
import dev.redacto.core.modelfile.ConstrainedDecoding
import dev.redacto.core.text.PyText

/*
 * Answers limited to the page: the regular expression a constrained reply must match.
 * Mirrors `pipeline/constraint.py` character for character — the golden vectors in
 * tests/vectors/constraint/ pin the exact pattern both languages build.
 *
 * A line is `LABEL: value` with a label the prompt allows; the value is a run of
 * consecutive words of the text the call shows (each word as printed, without its edge
 * punctuation, or without a possessive `'s` as well), of the label's own value class
 * ([VALUE_CLASSES]). Detect answers `NONE` or
 * 1 to [MAX_LINES] lines, validate `PASS`, or `FAIL` and 1 to [MAX_LINES] lines.
 * Placeholders are never words of a value. Every space is written `[ ▁]` (Gemma's tokens
 * carry their leading space as U+2581, and LLGuidance rejects a literal space there). Only
 * the characters special to Python's `re`, Rust's `regex` and Java's `Pattern` alike are
 * escaped. "No line twice" is not in the pattern: a constrained call stops at its first
 * repeated line ([LineWatch] `stopOnRepeat`).
 */

/** A space in the pattern: the character, or SentencePiece's U+2581 space mark. */
const val PATTERN_SPACE = "[ \u2581]"

/** Answer lines at most (`MAX_LINES` in Python). */
const val MAX_LINES = 40

private const val SPECIAL = "\\.+*?()|[]{}^$"
private const val EDGE_PUNCTUATION = ".,;:!?\"'()[]{}<>\u201c\u201d\u2018\u2019\u00ab\u00bb"
private val NAME_PARTICLES =
    setOf(
        "van", "von", "der", "den", "de", "del", "della", "di", "da", "dos", "das", "du",
        "la", "le", "el", "al", "bin", "ben", "ibn", "y", "e",
    )
private const val MONTHS = "january february march april may june july august september october november december"
private const val WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday"

/** Month names a DATE may hold besides the English ones (French, German, Italian, Spanish, Portuguese, Dutch). */
private const val FOREIGN_MONTHS =
    "janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre décembre decembre " +
        "januar jänner februar märz maerz april mai juni juli august september oktober november dezember " +
        "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre " +
        "enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre " +
        "janeiro fevereiro março marco abril maio junho julho agosto setembro outubro novembro dezembro " +
        "januari februari maart april mei juni juli augustus september oktober november december"

/** Abbreviations no common word shares (not `mag`, `set`, `ago`, `out`). */
private const val FOREIGN_MONTH_ABBREVIATIONS = "janv févr fév fevr avr juil déc mär okt dez genn febbr giu lug ott dic ene abr fev mrt"
private val MONTH_WORDS: Set<String> =
    (MONTHS.split(" ") + MONTHS.split(" ").map { it.take(3) } + "sept" + FOREIGN_MONTHS.split(" ") + FOREIGN_MONTH_ABBREVIATIONS.split(" ")).toSet()
private val DATE_WORDS: Set<String> =
    MONTH_WORDS + WEEKDAYS.split(" ") + WEEKDAYS.split(" ").map { it.take(3) } + listOf("tues", "thur", "thurs")
private val DATE_CONNECTORS = setOf("of", "the", "at", "de")

/** Street-type words an ADDRESS may start with in lower case (`rue Gabriel Ledoux, …`, `plac Kilińskiego 654`). */
private val STREET_WORDS: Set<String> =
    (
        "rue avenue av boulevard bd allée allee impasse chemin place quai route cours passage square faubourg " +
            "via viale piazza piazzale corso vicolo largo strada contrada borgo lungomare " +
            "calle avenida avda paseo plaza camino carrera carretera ronda travesía glorieta " +
            "rua travessa praça praca alameda estrada " +
            "ulica ul aleja al plac pl osiedle os " +
            "gade vej gata gatan väg vägen gränd torget " +
            "straat laan weg plein gracht kade singel " +
            "straße strasse str gasse platz allee " +
            "ulice náměstí nám třída"
    ).split(" ").toSet()
private val POSSESSIVES = listOf("'s", "\u2019s")

/** Which answer format the pattern describes. */
enum class ReplyShape(
    val wire: String,
) {
    /** `NONE`, or one `LABEL: value` line per item. */
    DETECT("detect"),

    /** `PASS`, or `FAIL` followed by one `LABEL: value` line per item still readable. */
    VALIDATE("validate"),
}

private fun codePoints(text: String): IntArray = text.codePoints().toArray()

private fun isDecimal(codePoint: Int): Boolean = PyText.isDecimal(codePoint)

/** One whitespace-separated word of the text, and the same without edge punctuation. */
data class PageWord(
    val raw: String,
    val core: String,
) {
    /** How a value may write the word: as printed, without edge punctuation, and without a possessive `'s` as well. */
    val forms: List<String>
        get() {
            val bare = if (core.length > 2 && POSSESSIVES.any { core.endsWith(it) }) core.dropLast(2) else core
            return listOf(raw, core, bare)
        }

    val hasDigit: Boolean get() = codePoints(core).any(::isDecimal)

    val capitalised: Boolean get() = Character.isUpperCase(core.codePointAt(0))

    /** A word of a person's name: capitalised letters, or a lowercase particle (`van`). */
    val nameLike: Boolean
        get() {
            val letters = codePoints(core).all { PyText.isAlpha(it) || it in NAME_WORD_MARKS }
            return letters && (capitalised || core in NAME_PARTICLES)
        }

    val dateLike: Boolean get() = hasDigit || core.lowercase().trimEnd('.') in DATE_WORDS

    /** A month name and numbers joined by dashes in one word (`May-3`, `15-Mar-2024`). */
    val monthJoined: Boolean
        get() {
            val parts = core.split("-")
            val months = parts.count { it.lowercase().trimEnd('.') in MONTH_WORDS }
            val numbers = parts.count { part -> part.isNotEmpty() && codePoints(part).let { it.all(::isDecimal) && it.size <= 4 } }
            return parts.size > 1 && months == 1 && months + numbers == parts.size
        }

    val streetType: Boolean get() = core in STREET_WORDS

    /** A piece of a number or code: digits, or upper-case letters (`GB82 WEST 1234`). */
    val codeLike: Boolean get() = hasDigit || (codePoints(core).all(PyText::isAlnum) && PyText.isUpper(core))

    companion object {
        private val NAME_WORD_MARKS = codePoints(".'\u2019-").toSet()

        fun of(raw: String): PageWord = PageWord(raw, PyText.strip(raw, EDGE_PUNCTUATION).ifEmpty { raw })
    }
}

/** Which runs of the page's words may be a label's value. */
class ValueClass(
    val maxWords: Int,
    val accepts: (List<PageWord>) -> Boolean,
)

private fun digits(run: List<PageWord>): Int = run.sumOf { word -> codePoints(word.core).count(::isDecimal) }

private fun numericDate(core: String): Boolean {
    val points = codePoints(core)
    return (1 until points.size - 1).any { points[it] < 0x80 && points[it].toChar() in "/.-" && isDecimal(points[it - 1]) && isDecimal(points[it + 1]) }
}

private fun nameRun(run: List<PageWord>): Boolean = run.all { it.nameLike } && run.last().capitalised

private fun dateRun(run: List<PageWord>): Boolean {
    val innerOk = run.all { it.dateLike || it.core.lowercase() in DATE_CONNECTORS }
    if (!(innerOk && run.first().dateLike && run.last().dateLike)) return false
    if (run.size == 1 && (numericDate(run[0].core) || run[0].monthJoined)) return true
    val named = run.any { (!it.hasDigit && it.dateLike) || it.monthJoined }
    return named && run.any { it.hasDigit }
}

private fun phoneRun(run: List<PageWord>): Boolean {
    val shortOrDigits = run.all { it.hasDigit || codePoints(it.core).size <= 4 }
    return shortOrDigits && run.first().hasDigit && run.last().hasDigit && digits(run) >= 6
}

/** First and last word capitalised or holding a digit; the first may instead be a lower-case street-type word (`avenue Jules Weiss, 13275 Bourgeois`). */
private fun addressRun(run: List<PageWord>): Boolean =
    (run.first().capitalised || run.first().hasDigit || run.first().streetType) && (run.last().capitalised || run.last().hasDigit)

private fun codeRun(run: List<PageWord>): Boolean = run.first().codeLike && run.last().codeLike && run.any { it.hasDigit }

/** Each label's values: how many words at most, and which runs of the page's words. */
val VALUE_CLASSES: Map<String, ValueClass> =
    mapOf(
        "NAME" to ValueClass(4, ::nameRun),
        "DATE" to ValueClass(5, ::dateRun),
        "PHONE" to ValueClass(7, ::phoneRun),
        "EMAIL" to ValueClass(3) { run -> '@' in run.first().raw },
        "ADDRESS" to ValueClass(10, ::addressRun),
        "ID" to ValueClass(6, ::codeRun),
        "SSN" to ValueClass(5) { run -> codeRun(run) && digits(run) >= 6 },
        "ACCOUNT" to ValueClass(6, ::codeRun),
        "CARD" to ValueClass(6, ::codeRun),
        "MRN" to ValueClass(4, ::codeRun),
        "CREDENTIAL" to ValueClass(3) { true },
    )

/** A label without a class of its own: any run of up to six words. */
val DEFAULT_VALUE_CLASS = ValueClass(6) { true }

/** The text's words in order, as stretches without placeholders (a value never spans one). */
fun pageWords(text: String): List<List<PageWord>> {
    val stretches = mutableListOf(mutableListOf<PageWord>())
    for (raw in pySplit(text)) {
        if (PLACEHOLDER_PATTERN.matcher(raw).find()) {
            stretches.add(mutableListOf())
        } else {
            stretches.last().add(PageWord.of(raw))
        }
    }
    return stretches.filter { it.isNotEmpty() }
}

/** Python's `str.split()`: runs of Unicode whitespace separate words. */
private fun pySplit(text: String): List<String> {
    val words = mutableListOf<String>()
    val word = StringBuilder()
    for (codePoint in codePoints(text)) {
        if (PyText.isSpace(codePoint)) {
            if (word.isNotEmpty()) words.add(word.toString())
            word.setLength(0)
        } else {
            word.appendCodePoint(codePoint)
        }
    }
    if (word.isNotEmpty()) words.add(word.toString())
    return words
}

/** [text] as a literal: the special characters escaped, every space written `[ ▁]`. */
fun escapePattern(text: String): String {
    val out = StringBuilder()
    for (codePoint in codePoints(text)) {
        when {
            codePoint == ' '.code -> out.append(PATTERN_SPACE)
            codePoint < 0x80 && codePoint.toChar() in SPECIAL -> out.append('\\').appendCodePoint(codePoint)
            else -> out.appendCodePoint(codePoint)
        }
    }
    return out.toString()
}

/** Python's string order: by code point, not by UTF-16 unit. */
private val CODE_POINT_ORDER =
    Comparator<String> { a, b ->
        val x = codePoints(a)
        val y = codePoints(b)
        (0 until minOf(x.size, y.size)).firstOrNull { x[it] != y[it] }?.let { x[it].compareTo(y[it]) } ?: x.size.compareTo(y.size)
    }

/** Runs of words sharing their first words, written as one nested alternation. */
private class Trie {
    val children = mutableMapOf<PageWord, Trie>()
    var ends = false

    fun add(run: List<PageWord>) {
        var node = this
        for (word in run) node = node.children.getOrPut(word) { Trie() }
        node.ends = true
    }

    fun pattern(): String {
        val options =
            children.entries.sortedWith(compareBy(CODE_POINT_ORDER) { it.key.raw }).map { (word, child) ->
                val forms = word.forms.map(::escapePattern).toSet().sortedWith(CODE_POINT_ORDER)
                val head = if (forms.size == 1) forms[0] else "(?:${forms.joinToString("|")})"
                val tail = if (child.children.isEmpty()) "" else "(?:$PATTERN_SPACE${child.pattern()})" + (if (child.ends) "?" else "")
                head + tail
            }
        return if (options.size == 1) options[0] else "(?:${options.joinToString("|")})"
    }
}

/** The runs of the page's words [valueClass] accepts, as one pattern (null: no run). */
fun valuePattern(
    stretches: List<List<PageWord>>,
    valueClass: ValueClass,
): String? {
    val trie = Trie()
    for (stretch in stretches) {
        for (start in stretch.indices) {
            for (end in start + 1..minOf(start + valueClass.maxWords, stretch.size)) {
                val run = stretch.subList(start, end)
                if (valueClass.accepts(run)) trie.add(run)
            }
        }
    }
    return if (trie.children.isEmpty()) null else trie.pattern()
}

/** The pattern for one call, and the labels it leaves possible. */
data class AnswerPattern(
    val pattern: String,
    val labels: List<String>,
)

/**
 * The pattern a `LABEL: value` reply to a call showing [text] must match in full. [labels] are
 * the prompt's, in its order; a label none of the text's word runs can be is left out.
 */
fun answerPattern(
    text: String,
    labels: List<String>,
    shape: ReplyShape,
): AnswerPattern {
    val stretches = pageWords(text)
    val lines = mutableListOf<String>()
    val possible = mutableListOf<String>()
    for (label in labels) {
        val values = valuePattern(stretches, VALUE_CLASSES[label] ?: DEFAULT_VALUE_CLASS) ?: continue
        lines.add("${escapePattern(label)}:$PATTERN_SPACE$values")
        possible.add(label)
    }
    val line = if (lines.isEmpty()) null else "(?:${lines.joinToString("|")})"
    val pattern =
        when (shape) {
            ReplyShape.DETECT -> "(?:NONE${line?.let { "|$it(?:\\n$it){0,${MAX_LINES - 1}}" } ?: ""})\\n?"
            ReplyShape.VALIDATE -> "(?:PASS${line?.let { "|FAIL(?:\\n$it){1,$MAX_LINES}" } ?: ""})\\n?"
        }
    return AnswerPattern(pattern, possible)
}

/** Whether calls of [step] are constrained under this setting. */
fun ConstrainedDecoding.covers(step: Step): Boolean =
    when (step) {
        Step.DETECT -> this != ConstrainedDecoding.OFF
        Step.VALIDATE -> this == ConstrainedDecoding.DETECT_VALIDATE
        else -> false
    }
