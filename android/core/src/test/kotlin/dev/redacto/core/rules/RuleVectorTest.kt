package dev.redacto.core.rules

import com.google.gson.JsonArray
import com.google.gson.JsonElement
import com.google.gson.JsonObject
import com.google.gson.JsonPrimitive
import dev.redacto.core.Category
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.Fields
import dev.redacto.core.Mode
import dev.redacto.core.Span
import dev.redacto.core.Vectors
import dev.redacto.core.asObjectStrict
import dev.redacto.core.pipeline.sameJson
import dev.redacto.core.text.CodePointText
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory
import java.io.File
import java.util.concurrent.atomic.AtomicInteger

/**
 * Every golden vector in tests/vectors/rules runs through the Kotlin rules and must give
 * exactly the matches and detections tests/rules/test_rule_vectors.py expects of Python.
 */
class RuleVectorTest {
    @TestFactory
    fun `rule vectors`(): List<DynamicTest> =
        FILES.map { file ->
            DynamicTest.dynamicTest(file.nameWithoutExtension) {
                RAN.incrementAndGet()
                runVector(file)
            }
        }

    @Test
    fun `the vectors exercise every recognizer and both modes`() {
        val vectors = FILES.map { Vectors.load(it) }
        val seen = vectors.flatMap { vector -> vector.array("expected_matches").map { it.asJsonObject["recognizer"].asString } }.toSet()
        assertEquals(Rules.catalog.recognizers.keys, seen)
        assertEquals(setOf("image", "text"), vectors.map { it.string("mode") }.toSet())
    }

    companion object {
        private val FILES: List<File> = Vectors.files("rules")
        private val RAN = AtomicInteger()

        @JvmStatic
        @AfterAll
        fun `every rule vector file ran`() {
            assertTrue(FILES.isNotEmpty(), "no rule vectors found under ${Vectors.root}")
            assertEquals(FILES.size, RAN.get(), "rule vectors run vs files")
        }
    }

    private fun runVector(file: File) {
        val vector = Vectors.load(file)
        val mode = Mode.fromWire(vector.string("mode"))
        val payload = if (mode == Mode.TEXT) "text" else "elements"
        assertEquals(setOf("name", "description", "category", "mode", "expected_matches", "expected_detections", payload), vector.keys())
        assertEquals(file.nameWithoutExtension, vector.string("name"))
        val category = Category.fromLabel(vector.string("category")) ?: throw AssertionError("unknown category")
        val document =
            if (mode == Mode.TEXT) {
                Document.fromText(vector.string("text"))
            } else {
                Document.fromElements(
                    vector.array("elements").mapIndexed { i, raw ->
                        val element = Fields(raw.asObjectStrict("elements[$i]"), "elements[$i]")
                        element.onlyKeys(setOf("index", "text", "page"))
                        Element(element.int("index"), element.string("text"), page = if (element.has("page")) element.int("page") else 0)
                    },
                )
            }
        val matches = Rules.findRuleMatches(document, category)
        val detections = Rules.findRuleDetections(document, category)
        val gotMatches = JsonArray()
        val gotDetections = JsonArray()
        if (mode == Mode.TEXT) {
            matches.forEach {
                gotMatches.add(
                    json(
                        "recognizer" to it.recognizer,
                        "label" to it.label,
                        "value" to it.value,
                        "span" to spanJson(it.span!!),
                    ),
                )
            }
            detections.forEach { gotDetections.add(json("span" to spanJson(it.span!!), "label" to it.label, "value" to it.value!!)) }
            for (expected in vector.array("expected_detections")) {
                val span = expected.asJsonObject["span"].asJsonArray
                val text = CodePointText(document.text)
                assertEquals(
                    expected.asJsonObject["value"].asString,
                    text.slice(span[0].asInt, span[1].asInt),
                    "span does not hold the value",
                )
            }
        } else {
            matches.forEach {
                gotMatches.add(
                    json(
                        "recognizer" to it.recognizer,
                        "label" to it.label,
                        "value" to it.value,
                        "indices" to intsJson(it.indices),
                    ),
                )
            }
            detections.forEach { gotDetections.add(json("index" to JsonPrimitive(it.index!!), "label" to it.label, "value" to it.value!!)) }
        }
        val expectedMatches = vector.raw("expected_matches")
        val expectedDetections = vector.raw("expected_detections")
        assertTrue(sameJson(expectedMatches, gotMatches), "matches:\n expected $expectedMatches\n      got $gotMatches")
        assertTrue(sameJson(expectedDetections, gotDetections), "detections:\n expected $expectedDetections\n      got $gotDetections")
    }

    private fun json(vararg fields: Pair<String, Any>): JsonObject =
        JsonObject().apply {
            for ((key, value) in fields) add(key, if (value is JsonElement) value else JsonPrimitive(value.toString()))
        }

    private fun spanJson(span: Span): JsonArray = intsJson(listOf(span.start, span.end))

    private fun intsJson(values: List<Int>): JsonArray = JsonArray().apply { values.forEach { add(it) } }
}
