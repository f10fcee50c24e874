package dev.redacto.core.imaging

import com.google.gson.JsonElement
import dev.redacto.core.Box
import dev.redacto.core.Fields
import dev.redacto.core.Vectors
import dev.redacto.core.asArrayStrict
import dev.redacto.core.asDoubleStrict
import dev.redacto.core.asIntStrict
import dev.redacto.core.ocr.RgbImage
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.TestFactory
import java.io.File
import java.util.Base64
import java.util.concurrent.atomic.AtomicInteger
import java.util.zip.Inflater
import kotlin.math.abs

/**
 * Every tests/vectors/ink case through [coverInk]: Pillow's grey of each colour of an RGB image
 * ([luma]), then the boxes to burn and the unresolved ones exactly as Python's `cover_ink`
 * answers them (coordinates within 1e-9). Written by `devtools/generated/ink_vectors.py`;
 * tests/imaging/test_ink_vectors.py checks the same files in Python.
 */
class InkCoverVectorTest {
    @TestFactory
    fun `ink vectors cover as Python covers them`(): List<DynamicTest> =
        FILES.map { file ->
            DynamicTest.dynamicTest(file.nameWithoutExtension) {
                RAN.incrementAndGet()
                val vector = Vectors.load(file)
                assertEquals(file.nameWithoutExtension, vector.string("name"))
                vector.string("description")
                val image = image(vector.obj("image"))
                for ((i, pair) in vector.array("greys").withIndex()) {
                    val (rgb, grey) = pair.asArrayStrict("greys[$i]").map { it.asIntStrict("greys[$i]") }
                    assertEquals(grey, luma(0xff shl 24 or rgb), "grey of #%06x".format(rgb))
                }
                val covered = coverInk(image, boxes(vector.array("boxes")))
                assertBoxes(boxes(vector.array("covered")), covered.boxes, "${file.name}: covered")
                assertBoxes(boxes(vector.array("unresolved")), covered.unresolved, "${file.name}: unresolved")
                vector.allRead()
            }
        }

    companion object {
        private val FILES: List<File> = Vectors.files("ink")
        private val RAN = AtomicInteger()

        @JvmStatic
        @AfterAll
        fun `every ink vector file ran`() {
            assertTrue(FILES.size >= 10, "${FILES.size} ink vectors under ${Vectors.root}")
            assertEquals(FILES.size, RAN.get(), "ink vectors run vs files")
        }
    }

    /** The stored pixels as ARGB: a grey level v is the colour (v, v, v), whose luma is v. */
    private fun image(fields: Fields): RgbImage {
        val width = fields.int("width")
        val height = fields.int("height")
        val channels =
            when (val mode = fields.string("mode")) {
                "L" -> 1
                "RGB" -> 3
                else -> error("image mode $mode")
            }
        val raw = inflate(Base64.getDecoder().decode(fields.string("zlib_base64")), width * height * channels)
        val argb =
            IntArray(width * height) {
                val at = it * channels
                val r = raw[at].toInt() and 0xff
                val (g, b) = if (channels == 1) r to r else (raw[at + 1].toInt() and 0xff) to (raw[at + 2].toInt() and 0xff)
                0xff shl 24 or (r shl 16) or (g shl 8) or b
            }
        fields.allRead()
        return RgbImage(width, height, argb)
    }

    private fun inflate(
        compressed: ByteArray,
        size: Int,
    ): ByteArray {
        val inflater = Inflater().apply { setInput(compressed) }
        val out = ByteArray(size)
        var filled = 0
        while (filled < size && !inflater.finished()) filled += inflater.inflate(out, filled, size - filled)
        check(filled == size && inflater.finished()) { "pixels are $filled bytes, expected $size" }
        inflater.end()
        return out
    }

    private fun boxes(elements: List<JsonElement>): List<Box> =
        elements.mapIndexed { i, element ->
            val (x0, y0, x1, y1) = element.asArrayStrict("box $i").map { it.asDoubleStrict("box $i") }
            Box(x0, y0, x1, y1)
        }

    private fun assertBoxes(
        expected: List<Box>,
        actual: List<Box>,
        what: String,
    ) {
        assertEquals(expected.size, actual.size, "$what: $actual")
        for ((want, got) in expected.zip(actual)) {
            assertTrue(want.asList().zip(got.asList()).all { (a, b) -> abs(a - b) <= 1e-9 }, "$what: expected $want, got $got")
        }
    }
}
