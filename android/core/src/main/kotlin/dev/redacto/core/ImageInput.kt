package dev.redacto.core

/**
 * A photo, read: its words with boxes in the photo's pixels, its size, and the OCR that read
 * them. Mirrors `inputs/image.py`'s `ImageInput`, the one input kind the app has.
 *
 * Python's input also holds the decoded pixels and makes `redacted.png` from them; here the
 * app keeps its `Bitmap` and burns what [redact]'s [InputRedaction.burn] lists, so core stays
 * free of Android and holds no second copy of a 16 MP photo.
 */
class ImageInput(
    /** What the pipeline reads: one element per word, boxes in pixels of the [width]×[height] photo. */
    val document: Document,
    val width: Int,
    val height: Int,
    /** Which OCR read the words ([PpOcrReader.name]); null for words read elsewhere. */
    val ocrName: String?,
) {
    companion object {
        /**
         * The words of a [width]×[height] photo, read by [reader] from [workingCopy] (the photo
         * scaled to [workingSize]); the reader maps their boxes back to the photo's pixels.
         * Throws [OcrException] when OCR fails.
         */
        fun read(
            workingCopy: RgbImage,
            width: Int,
            height: Int,
            reader: PpOcrReader,
        ): ImageInput {
            val elements = reader.read(workingCopy, width, height)
            return ImageInput(Document.fromElements(elements, imageSize = width to height), width, height, reader.name)
        }

        /**
         * The [width]×[height] photo with words already read (the eval's gold, or OCR run
         * elsewhere), numbered in the order given; every box must lie inside the photo, as
         * Python's `ImageInput.with_words` checks. Throws [IllegalArgumentException] otherwise.
         */
        fun withWords(
            elements: List<Element>,
            width: Int,
            height: Int,
        ): ImageInput {
            val words =
                elements.mapIndexed { index, element ->
                    val box = element.box
                    require(box != null && inside(box, width, height)) { "element $index: box lies outside the image" }
                    Element(index = index, text = element.text, box = box, page = element.page)
                }
            return ImageInput(Document.fromElements(words, imageSize = width to height), width, height, ocrName = null)
        }

        private fun inside(
            box: Box,
            width: Int,
            height: Int,
        ): Boolean = box.x0 >= 0 && box.y0 >= 0 && box.x1 <= width && box.y1 <= height
    }
}
