package dev.redacto.core.ocr

import dev.redacto.core.Box
import dev.redacto.core.Fields
import dev.redacto.core.Vectors
import dev.redacto.core.asArrayStrict
import dev.redacto.core.asDoubleStrict
import dev.redacto.core.asIntStrict
import dev.redacto.core.asObjectStrict
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.TestFactory

/** The shared cases of `align_to_ink` (tests/vectors/ocr/align.json), as Python runs them. */
class OcrAlignVectorTest {
    @TestFactory
    fun `align vectors`(): List<DynamicTest> =
        Vectors.files("ocr").flatMap { file ->
            val vector = Vectors.load(file)
            vector.string("name")
            vector.string("description")
            val width = vector.int("width")
            val height = vector.int("height")
            val cases =
                vector.array("cases").mapIndexed { i, element ->
                    val case = Fields(element.asObjectStrict("cases[$i]"), "cases[$i]")
                    DynamicTest.dynamicTest(case.string("name")) {
                        case.string("description")
                        val gray = IntArray(width * height) { 255 }
                        val grey = case.int("grey")
                        for (rectangle in case.array("ink")) {
                            val (x0, y0, x1, y1) = rectangle.asArrayStrict("ink").map { it.asIntStrict("ink") }
                            for (y in y0 until y1) for (x in x0 until x1) gray[y * width + x] = grey
                        }
                        val raw = case.obj("line")
                        val corners = raw.array("corners").map { c -> c.asArrayStrict("corners").map { it.asDoubleStrict("corners") }.let { Point(it[0], it[1]) } }
                        val words =
                            raw.array("words").mapIndexed { w, entry ->
                                val word = Fields(entry.asObjectStrict("words[$w]"), "words[$w]")
                                val (x0, y0, x1, y1) = word.array("box").map { it.asDoubleStrict("box") }
                                OcrWord(word.string("text"), Box(x0, y0, x1, y1)).also { word.allRead() }
                            }
                        raw.allRead()
                        val expected = case.array("expected_boxes").map { b -> b.asArrayStrict("expected_boxes").map { it.asDoubleStrict("box") } }
                        val aligned = alignToInk(OcrLine(words, corners), gray, width)
                        assertEquals(expected, aligned.words.map { listOf(it.box.x0, it.box.y0, it.box.x1, it.box.y1) })
                        case.allRead()
                    }
                }
            vector.allRead()
            cases
        }
}
