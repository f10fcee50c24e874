package dev.redacto.core.inputs

import dev.redacto.core.Box
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.imaging.PhotoPixels
import dev.redacto.core.ocr.PpOcrReader
import dev.redacto.core.ocr.RgbImage

/**
 * A photo, read: its words with boxes in the photo's pixels, its pixels, and the OCR that read
 * the words. Mirrors `inputs/image.py`'s `ImageInput`, the one input kind the app has.
 *
 * Python's input holds the decoded image and makes `redacted.png` from it; here [pixels] is
 * the app's own Bitmap behind [PhotoPixels] (read a few rows at a time, never copied), which
 * [redact] reads for the burn check ([coverInk]) before it lists what to burn
 * ([InputRedaction.burn]): an input cannot be made without the pixels that check needs.
 */
class ImageInput(
    /** What the pipeline reads: one element per word, boxes in pixels of the [width]×[height] photo. */
    val document: Document,
    /** The photo the boxes are burned into, as the burn check reads it. */
    val pixels: PhotoPixels,
    /** Which OCR read the words ([PpOcrReader.name]); null for words read elsewhere. */
    val ocrName: String?,
) {
    val width: Int get() = pixels.width
    val height: Int get() = pixels.height

    companion object {
        /**
         * The words of [photo], read by [reader] from [workingCopy] (the photo scaled to
         * [workingSize]); the reader maps their boxes back to the photo's pixels. Throws
         * [OcrException] when OCR fails.
         */
        fun read(
            workingCopy: RgbImage,
            photo: PhotoPixels,
            reader: PpOcrReader,
        ): ImageInput {
            val elements = reader.read(workingCopy, photo.width, photo.height)
            return ImageInput(Document.fromElements(elements, imageSize = photo.width to photo.height), photo, reader.name)
        }

        /**
         * [photo] with words already read (the eval's gold, or OCR run elsewhere), numbered in
         * the order given; every box must lie inside the photo, as Python's
         * `ImageInput.with_words` checks. Throws [IllegalArgumentException] otherwise.
         */
        fun withWords(
            elements: List<Element>,
            photo: PhotoPixels,
        ): ImageInput {
            val words =
                elements.mapIndexed { index, element ->
                    val box = element.box
                    require(box != null && inside(box, photo.width, photo.height)) { "element $index: box lies outside the image" }
                    Element(index = index, text = element.text, box = box, page = element.page)
                }
            return ImageInput(Document.fromElements(words, imageSize = photo.width to photo.height), photo, ocrName = null)
        }

        private fun inside(
            box: Box,
            width: Int,
            height: Int,
        ): Boolean = box.x0 >= 0 && box.y0 >= 0 && box.x1 <= width && box.y1 <= height
    }
}
