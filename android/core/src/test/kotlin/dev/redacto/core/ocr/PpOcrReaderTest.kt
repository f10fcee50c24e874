package dev.redacto.core.ocr

import dev.redacto.core.Element
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
    private val lines = FAKE_LINES

    private fun page(): RgbImage = fakePage()

    @Test
    fun `reads every word in reading order with boxes covering its line`() {
        val models = FakePpOcrModels(lines)
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
        val small = PpOcrReader(FakePpOcrModels(lines)).read(page())
        val large = PpOcrReader(FakePpOcrModels(lines)).read(page(), originalWidth = 800, originalHeight = 320)
        assertEquals(small.map { it.text }, large.map { it.text })
        small.zip(large).forEach { (s, l) ->
            assertEquals(checkNotNull(s.box).asList().map { it * 2 }, checkNotNull(l.box).asList())
        }
    }

    @Test
    fun `a blank page has no words and a page of unreadable regions is an error`() {
        val blank = RgbImage(200, 100, IntArray(200 * 100) { WHITE })
        assertEquals(emptyList<Element>(), PpOcrReader(FakePpOcrModels(lines)).read(blank))
        val error = assertThrows(OcrException::class.java) { PpOcrReader(FakePpOcrModels(lines, blank = true)).read(page()) }
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
