package dev.redacto.core.ocr

import com.google.gson.JsonArray
import com.google.gson.JsonObject
import com.google.gson.JsonParser
import dev.redacto.core.Vectors
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File
import java.util.Base64
import kotlin.math.abs

/**
 * The Kotlin PP-OCR post-processing against RapidOCR's own answers on real model outputs
 * (tests/android/ppocr_golden.json, written by devtools/generated/ppocr_golden.py, checked for
 * staleness by test_ppocr_golden.py).
 */
class OcrGoldenTest {
    private val golden: JsonObject by lazy {
        val file = File(Vectors.root.parentFile, "android/ppocr_golden.json")
        JsonParser.parseString(file.readText()).asJsonObject
    }

    private fun JsonArray.quad(): List<Point> = map { p -> p.asJsonArray.let { Point(it[0].asDouble, it[1].asDouble) } }

    private fun assertQuad(
        expected: List<Point>,
        actual: List<Point>,
        tolerance: Double,
        what: String,
    ) {
        expected.zip(actual).forEach { (e, a) ->
            assertTrue(abs(e.x - a.x) <= tolerance && abs(e.y - a.y) <= tolerance, "$what: expected $expected, got $actual")
        }
    }

    @Test
    fun `DB post-processing finds RapidOCR's lines in RapidOCR's order`() {
        val det = golden.getAsJsonObject("det")
        val width = det["width"].asInt
        val height = det["height"].asInt
        val bytes = Base64.getDecoder().decode(det["prob_u8_base64"].asString)
        val prob = FloatArray(bytes.size) { (bytes[it].toInt() and 0xff) / 255f }
        val found = dbQuads(prob, width, height, width, height)
        val expected = det.getAsJsonObject("expected")
        val expectedFound = expected.getAsJsonArray("found").map { it.asJsonObject }
        assertEquals(expectedFound.size, found.size)
        for (want in expectedFound) {
            val quad = want.getAsJsonArray("quad").quad()
            val match = found.minBy { q -> q.corners.zip(quad).sumOf { (a, b) -> a.distanceTo(b) } }
            assertQuad(quad, match.corners, 1.0, "detected line")
            assertEquals(want["score"].asDouble, match.score, 0.01)
        }
        val sorted = sortDetectedQuads(found).map { it.corners }
        expected.getAsJsonArray("boxes").map { it.asJsonArray.quad() }.zip(sorted).forEach { (e, a) ->
            assertQuad(e, a, 1.0, "sorted line")
        }
    }

    @Test
    fun `CTC decoding and word boxes match RapidOCR on every line`() {
        for (element in golden.getAsJsonArray("rec")) {
            val case = element.asJsonObject
            val classes = case["classes"].asInt
            val table = MutableList(classes - 2) { "?" }
            case.getAsJsonObject("characters").entrySet().forEach { (index, char) ->
                val i = index.toInt()
                if (i in 1 until classes - 1) table[i - 1] = char.asString
            }
            val steps =
                CtcSteps(
                    case.getAsJsonArray("indices").map { it.asInt }.toIntArray(),
                    case.getAsJsonArray("probs").map { it.asFloat }.toFloatArray(),
                )
            val line = CtcDecoder(table).decode(steps, case["wh_ratio"].asDouble, case["max_wh_ratio"].asDouble)
            val expected = case.getAsJsonObject("expected")
            assertEquals(expected["text"].asString, line.text)
            assertEquals(expected["score"].asDouble, line.score, 1e-4)
            assertEquals(expected["word_cols"].asJsonArray.map { w -> w.asJsonArray.map { it.asInt } }, line.wordColumns)
            assertEquals(expected["line_txt_len"].asDouble, line.lineColumns, 1e-9)

            val words = wordQuads(line, case["crop_width"].asInt, case["crop_height"].asInt, case.getAsJsonArray("quad").quad())
            val expectedWords = expected.getAsJsonArray("words").map { it.asJsonObject }
            assertEquals(expectedWords.map { it["text"].asString }, words.map { it.text })
            expectedWords.zip(words).forEach { (e, a) ->
                val want = e.getAsJsonArray("quad").quad()
                // RapidOCR orders word corners by its own rule; compare the hulls.
                assertEquals(want.minOf { it.x }, a.corners.minOf { it.x }, 1.0, a.text)
                assertEquals(want.maxOf { it.x }, a.corners.maxOf { it.x }, 1.0, a.text)
                assertEquals(want.minOf { it.y }, a.corners.minOf { it.y }, 1.0, a.text)
                assertEquals(want.maxOf { it.y }, a.corners.maxOf { it.y }, 1.0, a.text)
            }
        }
    }

    @Test
    fun `reading order matches redacto's for forms, tilted photos and steep lines`() {
        val orders = golden.getAsJsonObject("layout").getAsJsonObject("orders")
        for ((name, value) in orders.entrySet()) {
            val case = value.asJsonObject
            val lines = case.getAsJsonArray("quads").map { OcrLine(emptyList(), it.asJsonArray.quad()) }
            val order = orderLines(lines).map { line -> lines.indexOfFirst { it === line } }
            assertEquals(case.getAsJsonArray("order").map { it.asInt }, order, name)
        }
    }

    @Test
    fun `padding and apportioned words match redacto's ppocr engine`() {
        val layout = golden.getAsJsonObject("layout")
        val padded = layout.getAsJsonObject("padded")
        val image = padded.getAsJsonArray("image")
        val box = paddedBox(padded.getAsJsonArray("quad").quad(), padded["pad"].asDouble, image[0].asInt, image[1].asInt)
        assertEquals(padded.getAsJsonArray("box").map { it.asDouble }, box.asList())

        val apportioned = layout.getAsJsonObject("apportioned")
        val size = apportioned.getAsJsonArray("image")
        val words =
            apportionedWords(
                apportioned["text"].asString,
                apportioned.getAsJsonArray("corners").quad(),
                apportioned["pad"].asDouble,
                size[0].asInt,
                size[1].asInt,
            )
        val expected = apportioned.getAsJsonArray("words").map { it.asJsonObject }
        assertEquals(expected.map { it["text"].asString }, words.map { it.text })
        expected.zip(words).forEach { (e, a) ->
            e
                .getAsJsonArray("box")
                .map { it.asDouble }
                .zip(a.box.asList())
                .forEach { (want, got) -> assertEquals(want, got, 1e-9) }
        }
    }
}
