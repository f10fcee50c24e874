package dev.redacto.core.ocr

import dev.redacto.core.imaging.PhotoPixels
import dev.redacto.core.imaging.luma
import kotlin.math.floor
import kotlin.math.max
import kotlin.math.min
import kotlin.math.roundToInt

/*
 * The pixel work PP-OCR needs around its two models, on plain ARGB arrays so it runs (and is
 * tested) on the JVM: resizing, straightening a line out of the page, and the models'
 * normalised CHW input (BGR order, as RapidOCR feeds them: it reads images with OpenCV).
 */

/** An opaque image as ARGB ints (Android's `Bitmap.getPixels` layout), row-major. */
class RgbImage(
    override val width: Int,
    override val height: Int,
    val argb: IntArray,
) : PhotoPixels {
    init {
        require(width > 0 && height > 0) { "image must not be empty: ${width}x$height" }
        require(argb.size == width * height) { "pixel array is ${argb.size} values, expected ${width}x$height" }
    }

    /** 8-bit grey levels as Pillow's `convert("L")` computes them (ITU-R 601-2 luma). */
    fun gray(): IntArray = IntArray(argb.size) { luma(argb[it]) }

    override fun read(
        x: Int,
        y: Int,
        columns: Int,
        rows: Int,
        into: IntArray,
    ) {
        for (row in 0 until rows) argb.copyInto(into, row * columns, (y + row) * width + x, (y + row) * width + x + columns)
    }

    /** Bilinear resize with OpenCV's INTER_LINEAR pixel-centre convention. */
    fun resized(
        newWidth: Int,
        newHeight: Int,
    ): RgbImage {
        if (newWidth == width && newHeight == height) return this
        val scaleX = width.toDouble() / newWidth
        val scaleY = height.toDouble() / newHeight
        val out = IntArray(newWidth * newHeight)
        for (y in 0 until newHeight) {
            val sy = ((y + 0.5) * scaleY - 0.5).coerceIn(0.0, height - 1.0)
            for (x in 0 until newWidth) {
                val sx = ((x + 0.5) * scaleX - 0.5).coerceIn(0.0, width - 1.0)
                out[y * newWidth + x] = sample(sx, sy)
            }
        }
        return RgbImage(newWidth, newHeight, out)
    }

    /** Bilinear sample at (x, y), edges replicated. */
    fun sample(
        x: Double,
        y: Double,
    ): Int {
        val cx = x.coerceIn(0.0, width - 1.0)
        val cy = y.coerceIn(0.0, height - 1.0)
        val x0 = floor(cx).toInt()
        val y0 = floor(cy).toInt()
        val x1 = min(x0 + 1, width - 1)
        val y1 = min(y0 + 1, height - 1)
        val fx = cx - x0
        val fy = cy - y0
        var result = 0xff shl 24
        for (shift in intArrayOf(16, 8, 0)) {
            fun c(
                px: Int,
                py: Int,
            ) = (argb[py * width + px] shr shift and 0xff).toDouble()
            val top = c(x0, y0) * (1 - fx) + c(x1, y0) * fx
            val bottom = c(x0, y1) * (1 - fx) + c(x1, y1) * fx
            result = result or ((top * (1 - fy) + bottom * fy).roundToInt().coerceIn(0, 255) shl shift)
        }
        return result
    }

    /** A copy with [top] and [bottom] black rows added (RapidOCR's vertical padding). */
    fun paddedVertically(rows: Int): RgbImage {
        val out = IntArray(width * (height + 2 * rows)) { 0xff000000.toInt() }
        argb.copyInto(out, rows * width)
        return RgbImage(width, height + 2 * rows, out)
    }

    /**
     * The line inside [corners] straightened into its own image (RapidOCR's
     * `get_rotate_crop_image`, bilinear where it uses bicubic), turned upright when tall.
     */
    fun straightened(corners: List<Point>): RgbImage {
        val cropWidth = max(corners[0].distanceTo(corners[1]), corners[2].distanceTo(corners[3])).toInt()
        val cropHeight = max(corners[0].distanceTo(corners[3]), corners[1].distanceTo(corners[2])).toInt()
        require(cropWidth > 0 && cropHeight > 0) { "line too small to read: ${cropWidth}x$cropHeight" }
        val straight =
            listOf(
                Point(0.0, 0.0),
                Point(cropWidth.toDouble(), 0.0),
                Point(cropWidth.toDouble(), cropHeight.toDouble()),
                Point(0.0, cropHeight.toDouble()),
            )
        val toPage = perspectiveTransform(straight, corners)
        val out = IntArray(cropWidth * cropHeight)
        for (y in 0 until cropHeight) {
            for (x in 0 until cropWidth) {
                val p = toPage.project(Point(x.toDouble(), y.toDouble()))
                out[y * cropWidth + x] = sample(p.x, p.y)
            }
        }
        val crop = RgbImage(cropWidth, cropHeight, out)
        return if (cropHeight.toDouble() / cropWidth >= 1.5) crop.rotatedCounterClockwise() else crop
    }

    /** numpy's `rot90`: a quarter turn counter-clockwise. */
    fun rotatedCounterClockwise(): RgbImage {
        val out = IntArray(argb.size)
        for (y in 0 until height) {
            for (x in 0 until width) out[(width - 1 - x) * height + y] = argb[y * width + x]
        }
        return RgbImage(height, width, out)
    }

    /**
     * Writes the image as normalised CHW floats ((v/255 − 0.5)/0.5, channels B, G, R) into
     * [into] at [offset], in a plane [planeWidth] wide (columns beyond [width] are left as is).
     */
    fun writeChw(
        into: FloatArray,
        offset: Int = 0,
        planeWidth: Int = width,
    ) {
        val plane = planeWidth * height
        for (y in 0 until height) {
            for (x in 0 until width) {
                val p = argb[y * width + x]
                val at = offset + y * planeWidth + x
                into[at] = ((p and 0xff) / 255f - 0.5f) / 0.5f
                into[at + plane] = ((p shr 8 and 0xff) / 255f - 0.5f) / 0.5f
                into[at + 2 * plane] = ((p shr 16 and 0xff) / 255f - 0.5f) / 0.5f
            }
        }
    }
}
