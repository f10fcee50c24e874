package dev.redacto.core.pipeline

import dev.redacto.core.Category
import dev.redacto.core.RejectReason
import dev.redacto.core.Verdict
import dev.redacto.core.text.PyText

/*
 * Line parsers for every model output format, one line at a time so they can stream.
 *
 * Small models break JSON brackets, so every step answers in lines. Each parser turns one
 * line into a typed item, null (nothing to do: a blank line or `NONE`), or a [LineRejected]
 * saying why the line was dropped. Dropped lines become [ParseError]s in the report; they
 * never throw. Mirrors `tools/redacto/pipeline/parsing.py`; tests/vectors exercises both.
 */

/** The result of parsing one item line of either mode. */
sealed interface ParsedLine

/** The result of parsing one image-mode line. */
sealed interface IndexLine : ParsedLine

/** The result of parsing one text-mode line. */
sealed interface TextLine : ParsedLine

/** A line that could not be used, and why. */
data class LineRejected(
    val line: String,
    val reason: RejectReason,
) : IndexLine,
    TextLine

/** `1:NAME` — element 1 is a NAME (image mode). */
data class IndexItem(
    val index: Int,
    val label: String,
) : IndexLine

/** `NAME: Mrs. Chen` — the value as the model wrote it (text mode). */
data class TextItem(
    val label: String,
    val value: String,
) : TextLine

/** `[NAME_1]`: labels are single upper-case words (prompts/labels.yaml), so this is exact. */
internal val PLACEHOLDER_PATTERN = PyText.regex("""\[([A-Z][A-Z0-9]*)_(\d+)\]""")

private val BULLET = PyText.regex("""^\s*(?:[-*•]\s+)?""")
private val INDEX_LINE =
    PyText.regex("""^\[?(?<index>\d{1,7})\]?\s*:\s*\[?(?<label>[A-Za-z][A-Za-z_]*)\]?\s*[.,;]?\s*(?:\(.*\))?$""")
private val TEXT_LINE = PyText.regex("""^(?<label>[A-Za-z][A-Za-z_ ]{0,40}?)\s*:\s*(?<value>.*)$""")
private const val QUOTES = "\"'“”‘’`"
private val NONE_LINE = PyText.regex("""^\(?none\)?\.?$""", ignoreCase = true)

/** Strips whitespace, a list bullet and the markdown bold markers models like to add. */
private fun clean(line: String): String {
    val stripped = BULLET.matcher(PyText.strip(line)).replaceFirst("").replace("**", "")
    return PyText.strip(stripped)
}

private fun normalLabel(raw: String): String = PyText.splitWhitespace(PyText.strip(raw).uppercase()).joinToString("_")

/** True for a blank line or the `NONE` answer: nothing to act on, nothing wrong. */
fun isNothing(line: String): Boolean {
    val cleaned = clean(line)
    return cleaned.isEmpty() || NONE_LINE.matcher(cleaned).find()
}

/** Parses an image-mode `INDEX:LABEL` line; indices must lie in this chunk's [indexRange]. */
fun parseIndexLine(
    line: String,
    labels: Collection<String>,
    indexRange: IntRange,
): IndexLine? {
    if (isNothing(line)) return null
    val match = INDEX_LINE.matcher(clean(line))
    if (!match.find()) return LineRejected(line, RejectReason.JUNK)
    val label = normalLabel(match.group("label"))
    if (label !in labels) return LineRejected(line, RejectReason.UNKNOWN_LABEL)
    val index = match.group("index").toInt()
    if (index !in indexRange) return LineRejected(line, RejectReason.OUT_OF_CHUNK)
    return IndexItem(index = index, label = label)
}

/** Parses a text-mode `LABEL: value` line. */
fun parseTextLine(
    line: String,
    labels: Collection<String>,
): TextLine? {
    if (isNothing(line)) return null
    val match = TEXT_LINE.matcher(clean(line))
    if (!match.find()) return LineRejected(line, RejectReason.JUNK)
    val label = normalLabel(match.group("label"))
    if (label !in labels) return LineRejected(line, RejectReason.UNKNOWN_LABEL)
    val value = PyText.strip(PyText.strip(PyText.strip(match.group("value")), QUOTES))
    if (value.isEmpty()) return LineRejected(line, RejectReason.EMPTY_VALUE)
    if (PLACEHOLDER_PATTERN.matcher(value).find()) return LineRejected(line, RejectReason.PLACEHOLDER_VALUE)
    return TextItem(label = label, value = value)
}

// --- classify ----------------------------------------------------------------------------

private fun letters(text: String): String {
    val kept = StringBuilder()
    text.lowercase().codePoints().forEach { if (PyText.isAlpha(it)) kept.appendCodePoint(it) }
    return kept.toString()
}

private val CATEGORY_BY_LETTERS: Map<String, Category> = Category.entries.associateBy { letters(it.label) }
private val CLASSIFY_LINE = PyText.regex("""^(?<key>document[ _]?type|category)\s*:\s*(?<value>.*)$""", ignoreCase = true)

/** The classifier's answer so far; [category] stays null until a known one is read. */
class ClassifyParse {
    var category: Category? = null
        private set
    var documentType: String = ""
        private set
    val rejected: MutableList<LineRejected> = mutableListOf()

    /** Reads one line of `DOCUMENT_TYPE: …` / `CATEGORY: …` output. */
    fun feed(line: String) {
        if (isNothing(line)) return
        val match = CLASSIFY_LINE.matcher(clean(line))
        if (!match.find()) {
            rejected.add(LineRejected(line, RejectReason.JUNK))
            return
        }
        val quoted = PyText.strip(PyText.strip(PyText.strip(match.group("value")), QUOTES))
        val value = PyText.strip(PyText.rstrip(quoted, "."))
        if (match.group("key").lowercase() == "category") {
            if (category != null) {
                rejected.add(LineRejected(line, RejectReason.DUPLICATE))
                return
            }
            val known = CATEGORY_BY_LETTERS[letters(value)]
            if (known == null) {
                rejected.add(LineRejected(line, RejectReason.UNKNOWN_CATEGORY))
                return
            }
            category = known
        } else if (documentType.isNotEmpty()) {
            rejected.add(LineRejected(line, RejectReason.DUPLICATE))
        } else {
            documentType = value
        }
    }
}

/** Parses a whole classifier reply (tests and non-streaming callers). */
fun parseClassify(text: String): ClassifyParse = ClassifyParse().also { parse -> PyText.splitLines(text).forEach(parse::feed) }

// --- validate ----------------------------------------------------------------------------

private val VERDICT_LINE = PyText.regex("""^(?:verdict\s*:\s*)?(?<word>pass|fail)\b[\s.!:,\-]*(?<rest>.*)$""", ignoreCase = true)

/**
 * The validator's answer so far. Anything but a clean `PASS` ends as FAIL (fail closed).
 *
 * The first non-blank line should be `PASS` or `FAIL` (an item may follow `FAIL:` on the
 * same line). A reply without a verdict is FAIL and its lines are still read as items; a
 * `PASS` followed by further content contradicts itself and is FAIL too.
 */
class VerdictParse {
    var verdict: Verdict? = null
        private set
    var stated: Verdict? = null
        private set
    val rejected: MutableList<LineRejected> = mutableListOf()

    /** Reads one line; returns the text to parse as a missed item, if any. */
    fun feed(line: String): String? {
        val cleaned = clean(line)
        if (cleaned.isEmpty()) return null
        if (verdict == null) {
            val match = VERDICT_LINE.matcher(cleaned)
            if (!match.find()) {
                verdict = Verdict.FAIL
                return line
            }
            val word = Verdict.valueOf(match.group("word").uppercase())
            stated = word
            val rest = PyText.strip(match.group("rest"))
            verdict = if (word == Verdict.PASS && rest.isEmpty()) Verdict.PASS else Verdict.FAIL
            return rest.ifEmpty { null }
        }
        verdict = Verdict.FAIL
        return line
    }

    /** The verdict once the reply has ended; no PASS/FAIL word at all is recorded. */
    fun final(): Verdict {
        if (stated == null) rejected.add(LineRejected("", RejectReason.BAD_VERDICT))
        if (verdict == null) verdict = Verdict.FAIL
        return verdict!!
    }
}
