package dev.redacto.core.ocr

import dev.redacto.core.Element
import dev.redacto.core.text.PyText
import kotlin.math.abs
import kotlin.math.max
import kotlin.math.min

/*
 * PP-OCRv6 on the phone: the same two ONNX models as the workstation's `ppocr` engine and the
 * same steps around them (RapidOCR 3.10's pipeline with the orientation classifier off, then
 * redacto's padding, ink growth and reading order). Only running the models is
 * platform-specific: the app implements [PpOcrModels] with ONNX Runtime; everything else is
 * here and runs on the JVM.
 */

/** OCR could not run or returned something unusable. Messages never hold page content. */
class OcrException(
    message: String,
    cause: Throwable? = null,
) : RuntimeException(message, cause)

/** The detector and recogniser, as the reader needs them. */
interface PpOcrModels : AutoCloseable {
    /** The recogniser's dictionary: its `character` metadata, one entry a line. */
    val dictionary: List<String>

    /** The detector's height×width probability map for a normalised 1×3×height×width input. */
    fun detect(
        input: FloatArray,
        height: Int,
        width: Int,
    ): FloatArray

    /** The best class at each time step for each image of a count×3×48×width batch. */
    fun recognize(
        input: FloatArray,
        count: Int,
        width: Int,
    ): List<CtcSteps>

    override fun close() {}
}

/** Knobs of the reader; the defaults are the workstation's (`PpocrSettings`, RapidOCR config). */
data class PpOcrSettings(
    val maxSide: Int = 2000,
    val detLimitSide: Int = 736,
    val minScore: Double = 0.5,
    val padRatio: Double = PPOCR_PAD_RATIO,
    val recBatch: Int = 6,
    val db: DbSettings = DbSettings(),
)

/** A line as the recogniser read it: page quad, the straightened image's size, decoded text. */
private class ReadLine(
    val corners: List<Point>,
    val cropWidth: Int,
    val cropHeight: Int,
    val decoded: DecodedLine,
)

/**
 * The size OCR works at: the long side capped at [maxSide] (larger photos only cost time).
 * The caller scales the photo to this size and passes the original size to [PpOcrReader.read].
 */
fun workingSize(
    width: Int,
    height: Int,
    maxSide: Int = 2000,
): Pair<Int, Int> {
    val longest = max(width, height)
    if (longest <= maxSide) return width to height
    val factor = longest.toDouble() / maxSide
    return max(1, Math.rint(width / factor).toInt()) to max(1, Math.rint(height / factor).toInt())
}

/** Reads the words of a page with PP-OCR; one element per word, in reading order. */
class PpOcrReader(
    private val models: PpOcrModels,
    val settings: PpOcrSettings = PpOcrSettings(),
) {
    private val decoder = CtcDecoder(models.dictionary)

    /**
     * What read the words, for the report's `ocr` (Python's `PpocrEngine.name`, which names
     * its rapidocr and onnxruntime versions where this names the port and its settings).
     */
    val name: String =
        "ppocr (PP-OCRv6 small det+rec, Kotlin port of rapidocr 3.10, " +
            "max_side=${settings.maxSide}, pad=${settings.padRatio})"

    /**
     * Words of [image] (the working copy, see [workingSize]) with boxes in pixels of the
     * [originalWidth]×[originalHeight] photo, padded, grown to the ink they touch and widened to their own words' ink ([alignToInk]).
     */
    fun read(
        image: RgbImage,
        originalWidth: Int = image.width,
        originalHeight: Int = image.height,
    ): List<Element> {
        val lines = readLines(image)
        val gray = image.gray()
        val ink = InkMask.of(gray, image.width, image.height)
        val fx = originalWidth.toDouble() / image.width
        val fy = originalHeight.toDouble() / image.height
        val placed =
            lines.mapNotNull { toWords(it, image.width, image.height) }.map { line ->
                rescaleLine(alignToInk(growToInk(line, ink), gray, image.width), fx, fy, originalWidth, originalHeight)
            }
        return elementsFromLines(orderLines(placed))
    }

    private fun readLines(image: RgbImage): List<ReadLine> {
        // RapidOCR pads very flat or very low images with black rows before detecting.
        val pad = if (image.height <= MIN_HEIGHT || image.width.toDouble() / image.height > WIDTH_HEIGHT_RATIO) paddingRows(image) else 0
        val page = if (pad > 0) image.paddedVertically(pad) else image
        val quads = sortDetectedQuads(detect(page))
        if (quads.isEmpty()) return emptyList()
        val crops = quads.map { page.straightened(it.corners) }
        val decoded = recognize(crops)
        val read =
            quads.indices.mapNotNull { i ->
                val corners =
                    quads[i].corners.map {
                        Point(it.x.coerceIn(0.0, image.width.toDouble()), (it.y - pad).coerceIn(0.0, image.height.toDouble()))
                    }
                decoded[i].takeIf { PyText.strip(it.text).isNotEmpty() }?.let { ReadLine(corners, crops[i].width, crops[i].height, it) }
            }
        if (read.isEmpty()) throw OcrException("PP-OCR found ${quads.size} text regions but could not recognise any of them")
        return read.filter { it.decoded.score >= settings.minScore }
    }

    private fun paddingRows(image: RgbImage): Int {
        val target = max((image.width / WIDTH_HEIGHT_RATIO).toInt(), MIN_HEIGHT) * 2
        return abs(target - image.height) / 2
    }

    /** The detector at RapidOCR's input size: short side at least [PpOcrSettings.detLimitSide], multiples of 32. */
    private fun detect(page: RgbImage): List<ScoredQuad> {
        val ratio =
            if (min(page.width, page.height) <
                settings.detLimitSide
            ) {
                settings.detLimitSide.toDouble() / min(page.width, page.height)
            } else {
                1.0
            }
        val width = (Math.rint((page.width * ratio).toInt() / 32.0) * 32).toInt()
        val height = (Math.rint((page.height * ratio).toInt() / 32.0) * 32).toInt()
        if (width <= 0 || height <= 0) return emptyList()
        val input = FloatArray(3 * width * height)
        page.resized(width, height).writeChw(input)
        val prob = models.detect(input, height, width)
        return dbQuads(prob, width, height, page.width, page.height, settings.db)
    }

    /** Lines batched by aspect ratio as RapidOCR does; each batch padded to its widest line. */
    private fun recognize(crops: List<RgbImage>): List<DecodedLine> {
        val ratios = crops.map { it.width.toDouble() / it.height }
        val order = crops.indices.sortedBy { ratios[it] }
        val decoded = arrayOfNulls<DecodedLine>(crops.size)
        for (batch in order.chunked(settings.recBatch)) {
            val maxRatio = max(REC_MIN_RATIO, batch.maxOf { ratios[it] })
            val width = recognizerWidth(maxRatio)
            val stride = 3 * REC_HEIGHT * width
            val input = FloatArray(batch.size * stride)
            batch.forEachIndexed { slot, i ->
                crops[i].resized(recognizerResizedWidth(ratios[i], width), REC_HEIGHT).writeChw(input, slot * stride, width)
            }
            val steps = models.recognize(input, batch.size, width)
            if (steps.size != batch.size) throw OcrException("recogniser answered ${steps.size} lines for ${batch.size}")
            batch.forEachIndexed { slot, i -> decoded[i] = decoder.decode(steps[slot], ratios[i], maxRatio) }
        }
        return decoded.map { checkNotNull(it) }
    }

    /** redacto's `_lines`: word boxes from the recogniser when they spell the line, else by characters. */
    private fun toWords(
        line: ReadLine,
        width: Int,
        height: Int,
    ): OcrLine? {
        val pad = settings.padRatio * line.corners[0].distanceTo(line.corners[3])
        val quads = wordQuads(line.decoded, line.cropWidth, line.cropHeight, line.corners)
        val spelled = { text: String -> PyText.splitWhitespace(text).joinToString("") }
        val words =
            if (quads.isNotEmpty() && quads.joinToString("") { spelled(it.text) } == spelled(line.decoded.text)) {
                quads.filter { PyText.strip(it.text).isNotEmpty() }.map { OcrWord(it.text, paddedBox(it.corners, pad, width, height)) }
            } else {
                apportionedWords(line.decoded.text, line.corners, pad, width, height)
            }
        return if (words.isEmpty()) null else OcrLine(words, line.corners)
    }

    private companion object {
        const val MIN_HEIGHT = 30
        const val WIDTH_HEIGHT_RATIO = 8.0
    }
}

/** The most pixels the app decodes a photo to: 16 MP is 64 MB as ARGB, and the burned copy doubles it. */
const val MAX_DECODED_PIXELS = 16_000_000L

/**
 * The power-of-two subsampling (Android's `inSampleSize`, `ImageDecoder.setTargetSampleSize`)
 * that brings a [width] × [height] photo to at most [maxPixels] before it is decoded, so a
 * 100 MP photo never becomes a 400 MB bitmap. 1 when it already fits. OCR reads a 2,000 px
 * copy ([workingSize]), so the page loses nothing it would read.
 */
fun decodeSampleSize(
    width: Int,
    height: Int,
    maxPixels: Long = MAX_DECODED_PIXELS,
): Int {
    var sample = 1
    while ((width.toLong() / sample) * (height.toLong() / sample) > maxPixels) sample *= 2
    return sample
}
