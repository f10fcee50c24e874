package dev.redacto.core.text

import dev.redacto.core.Fields
import dev.redacto.core.SharedVectors
import dev.redacto.core.asIntStrict
import dev.redacto.core.asObjectStrict
import dev.redacto.core.asStringStrict
import dev.redacto.core.pipeline.codePointsOf
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.TestFactory

/**
 * [PyText] against CPython's own answers (tests/vectors/text): character classes, case
 * mappings, strip/split/splitlines and `re` semantics. Kotlin's `lowercase()`/`uppercase()`
 * stand for Python's `lower()`/`upper()` where the core uses them, so they are checked too.
 */
class PyTextVectorTest {
    private fun codePoint(text: String): Int {
        val points = codePointsOf(text)
        check(points.size == 1) { "not one character: $text" }
        return points[0]
    }

    @TestFactory
    fun characters(): List<DynamicTest> =
        SharedVectors.tests("text/characters.json", { it.string("name") }) { case ->
            val char = case.string("char")
            val point = codePoint(char)
            val expected = listOf("isspace", "isalpha", "isalnum", "isdecimal", "isdigit", "isupper").associateWith { case.bool(it) }
            val actual =
                mapOf(
                    "isspace" to PyText.isSpace(point),
                    "isalpha" to PyText.isAlpha(point),
                    "isalnum" to PyText.isAlnum(point),
                    "isdecimal" to PyText.isDecimal(point),
                    "isdigit" to PyText.isDigit(point),
                    "isupper" to PyText.isUpper(char),
                )
            assertEquals(expected, actual)
            assertEquals(
                listOf(case.string("casefold"), case.string("lower"), case.string("upper")),
                listOf(PyText.casefold(point), char.lowercase(), char.uppercase()),
            )
        }

    @TestFactory
    fun strings(): List<DynamicTest> =
        SharedVectors.tests("text/strings.json", { it.string("text") }) { case ->
            val text = case.string("text")
            assertEquals(case.string("strip"), PyText.strip(text), "strip")
            assertEquals(case.string("lstrip"), PyText.lstrip(text), "lstrip")
            assertEquals(case.string("rstrip"), PyText.rstrip(text), "rstrip")
            assertEquals(SharedVectors.strings(case.array("split"), "split"), PyText.splitWhitespace(text), "split")
            assertEquals(SharedVectors.strings(case.array("splitlines"), "splitlines"), PyText.splitLines(text), "splitlines")
            assertEquals(case.bool("isupper"), PyText.isUpper(text), "isupper")
            assertEquals(case.string("casefold"), PyText.casefold(text), "casefold")
            assertEquals(case.string("lower"), text.lowercase(), "lower")
            assertEquals(case.string("upper"), text.uppercase(), "upper")
        }

    @TestFactory
    fun `strip and rstrip with characters`(): List<DynamicTest> =
        SharedVectors.tests("text/strip_chars.json", { it.string("text") }) { case ->
            val text = case.string("text")
            val chars = case.string("chars")
            assertEquals(case.string("strip"), PyText.strip(text, chars), "strip")
            assertEquals(case.string("rstrip"), PyText.rstrip(text, chars), "rstrip")
        }

    @TestFactory
    fun regex(): List<DynamicTest> =
        SharedVectors.tests("text/regex.json", { it.string("pattern") }) { case ->
            case.string("description")
            val text = case.string("text")
            val matcher = PyText.regex(case.string("pattern"), ignoreCase = case.bool("ignore_case")).matcher(text)
            val found = mutableListOf<Pair<List<Int>, List<String?>>>()
            while (matcher.find()) {
                val span = listOf(text.codePointCount(0, matcher.start()), text.codePointCount(0, matcher.end()))
                found.add(span to (1..matcher.groupCount()).map { matcher.group(it) })
            }
            val expected =
                case.array("matches").mapIndexed { i, element ->
                    val match = Fields(element.asObjectStrict("matches[$i]"), "matches[$i]")
                    val span = match.array("span").map { it.asIntStrict("span") }
                    val groups = match.array("groups").map { if (it.isJsonNull) null else it.asStringStrict("groups") }
                    match.allRead()
                    span to groups
                }
            assertEquals(expected, found)
        }
}
