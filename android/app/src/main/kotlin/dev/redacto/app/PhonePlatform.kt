package dev.redacto.app

import android.content.Context
import android.graphics.Bitmap
import android.net.Uri
import dev.redacto.core.imaging.PhotoPixels
import dev.redacto.core.ocr.RgbImage
import dev.redacto.core.ocr.workingSize
import dev.redacto.core.pipeline.PixelBounds
import dev.redacto.core.session.RedactScreen
import dev.redacto.core.session.ScreenPlatform
import dev.redacto.core.session.ScreenState
import java.io.File

/** What the screen shows on the phone: core's [ScreenState] in Android's types. */
typealias RedactUiState = ScreenState<Bitmap, ModelFile, Uri>

/**
 * The phone's files and pixels for core's [RedactScreen]: models in
 * the app's storage ([ModelFiles]), photos decoded read-only from the content resolver, bitmaps
 * scaled and burned (`PageImages.kt`), copies saved as new PNGs in Pictures/Redacto.
 */
class PhonePlatform(
    private val context: Context,
    private val models: ModelFiles = ModelFiles(File(context.filesDir, "models")),
) : ScreenPlatform<Bitmap, ModelFile, Uri> {
    override val saveFolder: String = "Pictures/Redacto"

    override fun currentModel(): ModelFile? = models.current()

    override fun importModel(from: Uri): ModelFile = models.import(context.contentResolver, from)

    override fun openPhoto(from: Uri): Bitmap = decodePhoto(context.contentResolver, from)

    override fun preview(photo: Bitmap): Bitmap {
        val (width, height) = workingSize(photo.width, photo.height)
        return Bitmap.createScaledBitmap(photo, width, height, true)
    }

    override fun workingCopy(photo: Bitmap): RgbImage = dev.redacto.app.workingCopy(photo)

    override fun pixels(photo: Bitmap): PhotoPixels = BitmapPixels(photo)

    override fun burn(
        photo: Bitmap,
        bounds: List<PixelBounds>,
    ): Bitmap = burnBoxes(photo, bounds)

    override fun save(picture: Bitmap): Uri = savePng(context.contentResolver, picture, "redacted-${System.currentTimeMillis()}.png")
}
