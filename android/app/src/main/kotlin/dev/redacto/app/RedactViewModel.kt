package dev.redacto.app

import android.app.Application
import android.content.Intent
import android.graphics.Bitmap
import android.net.Uri
import androidx.core.content.FileProvider
import androidx.lifecycle.AndroidViewModel
import androidx.lifecycle.SavedStateHandle
import androidx.lifecycle.viewModelScope
import dev.redacto.core.Box
import dev.redacto.core.Status
import dev.redacto.core.lexicon.LexiconFiles
import dev.redacto.core.ocr.workingSize
import dev.redacto.core.session.Failure
import dev.redacto.core.session.RedactSession
import dev.redacto.core.session.RedactState
import dev.redacto.core.session.Runtimes
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.asStateFlow
import kotlinx.coroutines.flow.update
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext
import java.io.File

/** Everything the screen shows. Boxes are in pixels of the photo; the count shown is `boxes.size`. */
data class RedactUiState(
    val photo: Bitmap? = null,
    val preview: Bitmap? = null,
    val model: ModelFile? = null,
    val backend: String? = null,
    val stage: String = "Take or pick a photo of a page, and choose the model file.",
    val boxes: List<Box> = emptyList(),
    val status: Status? = null,
    val review: List<String> = emptyList(),
    val busy: Boolean = false,
    val error: String? = null,
    val redacted: Bitmap? = null,
    val saved: Uri? = null,
)

/**
 * One screen, one flow: photo → core's [RedactSession] (OCR, then core's `redact` with the
 * rules and the NER tier beside the model, boxes drawn as they are found) → its pixels burned
 * into a copy → a new PNG. The photo is only ever read. Core decides what is burned and in which
 * state the run is ([RedactState]); this class does the Android I/O and maps each state onto
 * the screen. The runtimes come from the factories it is given: the phone's ([appRuntimes]) on a device.
 * Files and bitmaps are handled off the main thread; the pending camera capture survives the
 * process being killed ([SavedStateHandle]).
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
    private val models = ModelFiles(File(app.filesDir, "models"))
    private val state = MutableStateFlow(RedactUiState())
    val ui: StateFlow<RedactUiState> = state.asStateFlow()

    /** The residual check's pinned dictionaries, from the APK's `lexicon/` assets (each read and sha256-checked on first use). */
    private val lexicon = LexiconFiles { name -> app.assets.open("lexicon/$name") }

    /** The model, OCR and NER, each opened once on first use and closed in [onCleared]. */
    private val session = RedactSession(runtimes, lexicon)

    /** The jobs that may be using the engine or the OCR sessions; [onCleared] waits for them. */
    private val jobs = mutableListOf<Job>()

    init {
        launchTracked {
            val model = withContext(Dispatchers.IO) { models.current() }
            state.update { it.copy(model = it.model ?: model) }
        }
    }

    /** A fresh file in the app's cache for the camera app to write the photo into. */
    fun captureTarget(): Uri {
        val folder = File(app.cacheDir, "photos").apply { mkdirs() }
        folder.listFiles()?.forEach { it.delete() }
        val file = File(folder, "capture-${System.currentTimeMillis()}.jpg")
        return FileProvider.getUriForFile(app, "${app.packageName}.photos", file).also { saved[PENDING_CAPTURE] = it }
    }

    fun onCaptured(success: Boolean) {
        val capture = saved.remove<Uri>(PENDING_CAPTURE)
        if (success) capture?.let(::onPhoto)
    }

    fun onPhoto(uri: Uri?) {
        if (uri == null) return
        work("Opening the photo…") {
            val photo = withContext(Dispatchers.IO) { decodePhoto(app.contentResolver, uri) }
            val preview =
                withContext(Dispatchers.Default) {
                    val (width, height) = workingSize(photo.width, photo.height)
                    Bitmap.createScaledBitmap(photo, width, height, true)
                }
            state.update {
                RedactUiState(
                    photo = photo,
                    preview = preview,
                    model = it.model,
                    backend = it.backend,
                    stage = "Ready: tap Redact.",
                )
            }
        }
    }

    fun onModelPicked(uri: Uri?) {
        if (uri == null) return
        work("Copying the model into the app and reading its policy (once)…") {
            val model =
                withContext(Dispatchers.IO) {
                    session.closeModel()
                    models.import(app.contentResolver, uri)
                }
            state.update { it.copy(model = model, backend = null, stage = "Model ready.") }
        }
    }

    fun redact() {
        val photo = state.value.photo ?: return
        val model = state.value.model ?: return fail("Choose the model file first.")
        work("Reading the page…") {
            state.update { it.copy(boxes = emptyList(), status = null, review = emptyList(), redacted = null, saved = null) }
            // The working copy is what OCR reads; the photo's own pixels are what the burn is checked against.
            val page = withContext(Dispatchers.Default) { workingCopy(photo) }
            // Core's session runs runPipeline, which applies the settings the engine carries (the
            // file's own verified policy, else the fail-closed defaults): an untrusted or
            // unmeasured validator's PASS ends NEEDS_REVIEW, never PASS (core ModelPolicy.kt).
            val end = session.redact(page, BitmapPixels(photo), model) { step -> state.update { it.during(step) } }
            finish(photo, end)
        }
    }

    /** Saves the burned copy as a new PNG (the original photo is not touched). */
    fun save() {
        val redacted = state.value.redacted ?: return
        work("Saving…") {
            val uri = withContext(Dispatchers.IO) { savePng(app.contentResolver, redacted, "redacted-${System.currentTimeMillis()}.png") }
            state.update { it.copy(saved = uri, stage = "Saved to Pictures/Redacto.") }
        }
    }

    /** The share sheet for the saved PNG, or null until it is saved. */
    fun shareIntent(): Intent? {
        val uri = state.value.saved ?: return null
        val send =
            Intent(Intent.ACTION_SEND)
                .setType("image/png")
                .putExtra(Intent.EXTRA_STREAM, uri)
                .addFlags(Intent.FLAG_GRANT_READ_URI_PERMISSION)
        return Intent.createChooser(send, "Share the redacted image")
    }

    /** The screen while a run is under way; how it ends is [finish]'s, once the burn is ready. */
    private fun RedactUiState.during(step: RedactState): RedactUiState =
        when (step) {
            is RedactState.LoadingModel -> copy(stage = step.stage, backend = step.backend ?: backend)
            is RedactState.Redacting -> copy(stage = step.stage, boxes = step.boxes)
            is RedactState.Ended -> this
            else -> copy(stage = step.stage)
        }

    private suspend fun finish(
        photo: Bitmap,
        end: RedactState.Ended,
    ) {
        when (end) {
            is RedactState.Failed ->
                // Nothing is claimed redacted: no boxes, nothing to save. The run may have ended
                // ERROR (the model failed, or a box cut ink that runs on past any word: core's
                // burn check), or a runtime could not open.
                state.update {
                    it.copy(
                        boxes = emptyList(),
                        status = if (end.redaction != null) Status.ERROR else null,
                        error = end.message,
                        stage = end.stage,
                    )
                }
            is RedactState.Done -> {
                val burned = withContext(Dispatchers.Default) { burnBoxes(photo, end.redaction.burn) }
                state.update { it.copy(boxes = end.boxes, status = end.status, review = end.review, redacted = burned, stage = end.stage) }
            }
        }
    }

    private fun work(
        stage: String,
        block: suspend () -> Unit,
    ) {
        if (state.value.busy) return
        state.update { it.copy(busy = true, error = null, stage = stage) }
        launchTracked {
            try {
                block()
            } catch (error: CancellationException) {
                throw error
            } catch (error: Exception) {
                fail(Failure.of(error).message)
            } catch (error: OutOfMemoryError) {
                fail(Failure.of(error).message)
            } catch (error: LinkageError) {
                fail(Failure.of(error).message)
            } finally {
                state.update { it.copy(busy = false) }
            }
        }
    }

    private fun launchTracked(block: suspend () -> Unit) {
        val job = viewModelScope.launch { block() }
        synchronized(jobs) { jobs.add(job) }
        job.invokeOnCompletion { synchronized(jobs) { jobs.remove(job) } }
    }

    private fun fail(message: String) {
        state.update { it.copy(error = message) }
    }

    /**
     * The scope is already cancelled here, but a cancelled run may still be draining its
     * conversation or inside an OCR model call: the engine and the OCR sessions are closed only
     * once every such job has finished, never under it.
     */
    override fun onCleared() {
        val running = synchronized(jobs) { jobs.toList() }
        CoroutineScope(SupervisorJob() + Dispatchers.IO).launch {
            running.joinAll()
            session.close()
        }
    }

    private companion object {
        const val PENDING_CAPTURE = "pendingCapture"
    }
}
