package dev.redacto.core.ocr

import kotlin.math.roundToInt

/*
 * A fake PP-OCR page and models, shared by the reader's tests and the photo input's: a page of
 * solid grey rectangles that the fake models read back as words.
 */

val WHITE = 0xffffffff.toInt()

/** A line of text drawn as a solid rectangle of its own grey level. */
data class FakeLine(
    val text: String,
    val gray: Int,
    val x0: Int,
    val y0: Int,
    val x1: Int,
    val y1: Int,
)

/** Three lines of a 400×160 page, out of reading order. */
val FAKE_LINES =
    listOf(
        FakeLine("Ward 7", 60, 20, 90, 300, 114),
        FakeLine("MRN 12345", 40, 220, 22, 380, 46),
        FakeLine("Patient Jane", 20, 20, 20, 180, 44),
    )

/** A white 400×160 page with [lines] drawn on it. */
fun fakePage(lines: List<FakeLine> = FAKE_LINES): RgbImage {
    val width = 400
    val height = 160
    val pixels = IntArray(width * height) { WHITE }
    for (line in lines) {
        val argb = (0xff shl 24) or (line.gray shl 16) or (line.gray shl 8) or line.gray
        for (y in line.y0 until line.y1) for (x in line.x0 until line.x1) pixels[y * width + x] = argb
    }
    return RgbImage(width, height, pixels)
}

/** A white [width]×[height] page: a photo with nothing on it. */
fun whitePage(
    width: Int,
    height: Int,
): RgbImage = RgbImage(width, height, IntArray(width * height) { WHITE })

/**
 * PP-OCR's two models, faked: the detector marks dark pixels as text, the recogniser tells
 * lines apart by their grey level and spells that line's text over CTC steps ([blank]: spells
 * nothing).
 */
class FakePpOcrModels(
    val lines: List<FakeLine> = FAKE_LINES,
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
