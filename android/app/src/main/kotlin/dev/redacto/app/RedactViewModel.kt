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
import dev.redacto.core.engines.EngineException
import dev.redacto.core.inputs.ImageInput
import dev.redacto.core.inputs.InputRedaction
import dev.redacto.core.lexicon.LexiconFiles
import dev.redacto.core.ner.NerTier
import dev.redacto.core.ocr.OcrException
import dev.redacto.core.ocr.PpOcrReader
import dev.redacto.core.ocr.workingSize
import dev.redacto.core.pipeline.Detector
import dev.redacto.core.pipeline.LiveBoxes
import dev.redacto.core.pipeline.PipelineOptions
import dev.redacto.core.pipeline.reviewItems
import dev.redacto.core.rules.Rules
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
import java.io.IOException

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
 * One screen, one flow: photo → OCR ([ImageInput.read]: [PpOcrReader] on [OnnxPpOcrModels]) →
 * core's [dev.redacto.core.inputs.redact] on [LiteRtLmEngine], with the rules and the NER tier
 * ([OnnxNerModel]) beside it (boxes drawn as [LiveBoxes] sees them)
 * → its pixels burned into a copy → a new PNG. The photo is only ever read. Core decides what
 * is burned; this class does the Android I/O. Files and bitmaps are handled off the main
 * thread; the pending camera capture survives the process being killed ([SavedStateHandle]).
 */
class RedactViewModel(
    application: Application,
    private val saved: SavedStateHandle,
) : AndroidViewModel(application) {
    private val app = application
    private val models = ModelFiles(File(app.filesDir, "models"))
    private val state = MutableStateFlow(RedactUiState())
    val ui: StateFlow<RedactUiState> = state.asStateFlow()

    private var reader: PpOcrReader? = null
    private var ocrModels: OnnxPpOcrModels? = null
    private var ner: NerTier? = null

    /** The residual check's pinned dictionaries, from the APK's `lexicon/` assets (each read and sha256-checked on first use). */
    private val lexicon = LexiconFiles { name -> app.assets.open("lexicon/$name") }
    private var nerModel: OnnxNerModel? = null
    private var engine: LiteRtLmEngine? = null

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
            val previous = engine
            engine = null
            val model =
                withContext(Dispatchers.IO) {
                    previous?.close()
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
            val input = withContext(Dispatchers.Default) { read(photo) }
            state.update { it.copy(stage = "Loading the model…") }
            val llm = withContext(Dispatchers.IO) { engine ?: loadEngine(model).also { engine = it } }
            state.update { it.copy(backend = llm.backend) }
            val tier = withContext(Dispatchers.IO) { ner ?: openNer() }
            val live = LiveBoxes(input.document)
            // Core's redact runs runPipeline, which applies the settings the engine carries (the
            // file's own verified policy, else the fail-closed defaults): an untrusted or
            // unmeasured validator's PASS ends NEEDS_REVIEW, never PASS (core ModelPolicy.kt).
            // All three tiers read the page: rules, NER (Rampart on ONNX Runtime), the LLM.
            // Qualified: this class's own redact() takes no arguments.
            val redaction =
                withContext(Dispatchers.Default) {
                    val options = PipelineOptions(detectors = Detector.ALL)
                    val rules = live.rules(Rules.DETECTOR)
                    dev.redacto.core.inputs.redact(
                        input,
                        llm,
                        options = options,
                        rules = rules,
                        ner = live.ner(tier),
                        lexicon = lexicon,
                    ) { event ->
                        live.onEvent(event)
                        state.update { it.copy(stage = event.describe(), boxes = live.boxes) }
                    }
                }
            finish(photo, live, redaction)
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

    private fun read(photo: Bitmap): ImageInput {
        val ocr = reader ?: PpOcrReader(OnnxPpOcrModels(app.assets).also { ocrModels = it }).also { reader = it }
        // The input carries the photo itself: core's redact checks the burn against its ink.
        return ImageInput.read(workingCopy(photo), BitmapPixels(photo), ocr)
    }

    private fun openNer(): NerTier {
        val (tier, model) = OnnxNerModel.openTier(app.assets)
        nerModel = model
        return tier.also { ner = it }
    }

    private fun loadEngine(model: ModelFile): LiteRtLmEngine = LiteRtLmEngine.open(model, File(app.cacheDir, "litertlm").apply { mkdirs() })

    private suspend fun finish(
        photo: Bitmap,
        live: LiveBoxes,
        redaction: InputRedaction,
    ) {
        val report = redaction.report
        if (report.status == Status.ERROR) {
            // Nothing is claimed redacted: no boxes, nothing to save. The model may have failed,
            // or a box cut ink that runs on past any word (core's burn check).
            state.update {
                it.copy(
                    boxes = emptyList(),
                    status = Status.ERROR,
                    error = "Not redacted: ${report.error}",
                    stage = "Not redacted.",
                )
            }
            return
        }
        live.finish(redaction.boxes)
        val burned = withContext(Dispatchers.Default) { burnBoxes(photo, redaction.burn) }
        val review = if (report.status == Status.NEEDS_REVIEW) reviewItems(report, redaction.input.document) else emptyList()
        val summary = if (report.status == Status.PASS) "Verified: nothing readable left." else "NEEDS REVIEW: not verified."
        state.update { it.copy(boxes = live.boxes, status = report.status, review = review, redacted = burned, stage = summary) }
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
            } catch (error: OcrException) {
                fail("OCR failed: ${error.message}")
            } catch (error: EngineException) {
                fail("The model could not run: ${error.message}")
            } catch (error: IOException) {
                fail(error.message ?: "Could not read or write a file.")
            } catch (error: CancellationException) {
                throw error
            } catch (error: Exception) {
                fail("Something went wrong (${error::class.simpleName}); nothing was redacted or saved.")
            } catch (error: OutOfMemoryError) {
                fail("Not enough memory for this photo; try a smaller one. Nothing was redacted or saved.")
            } catch (error: LinkageError) {
                // UnsatisfiedLinkError, ExceptionInInitializerError, NoClassDefFoundError: a
                // runtime's native library does not load on this device.
                fail("A runtime library could not be loaded on this device (${error::class.simpleName}).")
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
        val llm = engine
        val ocr = ocrModels
        val classifier = nerModel
        CoroutineScope(SupervisorJob() + Dispatchers.IO).launch {
            running.joinAll()
            llm?.close()
            ocr?.close()
            classifier?.close()
        }
    }

    private companion object {
        const val PENDING_CAPTURE = "pendingCapture"
    }
}
