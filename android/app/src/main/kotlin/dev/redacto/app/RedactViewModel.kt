package dev.redacto.app

import android.app.Application
import android.content.Intent
import android.net.Uri
import androidx.core.content.FileProvider
import androidx.lifecycle.AndroidViewModel
import androidx.lifecycle.SavedStateHandle
import androidx.lifecycle.viewModelScope
import dev.redacto.core.lexicon.LexiconFiles
import dev.redacto.core.session.RedactScreen
import dev.redacto.core.session.RedactSession
import dev.redacto.core.session.Runtimes
import kotlinx.coroutines.flow.StateFlow
import java.io.File

/**
 * The screen's view model: core's [RedactScreen] (photo → core's `RedactSession` → the run's
 * burn drawn into a copy → a new PNG; every state and failure the screen shows, under core's
 * JVM tests) on the phone's files and pixels ([PhonePlatform]), its runtimes ([appRuntimes] on
 * a device) and this view model's scope. What is left here is Android's own: the camera's
 * target file, which survives the process being killed ([SavedStateHandle]), and the share sheet.
 */
class RedactViewModel(
    application: Application,
    private val saved: SavedStateHandle,
    runtimes: Runtimes<ModelFile>,
) : AndroidViewModel(application) {
    /** On the phone's runtimes: the constructor the screen's default view-model factory calls. */
    constructor(
        application: Application,
        saved: SavedStateHandle,
    ) : this(application, saved, appRuntimes(application))

    private val app = application

    /** The residual check's pinned dictionaries, from the APK's `lexicon/` assets (each read and sha256-checked on first use). */
    private val lexicon = LexiconFiles { name -> app.assets.open("lexicon/$name") }

    /** The model, OCR and NER are each opened once on first use, and closed in [onCleared]. */
    private val screen = RedactScreen(PhonePlatform(app), RedactSession(runtimes, lexicon), viewModelScope)

    val ui: StateFlow<RedactUiState> = screen.ui

    /** A fresh file in the app's cache for the camera app to write the photo into. */
    fun captureTarget(): Uri {
        val folder = File(app.cacheDir, "photos").apply { mkdirs() }
        folder.listFiles()?.forEach { it.delete() }
        val file = File(folder, "capture-${System.currentTimeMillis()}.jpg")
        return FileProvider.getUriForFile(app, "${app.packageName}.photos", file).also { saved[PENDING_CAPTURE] = it }
    }

    fun onCaptured(success: Boolean) {
        val capture = saved.remove<Uri>(PENDING_CAPTURE)
        if (success) screen.onPhoto(capture)
    }

    fun onPhoto(uri: Uri?) = screen.onPhoto(uri)

    fun onModelPicked(uri: Uri?) = screen.onModelPicked(uri)

    fun redact() = screen.redact()

    /** Saves the burned copy as a new PNG (the original photo is not touched). */
    fun save() = screen.save()

    /** The share sheet for the saved PNG, or null until it is saved. */
    fun shareIntent(): Intent? {
        val uri = ui.value.saved ?: return null
        val send =
            Intent(Intent.ACTION_SEND)
                .setType("image/png")
                .putExtra(Intent.EXTRA_STREAM, uri)
                .addFlags(Intent.FLAG_GRANT_READ_URI_PERMISSION)
        return Intent.createChooser(send, "Share the redacted image")
    }

    /** The scope is already cancelled here; the screen closes the runtimes once every job using them has ended. */
    override fun onCleared() {
        screen.close()
    }

    private companion object {
        const val PENDING_CAPTURE = "pendingCapture"
    }
}
