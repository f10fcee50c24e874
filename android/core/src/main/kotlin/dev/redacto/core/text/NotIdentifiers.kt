package dev.redacto.core.text

import java.text.Normalizer
import java.util.regex.Pattern

/**
 * Values that identify no one whatever their label, and the words that open a name. Mirrors
 * `tools/redacto/text/not_identifiers.py` (tests/vectors/not_identifiers and the patterns in
 * tests/vectors/text/regex.json pin both).
 *
 * A time of day is no calendar date (DATE is "a calendar date, or date and time"), and every
 * category keeps amounts readable. Yet the model names `11:15.` an ADDRESS and `671 EUR` an
 * ACCOUNT, and the NER tier reads `£1568` as a tax number. So a value that is only a time or
 * only an amount is dropped from every tier, as a lone `My` is dropped as a NAME ([NotNames]).
 *
 * A greeting before a name is no part of it: `Coucou Thérèse` is named as `Thérèse`
 * ([withoutOpeners]). Only greetings are cut, never a title or a particle (`Mrs. Chen`,
 * `De Sousa`, `BRITTANY LE` keep every word).
 */
object NotIdentifiers {
    private const val NAME_LABEL = "NAME"

    /** Words and signs that make the number beside them an amount, case-folded. */
    val CURRENCIES: Set<String> =
        wordList(
            """
            eur, euro, euros, usd, dollars, gbp, pounds, chf, cad, aud,
            jpy, inr, sek, dkk, nok, pln, czk, try, brl, cny,
            €, $, £, ¥, ₹,
            """,
        )

    /**
     * More digits than this beside a currency is read as a number that may identify (an
     * account written after `EUR`), not as an amount.
     */
    const val MAX_AMOUNT_DIGITS = 9

    /**
     * Greetings that open a name and are no part of it, case-folded, a trailing `.`/`,`
     * ignored. Titles stay with the name (`Mrs. Chen` is redacted whole), as the prompts teach.
     */
    val NAME_OPENERS: Set<String> =
        wordList("hi, hello, hey, dear, dearest, bonjour, bonsoir, salut, coucou, cher, chère, chers, chères")

    /** The time-of-day pattern in Python's syntax, as `not_identifiers._TIME` spells it. */
    internal const val TIME_SOURCE =
        """(?:[01]?\d|2[0-3])\s?[:h]\s?[0-5]\d(?:\s?(?:am|pm|a\.m\.?|p\.m\.?))?""" +
            """|(?:1[0-2]|0?\d)\s?(?:am|pm|a\.m\.?|p\.m\.?)""" +
            """|(?:[01]?\d|2[0-3])\s?h"""

    private const val NUMBER = """\d(?:[\d.,'\u00a0\u202f ]*\d)?"""

    /** The currencies as one alternation: longest first, then in order, each escaped as `re.escape` does. */
    private val CURRENCY: String =
        CURRENCIES
            .sortedWith(compareBy<String>({ -it.codePointCount(0, it.length) }, { it }))
            .joinToString("|") { reEscape(it) }

    /** The amount pattern in Python's syntax, as `not_identifiers._AMOUNT` spells it. */
    internal val AMOUNT_SOURCE: String =
        """(?:$CURRENCY)[\s\u00a0\u202f]?(?P<after>$NUMBER)""" +
            """|(?P<before>$NUMBER)[\s\u00a0\u202f]?(?:$CURRENCY)"""

    private val TIME: Pattern = PyText.regex(TIME_SOURCE, ignoreCase = true)
    private val AMOUNT: Pattern = PyText.regex(AMOUNT_SOURCE, ignoreCase = true)

    /** The punctuation trimmed off a value's ends before it is read, with any whitespace (Python's `_EDGE`). */
    private const val EDGE = ".,;:!?()[]\"'«»“”‘’"

    /** The characters Python 3.11's `re.escape` escapes. */
    private const val RE_SPECIAL = "()[]{}?*+-|^$\\.&~# \t\n\r\u000b\u000c"

    private fun reEscape(text: String): String =
        buildString {
            for (char in text) {
                if (char in RE_SPECIAL) append('\\')
                append(char)
            }
        }

    /** NFC, then whitespace of any script and the punctuation of [EDGE] off both ends. */
    private fun core(value: String): String {
        var core = Normalizer.normalize(value, Normalizer.Form.NFC)
        while (true) {
            val stripped = PyText.strip(PyText.strip(core), EDGE)
            if (stripped == core) return core
            core = stripped
        }
    }

    /** `11:15`, `7:45 pm`, `9 am`, `14h30`, `19 h`: a time of day and nothing else. */
    fun isTimeOfDay(value: String): Boolean = TIME.matcher(core(value)).matches()

    /**
     * `671 EUR`, `€1339`, `870,00 €`, `$80.84`, `USD 25`: a number beside a currency and
     * nothing else, with at most [MAX_AMOUNT_DIGITS] digits (of any script, as Python's `\d`).
     */
    fun isAmountValue(value: String): Boolean {
        val match = AMOUNT.matcher(core(value))
        if (!match.matches()) return false
        val number = match.group("after") ?: match.group("before")
        return number.codePoints().filter { PyText.isDigit(it) }.count() <= MAX_AMOUNT_DIGITS
    }

    /** Whether [value] is only a time of day or only an amount, under any label. */
    fun identifiesNoOne(value: String?): Boolean = value != null && (isTimeOfDay(value) || isAmountValue(value))

    /**
     * A NAME's value without the greetings that open it (`Coucou Thérèse,` → `Thérèse,`); a
     * value of one word, or any other label, is returned as it is. Words part at any
     * whitespace, as Python's `str.split(maxsplit=1)`; a greeting is compared in NFC.
     */
    fun withoutOpeners(
        label: String,
        value: String,
    ): String {
        if (label != NAME_LABEL) return value
        var rest = PyText.lstrip(value)
        while (true) {
            val points = CodePointText(rest)
            var space = 0
            while (space < points.length && !PyText.isSpace(points[space])) space++
            val after = PyText.lstrip(points.slice(space, points.length))
            if (after.isEmpty()) return rest
            val first = Normalizer.normalize(points.slice(0, space), Normalizer.Form.NFC)
            if (PyText.casefold(PyText.rstrip(first, ".,")) !in NAME_OPENERS) return rest
            rest = after
        }
    }
}
