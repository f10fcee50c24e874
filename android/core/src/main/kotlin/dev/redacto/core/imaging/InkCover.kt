package dev.redacto.core.imaging

import dev.redacto.core.Box
import kotlin.math.abs
import kotlin.math.ceil
import kotlin.math.floor
import kotlin.math.max
import kotlin.math.min
import kotlin.math.round

/*
 * Boxes widened to the glyphs they cut, on the very pixels that are about to be burned.
 * Mirrors `ink_cover.py` step for step (the shared cases are tests/vectors/ink/): where a
 * glyph crosses a box's left or right edge, the box is widened along that glyph's word until
 * the gap to the next word, so no letter of a redacted value stays readable beside its box.
 * Ink is any pixel that differs from the paper around the box (the median of the rows from
 * one box height above to one below, across the whole photo) by INK_SHARE of the contrast
 * inside it, dark on light or light on dark. A word that runs on past INK_MAX_REACH box
 * heights is not followed: that box is unresolved, and the run must not burn (see [finish]).
 *
 * The photo is read through [PhotoPixels] a few rows at a time (READ_PIXELS at most), so the
 * app hands over its Bitmap without a second copy of the photo: the median comes from a
 * histogram of the rows, and the band of the glyphs' middle is read twice (its contrast, then
 * its ink) over only the columns a box can reach.
 */

/** A box whose pixels differ from the paper around it by less than this holds no ink. */
const val INK_MIN_CONTRAST = 24

/** A pixel is ink when it differs from the paper by this share of the box's contrast. */
const val INK_SHARE = 0.3

/** Ink this close to a box's edge (in box heights) is a glyph the edge cuts. */
const val INK_START_GAP = 0.1

/** A run of blank columns this wide (in box heights) ends a word (ocr.align's measure). */
const val INK_WORD_GAP = 0.22

/** How far past its edge, in box heights, a box is widened before the run gives up. */
const val INK_MAX_REACH = 12.0

/** Pixels read from [PhotoPixels] in one call: 1 MB of ARGB, whatever the photo's size. */
internal const val READ_PIXELS = 1 shl 18

/**
 * A photo's pixels as the burn check reads them: rectangles of packed ARGB (`0xAARRGGBB`,
 * `Bitmap.getPixels`' layout), so the app can read its Bitmap region by region instead of
 * copying it. [RgbImage] is one; the app's is a thin wrapper around `Bitmap.getPixels`.
 */
interface PhotoPixels {
    val width: Int
    val height: Int

    /**
     * Copies the [columns]×[rows] rectangle whose top-left pixel is ([x], [y]) into [into]
     * from index 0, row after row ([columns] values a row). The rectangle lies inside the
     * photo and [into] holds at least [columns]×[rows] values.
     */
    fun read(
        x: Int,
        y: Int,
        columns: Int,
        rows: Int,
        into: IntArray,
    )
}

/** 8-bit grey of one ARGB pixel exactly as Pillow's `convert("L")` computes it (alpha ignored). */
fun luma(argb: Int): Int = ((argb shr 16 and 0xff) * 19595 + (argb shr 8 and 0xff) * 38470 + (argb and 0xff) * 7471 + 0x8000) shr 16

/** The boxes to burn (one for each box given, in order), and those whose glyphs ran on past [INK_MAX_REACH]. */
data class InkCover(
    val boxes: List<Box>,
    val unresolved: List<Box>,
)

/** Each of [boxes] widened sideways over the glyphs its edges cut in [pixels] (Python's `cover_ink`). */
fun coverInk(
    pixels: PhotoPixels,
    boxes: List<Box>,
): InkCover {
    val reader = LumaReader(pixels)
    val covered = ArrayList<Box>(boxes.size)
    val unresolved = mutableListOf<Box>()
    for (box in boxes) {
        val (widened, resolved) = widen(reader, box)
        covered.add(widened)
        if (!resolved) unresolved.add(box)
    }
    return InkCover(covered, unresolved)
}

private fun widen(
    reader: LumaReader,
    box: Box,
): Pair<Box, Boolean> {
    val columns = reader.pixels.width
    val rows = reader.pixels.height
    val x0 = max(floor(box.x0).toInt(), 0)
    val y0 = max(floor(box.y0).toInt(), 0)
    val x1 = min(ceil(box.x1).toInt(), columns)
    val y1 = min(ceil(box.y1).toInt(), rows)
    val height = y1 - y0
    if (x1 - x0 < 1 || height < 4) return box to true
    // The glyphs' middle: an underline or a table rule below or above the words is not
    // followed sideways.
    val bandTop = y0 + height / 4
    val bandBottom = y1 - height / 4
    val paper = reader.median(0, columns, max(y0 - height, 0), min(y1 + height, rows))
    var contrast = 0.0
    reader.forEachRow(x0, x1, bandTop, bandBottom) { values, start ->
        for (i in start until start + x1 - x0) contrast = max(contrast, abs(luma(values[i]) - paper))
    }
    if (contrast < INK_MIN_CONTRAST) return box to true
    val reach = ceil(INK_MAX_REACH * height).toInt()
    // Only columns a follow can reach are read; the others stay blank and are never looked at.
    val margin = reach + blankLimit(height) + 1
    val inked = inkedColumns(reader, paper, INK_SHARE * contrast, max(x0 - margin, 0), min(x1 + margin, columns), bandTop, bandBottom)
    val (right, rightDone) = follow(inked, x1, 1, height, min(x1 + reach, columns))
    val (left, leftDone) = follow(inked, x0 - 1, -1, height, max(x0 - 1 - reach, -1))
    // A followed edge takes one more column: the glyph's anti-aliased rim, too faint for
    // two ink pixels in the band, is still a visible sliver.
    val newX0 = if (left + 1 < x0) left.toDouble() else box.x0
    val newX1 = if (right > x1) (right + 1).toDouble() else box.x1
    val widened = Box(max(newX0, 0.0), box.y0, min(newX1, columns.toDouble()), box.y1)
    return widened to (rightDone && leftDone)
}

/** Columns [left, right) of the band with two pixels or more at least [threshold] from [paper]; a full-width array. */
private fun inkedColumns(
    reader: LumaReader,
    paper: Double,
    threshold: Double,
    left: Int,
    right: Int,
    top: Int,
    bottom: Int,
): BooleanArray {
    // Two pixels of a column, not one: a photo's noise is a pixel here and there.
    val counts = IntArray(right - left)
    reader.forEachRow(left, right, top, bottom) { values, start ->
        for (i in counts.indices) if (abs(luma(values[start + i]) - paper) >= threshold) counts[i]++
    }
    val inked = BooleanArray(reader.pixels.width)
    for (i in counts.indices) inked[left + i] = counts[i] >= 2
    return inked
}

private fun blankLimit(height: Int): Int = max(1, round(INK_START_GAP * height).toInt())

/**
 * From the column just outside an edge, outward: the first column past the cut word's ink
 * (the edge itself when nothing is cut), and whether that word ended before [stop].
 *
 * An edge cuts a glyph when ink stands on both sides of it with less blank between than
 * [INK_START_GAP] box heights: letters of one word sit that close, a space between two words
 * does not, so a box that begins in the space before its word is not widened over the word
 * before. `round` is Python's: halves go to the even integer, as Kotlin's [round] does.
 */
private fun follow(
    inked: BooleanArray,
    edge: Int,
    step: Int,
    height: Int,
    stop: Int,
): Pair<Int, Boolean> {
    val blankLimit = blankLimit(height)
    val wordGap = max(2, round(INK_WORD_GAP * height).toInt())
    val inside = edge - step // the box's own last column on this side
    val firstIn = (0..blankLimit).map { inside - step * it }.firstOrNull { it in inked.indices && inked[it] } ?: return edge to true
    var column = edge
    var last: Int? = null
    while (column != stop && abs(column - firstIn) <= blankLimit + 1) {
        if (inked[column]) {
            last = column
            break
        }
        column += step
    }
    if (last == null) return edge to true
    column = last + step
    while (column != stop) {
        if (inked[column]) {
            last = column
        } else if (abs(column - checkNotNull(last)) > wordGap) {
            return last + step to true
        }
        column += step
    }
    // The image's edge ends every word.
    return checkNotNull(last) + step to (stop == -1 || stop == inked.size)
}

/** Reads [pixels] as luma a few rows at a time, into one reused buffer. */
private class LumaReader(
    val pixels: PhotoPixels,
) {
    private var buffer = IntArray(0)

    /** Calls [visit] for each row [top, bottom) of columns [left, right): ARGB at `values[start until start + right - left]`. */
    inline fun forEachRow(
        left: Int,
        right: Int,
        top: Int,
        bottom: Int,
        visit: (values: IntArray, start: Int) -> Unit,
    ) {
        val span = right - left
        val perRead = max(1, READ_PIXELS / span)
        var y = top
        while (y < bottom) {
            val rows = min(perRead, bottom - y)
            if (buffer.size < rows * span) buffer = IntArray(rows * span)
            pixels.read(left, y, span, rows, buffer)
            for (row in 0 until rows) visit(buffer, row * span)
            y += rows
        }
    }

    /** NumPy's median of the luma in the rectangle: the middle value, or the mean of the two middle ones. */
    fun median(
        left: Int,
        right: Int,
        top: Int,
        bottom: Int,
    ): Double {
        val histogram = LongArray(256)
        forEachRow(left, right, top, bottom) { values, start ->
            for (i in start until start + right - left) histogram[luma(values[i])]++
        }
        val count = histogram.sum()
        return (ranked(histogram, (count - 1) / 2) + ranked(histogram, count / 2)) / 2.0
    }

    /** The value at [rank] (from 0) in ascending order. */
    private fun ranked(
        histogram: LongArray,
        rank: Long,
    ): Int {
        var seen = 0L
        for (value in histogram.indices) {
            seen += histogram[value]
            if (seen > rank) return value
        }
        error("rank $rank past ${histogram.sum()} values")
    }
}
