package dev.redacto.core

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import kotlin.math.roundToInt

/**
 * The whole PP-OCR reader (resize, detect, straighten, batch, decode, words, padding, ink,
 * reading order, scaling back) with fake models: the detector marks dark pixels as text, the
 * recogniser tells lines apart by their grey level and spells that line's text over CTC steps.
 */
class PpOcrReaderTest {
    private val white = 0xffffffff.toInt()

    /** A line of text drawn as a solid rectangle of its own grey level. */
    private data class FakeLine(
        val text: String,
        val gray: Int,
        val x0: Int,
        val y0: Int,
        val x1: Int,
        val y1: Int,
    )

    private val lines =
        listOf(
            FakeLine("Ward 7", 60, 20, 90, 300, 114),
            FakeLine("MRN 12345", 40, 220, 22, 380, 46),
            FakeLine("Patient Jane", 20, 20, 20, 180, 44),
        )

    private fun page(): RgbImage {
        val width = 400
        val height = 160
        val pixels = IntArray(width * height) { white }
        for (line in lines) {
            val argb = (0xff shl 24) or (line.gray shl 16) or (line.gray shl 8) or line.gray
            for (y in line.y0 until line.y1) for (x in line.x0 until line.x1) pixels[y * width + x] = argb
        }
        return RgbImage(width, height, pixels)
    }

    private class FakeModels(
        val lines: List<FakeLine>,
        val blank: Boolean = false,
    ) : PpOcrModels {
        override val dictionary: List<String> =
            lines
                .flatMap { it.text.toList() }
                .filter { it != ' ' }
                .map { it.toString() }
                .distinct()
        private val space = dictionary.size + 1
        var detectorInputs = mutableListOf<Pair<Int, Int>>()

        override fun detect(
            input: FloatArray,
            height: Int,
            width: Int,
        ): FloatArray {
            detectorInputs.add(height to width)
            return FloatArray(height * width) { if (input[it] < 0f) 0.9f else 0.02f }
        }

        override fun recognize(
            input: FloatArray,
            count: Int,
            width: Int,
        ): List<CtcSteps> {
            val plane = REC_HEIGHT * width
            return (0 until count).map { slot ->
                var darkest = 1f
                var inkColumns = 0
                for (x in 0 until width) {
                    var column = 1f
                    for (y in 0 until REC_HEIGHT) column = minOf(column, input[slot * 3 * plane + y * width + x])
                    darkest = minOf(darkest, column)
                    if (column < 0f) inkColumns = x + 1
                }
                val gray = ((darkest * 0.5f + 0.5f) * 255).roundToInt()
                val line = lines.minBy { kotlin.math.abs(it.gray - gray) }
                val steps = width / 8
                val indices = IntArray(steps)
                if (!blank) {
                    val used = inkColumns / 8
                    line.text.forEachIndexed { k, char ->
                        val at = ((k + 0.5) * used / line.text.length).toInt().coerceIn(0, steps - 1)
                        indices[at] = if (char == ' ') space else dictionary.indexOf(char.toString()) + 1
                    }
                }
                CtcSteps(indices, FloatArray(steps) { 0.95f })
            }
        }
    }

    @Test
    fun `reads every word in reading order with boxes covering its line`() {
        val models = FakeModels(lines)
        val elements = PpOcrReader(models).read(page())
        assertEquals(listOf("Patient", "Jane", "MRN", "12345", "Ward", "7"), elements.map { it.text })
        assertEquals(elements.indices.toList(), elements.map { it.index })
        // The detector saw RapidOCR's input size: short side 736 (int(400 × 4.6) is 1839), multiples of 32.
        assertEquals(listOf(736 to 1824), models.detectorInputs)
        for (line in lines) {
            val words = elements.filter { it.text in line.text.split(" ") }.map { checkNotNull(it.box) }
            val inkCovered =
                (line.x0 until line.x1).count { x ->
                    words.any {
                        it.x0 <= x && x + 1 <= it.x1 && it.y0 <= line.y0 &&
                            line.y1 <= it.y1
                    }
                }
            assertEquals(line.x1 - line.x0, inkCovered, "every column of ${line.text} is under a box")
            // Detected lines are unclipped by ~0.7 line heights (DB), words padded by 0.3 of that.
            words.forEach { box ->
                assertTrue(
                    box.x0 >= line.x0 - 40 && box.x1 <= line.x1 + 40 && box.y0 >= line.y0 - 20 && box.y1 <= line.y1 + 20,
                    "$box near $line",
                )
            }
        }
    }

    @Test
    fun `boxes come back in pixels of the original photo`() {
        val small = PpOcrReader(FakeModels(lines)).read(page())
        val large = PpOcrReader(FakeModels(lines)).read(page(), originalWidth = 800, originalHeight = 320)
        assertEquals(small.map { it.text }, large.map { it.text })
        small.zip(large).forEach { (s, l) ->
            assertEquals(checkNotNull(s.box).asList().map { it * 2 }, checkNotNull(l.box).asList())
        }
    }

    @Test
    fun `a blank page has no words and a page of unreadable regions is an error`() {
        val blank = RgbImage(200, 100, IntArray(200 * 100) { white })
        assertEquals(emptyList<Element>(), PpOcrReader(FakeModels(lines)).read(blank))
        val error = assertThrows(OcrException::class.java) { PpOcrReader(FakeModels(lines, blank = true)).read(page()) }
        assertTrue("3 text regions" in error.message!!, error.message)
    }

    @Test
    fun `working size caps the long side and keeps the aspect`() {
        assertEquals(1500 to 1000, workingSize(1500, 1000))
        assertEquals(2000 to 1500, workingSize(4000, 3000))
        assertEquals(1333 to 2000, workingSize(4000, 6000))
    }

    @Test
    fun `straightening an upright quad copies the pixels and a tall one is turned`() {
        val image = RgbImage(4, 3, IntArray(12) { (0xff shl 24) or it })
        val quad = listOf(Point(1.0, 0.0), Point(3.0, 0.0), Point(3.0, 2.0), Point(1.0, 2.0))
        assertEquals(listOf(1, 2, 5, 6), image.straightened(quad).argb.map { it and 0xffffff })
        val turned = image.rotatedCounterClockwise()
        assertEquals(3 to 4, turned.width to turned.height)
        // numpy.rot90([[0,1,2,3],[4,5,6,7],[8,9,10,11]]) starts with the last column.
        assertEquals(listOf(3, 7, 11, 2, 6, 10), turned.argb.take(6).map { it and 0xffffff })
    }

    @Test
    fun `model input is normalised BGR planes`() {
        val image = RgbImage(1, 1, intArrayOf((0xff shl 24) or (255 shl 16) or (0 shl 8) or 51))
        val planes = FloatArray(3)
        image.writeChw(planes)
        assertEquals(listOf(-0.6f, -1f, 1f), planes.map { (it * 1000).roundToInt() / 1000f })
    }

    @Test
    fun `best class per step is the arg-max of each row`() {
        val scores = floatArrayOf(0.1f, 0.7f, 0.2f, 0.6f, 0.3f, 0.1f)
        val steps = CtcSteps.best(scores, steps = 2, classes = 3)
        assertEquals(listOf(1, 0), steps.indices.toList())
        assertEquals(listOf(0.7f, 0.6f), steps.probs.toList())
    }

    @Test
    fun `the dictionary comes from model metadata with Python's line breaks`() {
        val decoder = CtcDecoder.fromMetadata("a\nb\r\nc")
        assertEquals(5, decoder.classes)
        val line = decoder.decode(CtcSteps(intArrayOf(1, 1, 0, 1, 4, 3), FloatArray(6) { 0.5f }), 1.0, 1.0)
        assertEquals("aa c", line.text)
    }
}
