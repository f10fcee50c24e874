package dev.redacto.core.ocr

import dev.redacto.core.Box
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** Word boxes grown to their ink stop at the gap to the next word (as tests/ocr/test_ocr_geometry.py). */
class OcrLayoutTest {
    private fun page(vararg blocks: IntArray): InkMask {
        val width = 300
        val height = 120
        val dark = BooleanArray(width * height)
        for ((x0, y0, x1, y1) in blocks) {
            for (y in y0 until y1) for (x in x0 until x1) dark[y * width + x] = true
        }
        return InkMask(width, height, dark)
    }

    private fun line(
        left: Box,
        right: Box,
    ): OcrLine =
        OcrLine(
            listOf(OcrWord("to", left), OcrWord("jane@example.com", right)),
            listOf(Point(left.x0, left.y0), Point(right.x1, left.y0), Point(right.x1, left.y0 + 30), Point(left.x0, left.y0 + 30)),
        )

    @Test
    fun `a padded box never covers its neighbour's ink`() {
        val ink = page(intArrayOf(50, 40, 80, 70), intArrayOf(92, 40, 200, 70))
        val (left, right) = growToInk(line(Box(41.0, 40.0, 95.0, 70.0), Box(83.0, 40.0, 209.0, 70.0)), ink).words.map { it.box }
        assertTrue(left.x1 <= 92 && right.x0 >= 80)
        assertEquals(listOf(41.0, 86.0, 86.0, 209.0), listOf(left.x0, left.x1, right.x0, right.x1))
    }

    @Test
    fun `words whose ink touches are cut between their boxes`() {
        val ink = page(intArrayOf(50, 40, 200, 70))
        val (left, right) = growToInk(line(Box(50.0, 40.0, 110.0, 70.0), Box(100.0, 40.0, 200.0, 70.0)), ink).words.map { it.box }
        assertEquals(105.0, left.x1)
        assertEquals(105.0, right.x0)
    }
}
