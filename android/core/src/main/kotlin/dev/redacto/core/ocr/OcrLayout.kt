package dev.redacto.core.ocr

import dev.redacto.core.Box
import dev.redacto.core.Element
import dev.redacto.core.text.PyText
import kotlin.math.abs
import kotlin.math.atan2
import kotlin.math.ceil
import kotlin.math.cos
import kotlin.math.floor
import kotlin.math.max
import kotlin.math.min
import kotlin.math.sin

/*
 * From recognised lines to the pipeline's elements: word boxes padded and grown to the ink,
 * lines in reading order, one element per word. Mirrors `redacto/ocr/base.py` and the word
 * handling of `redacto/ocr/ppocr.py`, so the phone numbers the words of a page as the
 * workstation does (the golden file tests/android/ppocr_golden.json holds Python's answers).
 */

/** A recognised word and its box in pixels of the image OCR ran on. */
data class OcrWord(
    val text: String,
    val box: Box,
)

/** A text line: its words left to right and its outline, clockwise from top-left. */
data class OcrLine(
    val words: List<OcrWord>,
    val corners: List<Point>,
) {
    val height: Double get() = corners[0].distanceTo(corners[3])
    val width: Double get() = corners[0].distanceTo(corners[1])
    val center: Point get() = Point(corners.sumOf { it.x } / 4, corners.sumOf { it.y } / 4)

    fun topEdgeAngle(): Double = atan2(corners[1].y - corners[0].y, corners[1].x - corners[0].x)
}

/** Sideways padding of PP-OCR word boxes, as a fraction of the line height (docs/ocr.md). */
const val PPOCR_PAD_RATIO = 0.3
private const val MIN_ASPECT_FOR_SKEW = 3.0
private const val MAX_SKEW_DEGREES = 15.0

/** The page's tilt in radians: the median slope of its long lines (0 if none, or too steep). */
fun pageSkew(lines: List<OcrLine>): Double {
    val angles = lines.filter { it.height > 0 && it.width / it.height >= MIN_ASPECT_FOR_SKEW }.map { it.topEdgeAngle() }.sorted()
    if (angles.isEmpty()) return 0.0
    val middle = angles.size / 2
    val skew = if (angles.size % 2 == 1) angles[middle] else (angles[middle - 1] + angles[middle]) / 2
    return if (abs(Math.toDegrees(skew)) <= MAX_SKEW_DEGREES) skew else 0.0
}

/**
 * Lines in rows top to bottom, each row left to right, after undoing the page's tilt. Two
 * lines share a row when their centres are closer than half the smaller line height.
 */
fun orderLines(lines: List<OcrLine>): List<OcrLine> {
    if (lines.isEmpty()) return emptyList()
    val skew = pageSkew(lines)
    val c = cos(-skew)
    val s = sin(-skew)
    val placed =
        lines
            .map { line ->
                val p = line.center
                Point(p.x * c - p.y * s, p.x * s + p.y * c) to line
            }.sortedBy { it.first.y }
    val rows = mutableListOf<MutableList<Pair<Point, OcrLine>>>()
    for (item in placed) {
        val row = rows.lastOrNull()
        if (row != null) {
            val rowY = row.sumOf { it.first.y } / row.size
            val rowHeight = row.minOf { it.second.height }
            if (abs(item.first.y - rowY) < 0.5 * min(rowHeight, item.second.height)) {
                row.add(item)
                continue
            }
        }
        rows.add(mutableListOf(item))
    }
    return rows.flatMap { row -> row.sortedBy { it.first.x }.map { it.second } }
}

/** The words of ordered lines as elements 0..n-1 on page 0. */
fun elementsFromLines(lines: List<OcrLine>): List<Element> =
    lines.flatMap { it.words }.mapIndexed { index, word -> Element(index = index, text = word.text, box = word.box, page = 0) }

/** The axis-aligned hull of a word quad, widened by [pad] on each side, clipped to the image. */
fun paddedBox(
    corners: List<Point>,
    pad: Double,
    width: Int,
    height: Int,
): Box =
    Box(
        x0 = max(corners.minOf { it.x } - pad, 0.0),
        y0 = max(corners.minOf { it.y }, 0.0),
        x1 = min(corners.maxOf { it.x } + pad, width.toDouble()),
        y1 = min(corners.maxOf { it.y }, height.toDouble()),
    )

/** Splits a line's box among its words by character count (a line without word boxes). */
fun apportionedWords(
    text: String,
    corners: List<Point>,
    pad: Double,
    width: Int,
    height: Int,
): List<OcrWord> {
    val left = corners.minOf { it.x }
    val perChar = (corners.maxOf { it.x } - left) / max(text.length, 1)
    val top = corners.minOf { it.y }
    val bottom = corners.maxOf { it.y }
    var cursor = 0
    return PyText.splitWhitespace(text).map { token ->
        val start = text.indexOf(token, cursor)
        cursor = start + token.length
        val quad = listOf(Point(left + start * perChar, top), Point(left + cursor * perChar, bottom))
        OcrWord(token, paddedBox(quad, pad, width, height))
    }
}

/** Dark pixels of a grey image (Otsu's threshold), row-major. */
class InkMask(
    val width: Int,
    val height: Int,
    private val dark: BooleanArray,
) {
    operator fun get(
        x: Int,
        y: Int,
    ): Boolean = dark[y * width + x]

    companion object {
        /** Otsu's threshold on 8-bit grey levels; a pixel at or below it is ink. */
        fun of(
            gray: IntArray,
            width: Int,
            height: Int,
        ): InkMask {
            val histogram = DoubleArray(256)
            gray.forEach { histogram[it]++ }
            var weightDark = 0.0
            var sumDark = 0.0
            val total = gray.size.toDouble()
            val sumAll = histogram.indices.sumOf { it * histogram[it] }
            var best = -1.0
            var threshold = 0
            for (level in 0..255) {
                weightDark += histogram[level]
                sumDark += level * histogram[level]
                val weightLight = total - weightDark
                val meanDark = sumDark / max(weightDark, 1.0)
                val meanLight = (sumAll - sumDark) / max(weightLight, 1.0)
                val between = weightDark * weightLight * (meanDark - meanLight) * (meanDark - meanLight)
                if (between > best) {
                    best = between
                    threshold = level
                }
            }
            return InkMask(width, height, BooleanArray(gray.size) { gray[it] <= threshold })
        }
    }
}

/**
 * Each word's horizontal limits: the middle of the blank gap to either neighbour. Padding
 * widens a word box into the space beside it, and growing to ink would then take in the
 * neighbour's first letter; between two words of a line the cut is the middle of the widest
 * ink-free column run between their centres (nearest the middle of the two boxes on a tie),
 * and where the glyphs touch, the middle between the two boxes. Mirrors `ocr.base.word_gaps`.
 */
fun wordGaps(
    line: OcrLine,
    ink: InkMask,
): List<Pair<Double, Double>> {
    val cuts = line.words.zipWithNext { left, right -> gapCut(left, right, ink) }
    return (listOf(0.0) + cuts).zip(cuts + ink.width.toDouble())
}

/** Where the space between two neighbouring words of a line is cut (see [wordGaps]). */
private fun gapCut(
    left: OcrWord,
    right: OcrWord,
    ink: InkMask,
): Double {
    val start = max(floor((left.box.x0 + left.box.x1) / 2).toInt(), 0)
    val end = min(ceil((right.box.x0 + right.box.x1) / 2).toInt(), ink.width)
    val top = max(floor(min(left.box.y0, right.box.y0)).toInt(), 0)
    val bottom = min(ceil(max(left.box.y1, right.box.y1)).toInt(), ink.height)
    val middle = (left.box.x1 + right.box.x0) / 2
    if (end <= start || bottom <= top) return middle
    val runs = blankRuns((start until end).map { x -> (top until bottom).none { ink[x, it] } })
    if (runs.isEmpty()) return middle
    // Widest first, then nearest the middle; the first such run on a tie (as Python's max).
    val best =
        runs.reduce { best, run ->
            val runKey = run.second - run.first
            val bestKey = best.second - best.first
            val runNear = -abs(start + (run.first + run.second) / 2.0 - middle)
            val bestNear = -abs(start + (best.first + best.second) / 2.0 - middle)
            if (runKey > bestKey || (runKey == bestKey && runNear > bestNear)) run else best
        }
    return start + (best.first + best.second) / 2.0
}

/** [start, end) of each run of true values. */
private fun blankRuns(flags: List<Boolean>): List<Pair<Int, Int>> {
    val runs = mutableListOf<Pair<Int, Int>>()
    var runStart = -1
    flags.forEachIndexed { position, blank ->
        if (blank && runStart < 0) runStart = position
        if (!blank && runStart >= 0) {
            runs.add(runStart to position)
            runStart = -1
        }
    }
    if (runStart >= 0) runs.add(runStart to flags.size)
    return runs
}

/**
 * Widens each word box while ink crosses its edge, by at most [reachX]/[reachY] line heights:
 * a descender or a trailing period outside the OCR box is blacked out with its word. Sideways
 * a box never passes the gap to its neighbour ([wordGaps]), so it covers its own word's ink
 * and none of the next word's. Mirrors `ocr.base.grow_to_ink`.
 */
fun growToInk(
    line: OcrLine,
    ink: InkMask,
    reachX: Double = 0.5,
    reachY: Double = 0.35,
): OcrLine {
    val marginX = ceil(reachX * line.height).toInt()
    val marginY = ceil(reachY * line.height).toInt()
    val words =
        line.words.zip(wordGaps(line, ink)).map { (word, limits) ->
            val (leftLimit, rightLimit) = limits
            val ownX0 = max(word.box.x0, leftLimit)
            val own = Box(ownX0, word.box.y0, max(min(word.box.x1, rightLimit), ownX0), word.box.y1)
            var x0 = max(floor(own.x0).toInt(), 0)
            var y0 = max(floor(own.y0).toInt(), 0)
            var x1 = min(ceil(own.x1).toInt(), ink.width)
            var y1 = min(ceil(own.y1).toInt(), ink.height)
            if (x1 <= x0 || y1 <= y0) return@map word.copy(box = own)
            val lowX = maxOf(x0 - marginX, ceil(leftLimit).toInt(), 0)
            val highX = minOf(x1 + marginX, floor(rightLimit).toInt(), ink.width)
            val lowY = max(y0 - marginY, 0)
            val highY = min(y1 + marginY, ink.height)

            fun column(x: Int) = (y0 until y1).any { ink[x, it] }

            fun row(y: Int) = (x0 until x1).any { ink[it, y] }
            var changed = true
            while (changed) {
                changed = false
                if (x0 > lowX && column(x0 - 1)) x0--.also { changed = true }
                if (x1 < highX && column(x1)) x1++.also { changed = true }
                if (y0 > lowY && row(y0 - 1)) y0--.also { changed = true }
                if (y1 < highY && row(y1)) y1++.also { changed = true }
            }
            val box =
                Box(
                    min(own.x0, x0.toDouble()),
                    min(own.y0, y0.toDouble()),
                    max(own.x1, x1.toDouble()),
                    max(own.y1, y1.toDouble()),
                )
            word.copy(box = box)
        }
    return line.copy(words = words)
}

/** Maps a line from a downscaled working image back to the original, clipped to it. */
fun rescaleLine(
    line: OcrLine,
    factorX: Double,
    factorY: Double,
    width: Int,
    height: Int,
): OcrLine {
    if (factorX == 1.0 && factorY == 1.0) return line

    fun scale(box: Box) =
        Box(
            (box.x0 * factorX).coerceIn(0.0, width.toDouble()),
            (box.y0 * factorY).coerceIn(0.0, height.toDouble()),
            (box.x1 * factorX).coerceIn(0.0, width.toDouble()),
            (box.y1 * factorY).coerceIn(0.0, height.toDouble()),
        )
    return OcrLine(line.words.map { it.copy(box = scale(it.box)) }, line.corners.map { Point(it.x * factorX, it.y * factorY) })
}
