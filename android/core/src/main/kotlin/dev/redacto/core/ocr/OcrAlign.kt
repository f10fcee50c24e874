package dev.redacto.core.ocr

import dev.redacto.core.Box
import kotlin.math.abs
import kotlin.math.ceil
import kotlin.math.floor
import kotlin.math.max
import kotlin.math.min

/*
 * Word boxes widened to the word's own ink, whatever its contrast. Mirrors `ocr/align.py`
 * (the shared cases are tests/vectors/ocr/align.json): PP-OCR's word boxes drift on light
 * text (grey 0.8 on white: an e-mail's box began a word late), and growing to ink
 * ([growToInk]) sees only pixels darker than the page's Otsu threshold. Here the line's own
 * ink — pixels darker than its paper by a share of its own contrast — is grouped into words
 * by the gaps between them; when there are as many groups as OCR words, each box is widened
 * to cover its group (never narrowed). Otherwise, or on a tilted line, the line is left as is.
 */

/** Ink columns closer than this share of the line height belong to one word. */
const val ALIGN_WORD_GAP = 0.22

/** A line whose darkest pixel is closer than this to its paper holds no readable ink. */
const val ALIGN_MIN_CONTRAST = 24.0

/** A pixel is ink when it is darker than the paper by this share of the line's contrast. */
const val ALIGN_INK_SHARE = 0.3

/** A line rising more than this share of its height end to end is left alone. */
const val ALIGN_MAX_TILT = 0.25

/** How far past the line's outline, in line heights, its words' ink is looked for. */
const val ALIGN_LINE_MARGIN = 0.3

/** [line] with each word's box widened to its own ink in [gray] ([width] × rows, 8-bit, row-major). */
fun alignToInk(
    line: OcrLine,
    gray: IntArray,
    width: Int,
): OcrLine {
    val height = line.height
    if (line.words.isEmpty() || height < 6 || abs(line.corners[1].y - line.corners[0].y) > ALIGN_MAX_TILT * height) return line
    val rows = gray.size / width
    val top = max(floor(line.words.minOf { it.box.y0 }).toInt(), 0)
    val bottom = min(ceil(line.words.maxOf { it.box.y1 }).toInt(), rows)
    // The line's own outline bounds the search: beyond it lies the next column's text.
    val margin = ceil(ALIGN_LINE_MARGIN * height).toInt()
    val left = max(floor(line.corners.minOf { it.x }).toInt() - margin, 0)
    val right = min(ceil(line.corners.maxOf { it.x }).toInt() + margin, width)
    if (bottom - top < 2 || right - left < 2) return line
    val groups = inkGroups(gray, width, top, bottom, left, right, height) ?: return line
    if (groups.size != line.words.size) return line
    val aligned =
        line.words.zip(groups).map { (word, group) ->
            val inkX0 = (left + group.first).toDouble()
            val inkX1 = (left + group.second).toDouble()
            val centre = (word.box.x0 + word.box.x1) / 2
            if (centre < inkX0 - height || centre > inkX1 + height) return line
            word.copy(box = Box(min(word.box.x0, inkX0), word.box.y0, max(word.box.x1, inkX1), word.box.y1))
        }
    return line.copy(words = aligned)
}

/** Column ranges [start, end) of the band's ink, split at word gaps; null when the band has no ink worth the name. */
private fun inkGroups(
    gray: IntArray,
    width: Int,
    top: Int,
    bottom: Int,
    left: Int,
    right: Int,
    height: Double,
): List<Pair<Int, Int>>? {
    val band = IntArray((bottom - top) * (right - left))
    var at = 0
    for (y in top until bottom) for (x in left until right) band[at++] = gray[y * width + x]
    val paper = percentile(band, 0.9)
    val contrast = paper - band.min()
    if (contrast < ALIGN_MIN_CONTRAST) return null
    val limit = paper - ALIGN_INK_SHARE * contrast
    val bandWidth = right - left
    val inked = (0 until bandWidth).filter { x -> (0 until bottom - top).any { y -> band[y * bandWidth + x] <= limit } }
    if (inked.isEmpty()) return null
    val gap = max(ALIGN_WORD_GAP * height, 2.0)
    val groups = mutableListOf<Pair<Int, Int>>()
    var start = inked[0]
    for (i in 1 until inked.size) {
        if (inked[i] - inked[i - 1] > gap) {
            groups.add(start to inked[i - 1] + 1)
            start = inked[i]
        }
    }
    groups.add(start to inked.last() + 1)
    return groups
}

/** NumPy's default percentile (linear interpolation between the closest ranks). */
internal fun percentile(
    values: IntArray,
    share: Double,
): Double {
    val sorted = values.sorted()
    val position = share * (sorted.size - 1)
    val below = floor(position).toInt()
    val above = min(below + 1, sorted.size - 1)
    return sorted[below] + (position - below) * (sorted[above] - sorted[below])
}
