package dev.redacto.core.imaging

import dev.redacto.core.Box
import dev.redacto.core.ocr.RgbImage
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * What the ink vectors (InkCoverVectorTest) cannot show: Pillow's grey where a per-mille
 * formula would be off by one, and that the check reads a large photo a few rows at a time.
 */
class InkCoverTest {
    @Test
    fun `the grey is Pillow's, rounded, where R·299 + G·587 + B·114 over 1000 truncates`() {
        // Pillow's convert("L") gives these; the per-mille formula gives 149, 156 and 39.
        assertEquals(150, luma(0xff00ff00.toInt()))
        assertEquals(157, luma(0xff78a0eb.toInt())) // a light-blue ink
        assertEquals(40, luma(0xff14285a.toInt())) // the dark-blue paper
        assertEquals(255, luma(-1))
        assertEquals(0, luma(0x00000000))
    }

    @Test
    fun `a box on a large photo is checked from a few reads of its own rows, never the whole photo`() {
        val width = 4000
        val height = 1000
        val argb = IntArray(width * height) { -1 }
        for (y in 505..535) for (x in 100..330) argb[y * width + x] = 0xff shl 24 // a word, cut by the box
        val photo = CountingPixels(RgbImage(width, height, argb))

        val covered = coverInk(photo, listOf(Box(100.0, 500.0, 300.0, 540.0)))

        assertEquals(listOf(Box(100.0, 500.0, 332.0, 540.0)), covered.boxes)
        assertEquals(emptyList<Box>(), covered.unresolved)
        assertTrue(photo.largest <= READ_PIXELS, "one read of ${photo.largest} pixels")
        // The paper's rows (one box height above and below: 120 rows), then the middle band twice.
        assertTrue(photo.total < width * 160, "${photo.total} pixels read of ${width * height}")
    }

    /** [RgbImage]'s pixels, counting what is read. */
    private class CountingPixels(
        private val image: RgbImage,
    ) : PhotoPixels by image {
        var total = 0L
        var largest = 0

        override fun read(
            x: Int,
            y: Int,
            columns: Int,
            rows: Int,
            into: IntArray,
        ) {
            total += columns.toLong() * rows
            largest = maxOf(largest, columns * rows)
            image.read(x, y, columns, rows, into)
        }
    }
}
