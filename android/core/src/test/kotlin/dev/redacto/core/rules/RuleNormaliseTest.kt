package dev.redacto.core.rules

import dev.redacto.core.Category
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.SharedVectors
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory

/**
 * [RuleNormalise] against Python's answers (tests/vectors/normalise, written by
 * `devtools/generated/shared_vectors.py`), and the rules on identifiers written with Unicode
 * tricks, as tests/rules/test_rule_unicode.py runs them in Python.
 */
class RuleNormaliseTest {
    @TestFactory
    fun vectors(): List<DynamicTest> =
        SharedVectors.tests("normalise/normalise.json", { it.string("name") }) { case ->
            case.string("description")
            val text = case.string("text")
            val read = RuleNormalise.normalise(text)
            assertEquals(case.string("normalised"), read.text)
            // The vectors count code points, as Python does; the core counts UTF-16 units.
            val origins =
                (0 until read.text.codePointCount(0, read.text.length)).map { point ->
                    val start = read.text.offsetByCodePoints(0, point)
                    val end = read.text.offsetByCodePoints(start, 1)
                    val (from, to) = read.sourceSpan(start, end)
                    listOf(text.codePointCount(0, from), text.codePointCount(0, to))
                }
            assertEquals(SharedVectors.intLists(case.array("origins"), "origins"), origins)
            assertEquals(read.text == text, read.unchanged)
        }

    @TestFactory
    fun `identifiers written with unicode tricks are found whole`(): List<DynamicTest> =
        MISSES.map { (text, recognizer, value) ->
            DynamicTest.dynamicTest("$recognizer: $text") {
                val matches = Rules.findRuleMatches(Document.fromText(text), Category.GENERAL)
                assertEquals(listOf(recognizer to value), matches.map { it.recognizer to it.value })
                val span = matches.single().span!!
                val start = text.offsetByCodePoints(0, span.start)
                assertEquals(value, text.substring(start, text.offsetByCodePoints(start, span.end - span.start)))
            }
        }

    @Test
    fun `image mode names every element of a value written with tricks`() {
        val words = listOf("SSN", "536\u201322\u20138741", "card", "４１１１", "１１１１", "１１１１", "１１１１")
        val document = Document.fromElements(words.mapIndexed { i, word -> Element(index = i, text = word) })
        val matches = Rules.findRuleMatches(document, Category.GENERAL)
        assertEquals(listOf("ssn" to listOf(1), "payment_card" to listOf(3, 4, 5, 6)), matches.map { it.recognizer to it.indices })
    }

    private companion object {
        const val CARD = "4111 1111 1111 1111"
        val MISSES =
            listOf(
                Triple("Card ４１１１ １１１１ １１１１ １１１１ ok", "payment_card", "４１１１ １１１１ １１１１ １１１１"),
                Triple("SSN ５３６－２２－８７４１.", "ssn", "５３６－２２－８７４１"),
                Triple("mail ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ now", "email", "ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ"),
                Triple("Card 4111\u00a01111\u00a01111\u00a01111 ok", "payment_card", CARD.replace(" ", "\u00a0")),
                Triple("Card 4111\u202f1111\u202f1111\u202f1111 ok", "payment_card", CARD.replace(" ", "\u202f")),
                Triple("Card 4111\u30001111\u30001111\u30001111 ok", "payment_card", CARD.replace(" ", "\u3000")),
                Triple("Card 4111\t1111\t1111\t1111 ok", "payment_card", CARD.replace(" ", "\t")),
                Triple("Card 4111\r\n1111\r\n1111\r\n1111 ok", "payment_card", CARD.replace(" ", "\r\n")),
                Triple("SSN 536\u201122\u20118741.", "ssn", "536\u201122\u20118741"),
                Triple("SSN 536\u201322\u20138741.", "ssn", "536\u201322\u20138741"),
                Triple("SSN 536\u221222\u22128741.", "ssn", "536\u221222\u22128741"),
                Triple("IBAN de89 3704 0044 0532 0130 00 ok", "iban", "de89 3704 0044 0532 0130 00"),
                Triple("to jane\u200b.doe@example.com.", "email", "jane\u200b.doe@example.com"),
                Triple("to jane.doe\u2060@example\ufeff.com!", "email", "jane.doe\u2060@example\ufeff.com"),
                Triple("to jane.doe@ex\u00adample.com.", "email", "jane.doe@ex\u00adample.com"),
                Triple("mail hans.mueller@bücher.de now", "email", "hans.mueller@bücher.de"),
                Triple("mail jürgen.müller@example.de now", "email", "jürgen.müller@example.de"),
                Triple("an «jürgen@müller.de» geschickt", "email", "jürgen@müller.de"),
                Triple("почта: иван@пример.рф.", "email", "иван@пример.рф"),
                Triple("mail: 用户@例子.广告 ok", "email", "用户@例子.广告"),
                Triple("mail ju\u0308rgen@example.de now", "email", "ju\u0308rgen@example.de"),
                Triple("mail \uD835\uDFD9ane@example.com", "email", "\uD835\uDFD9ane@example.com"),
            )
    }
}
