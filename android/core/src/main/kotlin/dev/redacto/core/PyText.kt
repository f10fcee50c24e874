package dev.redacto.core

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

    /** Python's `str.isdigit()`: decimal digits plus digit-valued symbols such as "²". */
    fun isDigit(codePoint: Int): Boolean =
        Character.isDigit(codePoint) ||
            (Character.getType(codePoint).toByte() == Character.OTHER_NUMBER && Character.getNumericValue(codePoint) in 0..9)

    /** Python's `str.casefold()` of one code point (full folding: "ß" → "ss"). */
    fun casefold(codePoint: Int): String {
        val single = String(Character.toChars(codePoint))
        return single.uppercase().lowercase()
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

    /** Python's `\\s`: exactly the characters of [isSpace]. */
    private const val SPACE_CLASS = "[\\t-\\r\\x1c- \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]"

    /**
     * Compiles a Python `re` pattern with Python's str semantics: Unicode `\\d`, `\\w`, `\\b`,
     * Python's whitespace set for `\\s`/`\\S`, and only `\\n` ends a line.
     */
    fun regex(
        pattern: String,
        ignoreCase: Boolean = false,
    ): Pattern {
        var flags = Pattern.UNICODE_CHARACTER_CLASS or Pattern.UNIX_LINES
        if (ignoreCase) flags = flags or Pattern.CASE_INSENSITIVE or Pattern.UNICODE_CASE
        val translated = pattern.replace("\\S", "[^" + SPACE_CLASS.substring(1)).replace("\\s", SPACE_CLASS)
        return Pattern.compile(translated, flags)
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
