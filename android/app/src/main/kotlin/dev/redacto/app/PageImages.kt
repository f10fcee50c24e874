package dev.redacto.app

import android.content.ContentResolver
import android.content.ContentValues
import android.graphics.Bitmap
import android.graphics.Canvas
import android.graphics.ImageDecoder
import android.graphics.Paint
import android.net.Uri
import android.os.Environment
import android.provider.MediaStore
import dev.redacto.core.imaging.PhotoPixels
import dev.redacto.core.ocr.RgbImage
import dev.redacto.core.ocr.decodeSampleSize
import dev.redacto.core.ocr.workingSize
import dev.redacto.core.pipeline.PixelBounds
import java.io.IOException

/*
 * Pixels in and out: decoding the photo (read only, EXIF orientation applied), the working
 * copy OCR reads, the photo's pixels for core's burn check, burning boxes into a copy, and
 * saving that copy as a new PNG.
 */

/** The workstation's limits (redacto/imaging.py): larger inputs are refused before decoding. */
const val MAX_PIXELS = 100_000_000L
const val MAX_SIDE = 20_000

/**
 * The photo as the user sees it (ImageDecoder applies the EXIF orientation), never written to.
 * A photo over 16 MP is subsampled while it is decoded (core's [decodeSampleSize]), so a
 * 100 MP photo becomes a 6 MP bitmap, not a 400 MB one; boxes are in the decoded pixels.
 */
fun decodePhoto(
    resolver: ContentResolver,
    uri: Uri,
): Bitmap =
    ImageDecoder.decodeBitmap(ImageDecoder.createSource(resolver, uri)) { decoder, info, _ ->
        val (width, height) = info.size.width to info.size.height
        if (width.toLong() * height > MAX_PIXELS || width > MAX_SIDE || height > MAX_SIDE) {
            throw IOException("the photo is too large (${width}x$height; at most 100 megapixels, 20,000 px a side)")
        }
        decoder.allocator = ImageDecoder.ALLOCATOR_SOFTWARE
        decoder.setTargetSampleSize(decodeSampleSize(width, height))
    }

/** The copy OCR reads: long side at most 2,000 px, as ARGB pixels. */
fun workingCopy(photo: Bitmap): RgbImage {
    val (width, height) = workingSize(photo.width, photo.height)
    val small = if (width == photo.width && height == photo.height) photo else Bitmap.createScaledBitmap(photo, width, height, true)
    val pixels = IntArray(width * height)
    small.getPixels(pixels, 0, width, 0, 0, width, height)
    return RgbImage(width, height, pixels)
}

/**
 * [photo] as core's burn check reads it ([dev.redacto.core.imaging.coverInk], run by core's `redact`):
 * one rectangle at a time straight from the bitmap, so a 16 MP photo is not copied again. The
 * photo is a software bitmap ([decodePhoto]) that nothing writes to, so reading it off the main
 * thread is safe; `getPixels` gives unpremultiplied ARGB, the layout core's `luma` reads.
 */
class BitmapPixels(
    private val photo: Bitmap,
) : PhotoPixels {
    override val width: Int get() = photo.width
    override val height: Int get() = photo.height

    override fun read(
        x: Int,
        y: Int,
        columns: Int,
        rows: Int,
        into: IntArray,
    ) = photo.getPixels(into, 0, columns, x, y, columns, rows)
}

/**
 * A new bitmap: [photo] with every one of [bounds] blacked out (whole pixels of this photo:
 * core's [dev.redacto.core.inputs.InputRedaction.burn], already widened over any glyph a box cut).
 * Throws [OutOfMemoryError] when there is no memory for the copy.
 */
fun burnBoxes(
    photo: Bitmap,
    bounds: List<PixelBounds>,
): Bitmap {
    // Bitmap.copy returns null (API 36: @Nullable) when the new pixels cannot be allocated.
    val burned =
        photo.copy(Bitmap.Config.ARGB_8888, true)
            ?: throw OutOfMemoryError("no memory for the burned copy")
    val canvas = Canvas(burned)
    val black =
        Paint().apply {
            color = android.graphics.Color.BLACK
            style = Paint.Style.FILL
            isAntiAlias = false
        }
    for (pixels in bounds) {
        canvas.drawRect(pixels.left.toFloat(), pixels.top.toFloat(), pixels.right.toFloat(), pixels.bottom.toFloat(), black)
    }
    return burned
}

/**
 * Saves [image] as a new PNG in Pictures/Redacto and returns its content URI. A PNG written
 * from a bitmap carries pixels only: no EXIF, GPS or other metadata from the original.
 */
fun savePng(
    resolver: ContentResolver,
    image: Bitmap,
    displayName: String,
): Uri {
    val values =
        ContentValues().apply {
            put(MediaStore.Images.Media.DISPLAY_NAME, displayName)
            put(MediaStore.Images.Media.MIME_TYPE, "image/png")
            put(MediaStore.Images.Media.RELATIVE_PATH, "${Environment.DIRECTORY_PICTURES}/Redacto")
            put(MediaStore.Images.Media.IS_PENDING, 1)
        }
    val collection = MediaStore.Images.Media.getContentUri(MediaStore.VOLUME_EXTERNAL_PRIMARY)
    val uri = resolver.insert(collection, values) ?: throw IOException("the media store refused a new image")
    try {
        val written = resolver.openOutputStream(uri)?.use { image.compress(Bitmap.CompressFormat.PNG, 100, it) } ?: false
        if (!written) throw IOException("could not write the redacted PNG")
        resolver.update(uri, ContentValues().apply { put(MediaStore.Images.Media.IS_PENDING, 0) }, null, null)
        return uri
    } catch (error: Exception) {
        resolver.delete(uri, null, null)
        throw error
    }
}
