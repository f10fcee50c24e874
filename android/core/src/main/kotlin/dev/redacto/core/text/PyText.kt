package dev.redacto.core.text

import java.util.regex.Pattern

/**
 * Text primitives with the exact semantics of Python's `str` methods and `re` module, so
 * the Kotlin parsers and locator give the same answers as the Python reference for any
 * input the golden vectors can hold. Offsets exposed to the report (spans) count Unicode
 * code points, as Python does, not UTF-16 units.
 */
internal object PyText {
    /** Python's `str.isspace()` set (Unicode White_Space plus the ASCII separators 0x1C–0x1F). */
    fun isSpace(codePoint: Int): Boolean =
        when (codePoint) {
            in 0x09..0x0D, in 0x1C..0x20, 0x85, 0xA0, 0x1680, in 0x2000..0x200A,
            0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
            -> true

            else -> false
        }

    /** Python's `str.isalpha()`: the letter categories Lu, Ll, Lt, Lm, Lo. */
    fun isAlpha(codePoint: Int): Boolean = Character.isLetter(codePoint)

    /** Python's `str.isalnum()`: a letter, or a character with a numeric value (Nd, Nl, No). */
    fun isAlnum(codePoint: Int): Boolean =
        Character.isLetter(codePoint) ||
            when (Character.getType(codePoint).toByte()) {
                Character.DECIMAL_DIGIT_NUMBER, Character.LETTER_NUMBER, Character.OTHER_NUMBER -> true
                else -> false
            }

    /** Python's `str.isdecimal()`: the decimal digits (category Nd), any script. */
    fun isDecimal(codePoint: Int): Boolean = Character.getType(codePoint).toByte() == Character.DECIMAL_DIGIT_NUMBER

    /**
     * Python's `str.isdigit()`: Numeric_Type Decimal or Digit, i.e. the decimal digits plus
     * the digit-valued symbols such as "²" and "①". Java has no Numeric_Type; a numeric value
     * of 0–9 alone would also take "౸" or "㆒" (Numeric_Type Numeric), which Python does not.
     */
    fun isDigit(codePoint: Int): Boolean = isDecimal(codePoint) || DIGIT_SYMBOLS.any { codePoint in it }

    /** The code points that are `isdigit()` but not `isdecimal()` in CPython 3.11 (Unicode 14). */
    private val DIGIT_SYMBOLS =
        listOf(
            0xB2..0xB3,
            0xB9..0xB9,
            0x1369..0x1371,
            0x19DA..0x19DA,
            0x2070..0x2070,
            0x2074..0x2079,
            0x2080..0x2089,
            0x2460..0x2468,
            0x2474..0x247C,
            0x2488..0x2490,
            0x24EA..0x24EA,
            0x24F5..0x24FD,
            0x24FF..0x24FF,
            0x2776..0x277E,
            0x2780..0x2788,
            0x278A..0x2792,
            0x10A40..0x10A43,
            0x10E60..0x10E68,
            0x11052..0x1105A,
            0x1F100..0x1F10A,
        )

    /**
     * Python's `str.isupper()`: at least one cased character, and no lower- or title-case one.
     * Java's case tests read the same Unicode properties (Other_Uppercase, Other_Lowercase) as
     * CPython's.
     */
    fun isUpper(text: String): Boolean {
        var cased = false
        for (codePoint in text.codePoints().toArray()) {
            if (Character.isLowerCase(codePoint) || Character.isTitleCase(codePoint)) return false
            if (Character.isUpperCase(codePoint)) cased = true
        }
        return cased
    }

    /**
     * Python's `str.casefold()` of one code point (full folding: "ß" → "ss"). Upper- then
     * lower-casing gives the full folding for every code point but these, measured against
     * CPython 3.11 over all of Unicode: ẞ folds to "ss" (Java lower-cases it to "ß"), dotless ı
     * stays ı (its upper case I would make it i), and Cherokee folds to its capitals (Java's
     * round trip ends on the small letters).
     */
    fun casefold(codePoint: Int): String =
        when (codePoint) {
            0x1E9E -> "ss"
            0x0131 -> "\u0131"
            in 0x13A0..0x13F5 -> String(Character.toChars(codePoint))
            in 0x13F8..0x13FD -> String(Character.toChars(codePoint - 8))
            in 0xAB70..0xABBF -> String(Character.toChars(codePoint - 0xAB70 + 0x13A0))
            else -> String(Character.toChars(codePoint)).uppercase().lowercase()
        }

    /** Python's `str.casefold()`: [casefold] of each code point. */
    fun casefold(text: String): String {
        val folded = StringBuilder()
        text.codePoints().forEach { folded.append(casefold(it)) }
        return folded.toString()
    }

    /** Python's `str.strip()`: Unicode whitespace off both ends. */
    fun strip(text: String): String = strip(text) { isSpace(it) }

    /** Python's `str.lstrip()`. */
    fun lstrip(text: String): String {
        val stripped = strip(text)
        return if (stripped.isEmpty()) "" else text.substring(text.indexOf(stripped))
    }

    /** Python's `str.rstrip()`. */
    fun rstrip(text: String): String {
        val stripped = strip(text)
        return if (stripped.isEmpty()) "" else text.substring(0, text.indexOf(stripped) + stripped.length)
    }

    /** Python's `str.strip(chars)`. */
    fun strip(
        text: String,
        chars: String,
    ): String {
        val set = chars.codePoints().toArray().toSet()
        return strip(text) { it in set }
    }

    /** Python's `str.rstrip(chars)`. */
    fun rstrip(
        text: String,
        chars: String,
    ): String {
        val set = chars.codePoints().toArray().toSet()
        var end = text.length
        while (end > 0) {
            val codePoint = text.codePointBefore(end)
            if (codePoint !in set) break
            end -= Character.charCount(codePoint)
        }
        return text.substring(0, end)
    }

    private inline fun strip(
        text: String,
        drop: (Int) -> Boolean,
    ): String {
        var start = 0
        while (start < text.length) {
            val codePoint = text.codePointAt(start)
            if (!drop(codePoint)) break
            start += Character.charCount(codePoint)
        }
        var end = text.length
        while (end > start) {
            val codePoint = text.codePointBefore(end)
            if (!drop(codePoint)) break
            end -= Character.charCount(codePoint)
        }
        return text.substring(start, end)
    }

    /** Python's `str.split()` with no arguments: runs of whitespace, no empty parts. */
    fun splitWhitespace(text: String): List<String> {
        val parts = mutableListOf<String>()
        val current = StringBuilder()
        text.codePoints().forEach { codePoint ->
            if (isSpace(codePoint)) {
                if (current.isNotEmpty()) parts.add(current.toString())
                current.setLength(0)
            } else {
                current.appendCodePoint(codePoint)
            }
        }
        if (current.isNotEmpty()) parts.add(current.toString())
        return parts
    }

    /** Python's `str.splitlines()`: every Unicode line boundary, no line terminators kept. */
    fun splitLines(text: String): List<String> {
        val lines = mutableListOf<String>()
        var start = 0
        var at = 0
        while (at < text.length) {
            val char = text[at]
            val isBreak =
                char == '\n' || char == '\r' || char in '\u000b'..'\u000c' ||
                    char in '\u001c'..'\u001e' || char == '\u0085' || char == '\u2028' || char == '\u2029'
            if (isBreak) {
                lines.add(text.substring(start, at))
                at += if (char == '\r' && at + 1 < text.length && text[at + 1] == '\n') 2 else 1
                start = at
            } else {
                at++
            }
        }
        if (start < text.length) lines.add(text.substring(start))
        return lines
    }

    /** Python's `\\s`: exactly the characters of [isSpace] (a class body, no brackets). */
    private const val SPACE_BODY = "\\t-\\r\\x1c- \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"

    /** Python's `\\w`: `isalnum()` (letters and every numeric character) or `_` (a class body). */
    private const val WORD_BODY = "\\p{L}\\p{N}_"
    private const val WORD = "[$WORD_BODY]"

    /**
     * Python's escapes that mean something else in Java, as Java pattern text: outside a
     * character class and inside one (a nested class is a union there). Java's `\\w` takes
     * combining marks and zero-width joiners and leaves out "²" or "½", so its `\\b` falls in
     * other places; Python's classes are spelled out instead.
     */
    private val ESCAPES: Map<Char, Pair<String, String>> =
        mapOf(
            's' to ("[$SPACE_BODY]" to SPACE_BODY),
            'S' to ("[^$SPACE_BODY]" to "[^$SPACE_BODY]"),
            'w' to (WORD to WORD_BODY),
            'W' to ("[^$WORD_BODY]" to "[^$WORD_BODY]"),
            'b' to ("(?:(?<=$WORD)(?!$WORD)|(?<!$WORD)(?=$WORD))" to "\\x08"),
            'B' to ("(?:(?<=$WORD)(?=$WORD)|(?<!$WORD)(?!$WORD))" to "\\B"),
        )

    /**
     * Compiles a Python `re` pattern with Python's str semantics: Unicode `\\d`, Python's `\\w`,
     * `\\W`, `\\b`, `\\B`, `\\s` and `\\S`, `(?P<name>…)` groups, and only `\\n` ends a line.
     */
    fun regex(
        pattern: String,
        ignoreCase: Boolean = false,
    ): Pattern {
        var flags = Pattern.UNICODE_CHARACTER_CLASS or Pattern.UNIX_LINES
        if (ignoreCase) flags = flags or Pattern.CASE_INSENSITIVE or Pattern.UNICODE_CASE
        return Pattern.compile(translate(pattern), flags)
    }

    /** [pattern] in Java's syntax with Python's meaning (see [ESCAPES]). */
    private fun translate(pattern: String): String {
        val out = StringBuilder()
        var inClass = false
        var at = 0
        while (at < pattern.length) {
            val char = pattern[at]
            when {
                char == '\\' && at + 1 < pattern.length -> {
                    val escaped = ESCAPES[pattern[at + 1]]
                    val replacement =
                        when {
                            escaped == null -> pattern.substring(at, at + 2)
                            inClass -> escaped.second
                            else -> escaped.first
                        }
                    out.append(replacement)
                    at += 2
                    continue
                }

                inClass && char == ']' -> {
                    inClass = false
                }

                !inClass && char == '[' -> {
                    inClass = true
                    // A `]` or `^]` right after the opening bracket is a literal, as in Python.
                    out.append(char)
                    at++
                    if (pattern.startsWith("^", at)) out.append(pattern[at++])
                    if (pattern.startsWith("]", at)) out.append("\\]").also { at++ }
                    continue
                }

                !inClass && pattern.startsWith("(?P<", at) -> {
                    out.append("(?<")
                    at += 4
                    continue
                }

                !inClass && pattern.startsWith("(?P=", at) -> {
                    val end = pattern.indexOf(')', at)
                    out.append("\\k<").append(pattern, at + 4, end).append('>')
                    at = end + 1
                    continue
                }
            }
            out.append(char)
            at++
        }
        return out.toString()
    }
}

/**
 * A string seen as Unicode code points, the unit Python indexes strings in. Spans in
 * reports and vectors are code-point offsets; [toCharIndex] converts them for Kotlin.
 */
internal class CodePointText(
    val text: String,
) {
    val points: IntArray = text.codePoints().toArray()
    val length: Int get() = points.size

    operator fun get(position: Int): Int = points[position]

    /** The UTF-16 offset of code point [position] (or of the end, for [length]). */
    fun toCharIndex(position: Int): Int = text.offsetByCodePoints(0, position)

    /** Code points [start, end) as a String (Python's `text[start:end]`). */
    fun slice(
        start: Int,
        end: Int,
    ): String = String(points, start, end - start)

    /** Python's `text.find(value, from)` in code points; -1 when absent. */
    fun find(
        value: IntArray,
        from: Int,
    ): Int {
        if (value.isEmpty()) return if (from <= length) from else -1
        var at = from
        while (at + value.size <= length) {
            var matched = true
            for (offset in value.indices) {
                if (points[at + offset] != value[offset]) {
                    matched = false
                    break
                }
            }
            if (matched) return at
            at++
        }
        return -1
    }
}
