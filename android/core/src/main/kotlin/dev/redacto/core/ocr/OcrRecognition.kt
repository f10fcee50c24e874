package dev.redacto.core.ocr

import dev.redacto.core.text.PyText
import kotlin.math.ceil
import kotlin.math.max
import kotlin.math.min
import kotlin.math.roundToInt

/*
 * PP-OCR text recognition, after the model: CTC decoding and word boxes.
 *
 * A port of RapidOCR 3.10's `CTCLabelDecode` (with word grouping) and `CalRecBoxes`: the
 * recogniser answers one class per column of the line image; repeated classes collapse,
 * blanks drop out, and each word's box is estimated from the columns its characters were read
 * in, then mapped from the straightened line image back onto the page.
 */

/** The most likely class and its probability at each time step of one recognised line. */
class CtcSteps(
    val indices: IntArray,
    val probs: FloatArray,
) {
    init {
        require(indices.size == probs.size) { "indices and probabilities differ in length" }
    }

    companion object {
        /** Arg-max over [classes] for each of [steps] rows of [scores], starting at [offset]. */
        fun best(
            scores: FloatArray,
            steps: Int,
            classes: Int,
            offset: Int = 0,
        ): CtcSteps {
            val indices = IntArray(steps)
            val probs = FloatArray(steps)
            for (t in 0 until steps) {
                val row = offset + t * classes
                var bestClass = 0
                for (c in 1 until classes) if (scores[row + c] > scores[row + bestClass]) bestClass = c
                indices[t] = bestClass
                probs[t] = scores[row + bestClass]
            }
            return CtcSteps(indices, probs)
        }
    }
}

/** A decoded line: text, mean character confidence, and each word's characters' columns. */
data class DecodedLine(
    val text: String,
    val score: Double,
    val wordColumns: List<List<Int>>,
    val wordTokens: List<List<String>>,
    val wordIsCjk: List<Boolean>,
    val lineColumns: Double,
)

/** One word and its quad in page pixels. */
data class WordQuad(
    val text: String,
    val corners: List<Point>,
)

/**
 * CTC decoding over the recogniser's dictionary. [characters] is the model's `character`
 * metadata split into lines; the blank (class 0) and the space (last class) are added here.
 */
class CtcDecoder(
    characters: List<String>,
) {
    private val table: List<String> = listOf("blank") + characters + " "

    val classes: Int get() = table.size

    /** RapidOCR's decode with duplicates removed and word grouping on. */
    fun decode(
        steps: CtcSteps,
        whRatio: Double,
        maxWhRatio: Double,
    ): DecodedLine {
        val columns = mutableListOf<Int>()
        for (t in steps.indices.indices) {
            val index = steps.indices[t]
            require(index in table.indices) { "class $index outside the dictionary (${table.size} classes)" }
            if (index != 0 && (t == 0 || index != steps.indices[t - 1])) columns.add(t)
        }
        val tokens = columns.map { table[steps.indices[it]] }
        val confidences = columns.map { round5(steps.probs[it].toDouble()) }
        val score = if (confidences.isEmpty()) 0.0 else round5(confidences.average())
        val words = groupWords(tokens, columns)
        return DecodedLine(
            text = tokens.joinToString(""),
            score = score,
            wordColumns = words.map { word -> word.map { columns[it] } },
            wordTokens = words.map { word -> word.map { tokens[it] } },
            wordIsCjk = words.map { word -> isCjk(tokens[word.first()]) },
            lineColumns = steps.indices.size * whRatio / maxWhRatio,
        )
    }

    companion object {
        /** The decoder for a model whose metadata holds the dictionary as one string. */
        fun fromMetadata(character: String): CtcDecoder = CtcDecoder(recognizerDictionary(character))

        private fun round5(value: Double): Double = Math.rint(value * 1e5) / 1e5
    }
}

/** The recogniser's dictionary from its `character` metadata, split as RapidOCR splits it (`str.splitlines`). */
fun recognizerDictionary(character: String): List<String> = PyText.splitLines(character)

internal fun isCjk(token: String): Boolean = token.any { it in '\u4e00'..'\u9fff' || it in '\u3000'..'\u303f' || it in '\uff00'..'\uffef' }

/**
 * PaddleOCR's `get_word_info`: token positions grouped into words, split at spaces, at a
 * change between CJK and other script, and where more than 5 columns separate two tokens.
 */
private fun groupWords(
    tokens: List<String>,
    columns: List<Int>,
): List<List<Int>> {
    val words = mutableListOf<List<Int>>()
    val current = mutableListOf<Int>()
    var kind: Boolean? = null

    fun flush() {
        if (current.isNotEmpty()) words.add(current.toList())
        current.clear()
    }
    for ((i, token) in tokens.withIndex()) {
        if (token.codePoints().allMatch { PyText.isSpace(it) }) {
            flush()
            continue
        }
        val gap = if (i == 0) min(if (isCjk(tokens[0])) 3 else 2, columns[0]) else columns[i] - columns[i - 1]
        val tokenKind = isCjk(token)
        if (kind == null) kind = tokenKind
        if (kind != tokenKind || gap > 5) {
            flush()
            kind = tokenKind
        }
        current.add(i)
    }
    flush()
    return words
}

/**
 * Word quads on the page for a recognised line (RapidOCR's `CalRecBoxes` for word boxes):
 * [cropWidth]×[cropHeight] is the straightened line image, [lineCorners] the detected quad.
 * Returns no words when the text has none (the caller then splits the line by characters).
 */
fun wordQuads(
    line: DecodedLine,
    cropWidth: Int,
    cropHeight: Int,
    lineCorners: List<Point>,
): List<WordQuad> {
    val length = line.text.codePointCount(0, line.text.length)
    if (line.text.isEmpty() || line.lineColumns == 0.0 || line.wordColumns.isEmpty()) return emptyList()
    val columnWidth = cropWidth / line.lineColumns
    val allLatin = line.wordIsCjk.none { it }
    val charWidths = line.wordColumns.filter { it.size > 1 }.map { (it.last() - it.first()) * columnWidth / (it.size - 1) }
    val charWidth = if (charWidths.isNotEmpty()) charWidths.average() else cropWidth.toDouble() / length

    fun cell(column: Int): Pair<Double, Double> {
        val center = (column + 0.5) * columnWidth
        return max((center - charWidth / 2).toInt(), 0).toDouble() to min((center + charWidth / 2).toInt().toDouble(), cropWidth.toDouble())
    }
    val spans = mutableListOf<Pair<String, Pair<Double, Double>>>()
    if (allLatin) {
        line.wordColumns.forEachIndexed { w, columns ->
            val cells = columns.map(::cell)
            spans.add(line.wordTokens[w].joinToString("") to (cells.minOf { it.first } to cells.maxOf { it.second }))
        }
    } else {
        val tokens = line.wordTokens.flatten()
        line.wordColumns.flatten().forEachIndexed { i, column -> spans.add(tokens[i] to cell(column)) }
        spans.sortBy { it.second.first }
    }
    val adjusted = spans.map { it.second.first to it.second.second }.toMutableList()
    for (i in 0 until adjusted.size - 1) {
        val (x0, x1) = adjusted[i]
        val (nx0, nx1) = adjusted[i + 1]
        if (x1 > nx0) {
            val overlap = x1 - nx0
            adjusted[i] = x0 to x1 - overlap / 2
            adjusted[i + 1] = nx0 + (overlap - overlap / 2) to nx1
        }
    }
    val toPage = cropToPage(lineCorners)
    return spans.indices.map { i ->
        val (x0, x1) = adjusted[i]
        val corners =
            listOf(Point(x0, 0.0), Point(x1, 0.0), Point(x1, cropHeight.toDouble()), Point(x0, cropHeight.toDouble()))
        WordQuad(spans[i].first, corners.map(toPage))
    }
}

/** RapidOCR's `reverse_rotate_crop_image`: line-image points back to whole page pixels. */
private fun cropToPage(lineCorners: List<Point>): (Point) -> Point {
    val left = lineCorners.minOf { it.x }.toInt()
    val top = lineCorners.minOf { it.y }.toInt()
    val shifted = lineCorners.map { Point(it.x - left, it.y - top) }
    val width = shifted[0].distanceTo(shifted[1]).toInt()
    val height = shifted[0].distanceTo(shifted[3]).toInt()
    val straight =
        listOf(Point(0.0, 0.0), Point(width.toDouble(), 0.0), Point(width.toDouble(), height.toDouble()), Point(0.0, height.toDouble()))
    val back = perspectiveTransform(straight, shifted)
    val vertical = isVerticalLine(lineCorners)
    return { point ->
        // A tall line was read rotated by 90°: undo that rotation first.
        val inCrop = if (vertical) Point(-point.y + width, point.x) else point
        val p = back.project(inCrop)
        Point((p.x + left).toInt().toDouble(), (p.y + top).toInt().toDouble())
    }
}

/** A detected line at least 1.5 times as tall as it is wide is read rotated. */
fun isVerticalLine(corners: List<Point>): Boolean {
    val width = max(corners[0].distanceTo(corners[1]), corners[2].distanceTo(corners[3]))
    val height = max(corners[1].distanceTo(corners[2]), corners[3].distanceTo(corners[0]))
    if (width < 1e-6) return true
    return (height / width * 100).roundToInt() / 100.0 >= 1.5
}

/** The recogniser's input width for a batch: 48 px high, at least 320 px wide (ratio 320/48). */
fun recognizerWidth(maxWhRatio: Double): Int = (REC_HEIGHT * maxWhRatio).toInt()

/** How wide a line image of ratio [whRatio] is drawn inside an input [inputWidth] wide. */
fun recognizerResizedWidth(
    whRatio: Double,
    inputWidth: Int,
): Int = min(inputWidth, ceil(REC_HEIGHT * whRatio).toInt())

const val REC_HEIGHT = 48
const val REC_MIN_RATIO = 320.0 / 48.0
