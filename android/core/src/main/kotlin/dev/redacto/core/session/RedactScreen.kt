package dev.redacto.core.session

import dev.redacto.core.Box
import dev.redacto.core.Status
import dev.redacto.core.imaging.PhotoPixels
import dev.redacto.core.ocr.RgbImage
import dev.redacto.core.pipeline.PixelBounds
import kotlinx.coroutines.CoroutineDispatcher
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

/**
 * Everything the screen shows, in the platform's own types: [P] a picture (the app's `Bitmap`),
 * [M] a model choice (the app's `ModelFile`), [L] where a file is (the app's content `Uri`).
 * Boxes are in pixels of the photo; the count shown is `boxes.size`.
 */
data class ScreenState<P, M, L>(
    val photo: P? = null,
    val preview: P? = null,
    val model: M? = null,
    val backend: String? = null,
    val stage: String = START,
    val boxes: List<Box> = emptyList(),
    val status: Status? = null,
    val review: List<String> = emptyList(),
    val busy: Boolean = false,
    val error: String? = null,
    val redacted: P? = null,
    val saved: L? = null,
) {
    companion object {
        /** The progress line before anything is chosen. */
        const val START = "Take or pick a photo of a page, and choose the model file."
    }
}

/**
 * What [RedactScreen] asks of the platform: files and pixels. Every call may throw; the screen
 * shows the failure ([Failure.of]) and loses nothing. File calls run on the I/O dispatcher,
 * pixel calls on the compute one.
 */
interface ScreenPlatform<P, M, L> {
    /** Where [save] puts a copy, as the screen names it (`Pictures/Redacto`). */
    val saveFolder: String

    /** The model chosen last time, if any, with its policy read again from the file. */
    fun currentModel(): M?

    /** Copies the model file at [from] into the app, checking the policy it carries. */
    fun importModel(from: L): M

    /** Decodes the photo at [from] as the user sees it; never writes to it. */
    fun openPhoto(from: L): P

    /** The smaller copy the screen draws. */
    fun preview(photo: P): P

    /** The working copy OCR reads. */
    fun workingCopy(photo: P): RgbImage

    /** The photo's own pixels, which core's burn check reads. */
    fun pixels(photo: P): PhotoPixels

    /** A new picture: [photo] with every one of [bounds] blacked out. */
    fun burn(
        photo: P,
        bounds: List<PixelBounds>,
    ): P

    /** Saves [picture] as a new file and says where it is. */
    fun save(picture: P): L
}

/**
 * The app's one screen without Android: a photo and a model are chosen, [redact] runs core's
 * [RedactSession] on them and maps each [RedactState] onto [ui] (boxes drawn as they are found),
 * the run's burn is drawn into a copy, and [save] writes that copy as a new file. The photo is
 * only ever read. One action at a time: while [ScreenState.busy], another is ignored. A failure
 * of any action shows as [ScreenState.error] and never escapes into [scope]. The app's view
 * model is this class on the phone's [ScreenPlatform], its runtimes and its `viewModelScope`.
 */
class RedactScreen<P, M, L>(
    private val platform: ScreenPlatform<P, M, L>,
    private val session: RedactSession<M>,
    private val scope: CoroutineScope,
    private val io: CoroutineDispatcher = Dispatchers.IO,
    private val compute: CoroutineDispatcher = Dispatchers.Default,
) {
    private val state = MutableStateFlow(ScreenState<P, M, L>())

    /** What the screen shows now. */
    val ui: StateFlow<ScreenState<P, M, L>> = state.asStateFlow()

    /** How a failed action shows by default: its message, nothing else changed. */
    private val showError: ScreenState<P, M, L>.(String) -> ScreenState<P, M, L> = { message -> copy(error = message) }

    /** The jobs that may be using the engine or the OCR sessions; [close] waits for them. */
    private val jobs = mutableListOf<Job>()

    init {
        launchGuarded {
            val model = withContext(io) { platform.currentModel() }
            state.update { it.copy(model = it.model ?: model) }
        }
    }

    /** Opens the photo at [from] (null: the user chose none) and clears the last run's results. */
    fun onPhoto(from: L?) {
        if (from == null) return
        work("Opening the photo…") {
            val photo = withContext(io) { platform.openPhoto(from) }
            val preview = withContext(compute) { platform.preview(photo) }
            state.update {
                ScreenState(
                    photo = photo,
                    preview = preview,
                    model = it.model,
                    backend = it.backend,
                    stage = RedactState.Idle.stage,
                )
            }
        }
    }

    /** Takes the model file at [from] (null: none chosen) in place of the current one, which is closed first. */
    fun onModelPicked(from: L?) {
        if (from == null) return
        work("Copying the model into the app and reading its policy (once)…") {
            val model =
                withContext(io) {
                    session.closeModel()
                    platform.importModel(from)
                }
            state.update { it.copy(model = model, backend = null, stage = "Model ready.") }
        }
    }

    /** Redacts the photo with the model; without a photo it does nothing, without a model it says so. */
    fun redact() {
        val photo = state.value.photo ?: return
        val model = state.value.model ?: return state.update { it.copy(error = "Choose the model file first.") }
        // A run that fails however it fails (a thrown error too, say no memory for the burned
        // copy) claims nothing redacted: no boxes, nothing to save.
        work(RedactState.Reading.stage, failed = { message ->
            copy(error = message, boxes = emptyList(), status = null, redacted = null)
        }) {
            state.update { it.copy(boxes = emptyList(), status = null, review = emptyList(), redacted = null, saved = null) }
            // The working copy is what OCR reads; the photo's own pixels are what the burn is checked against.
            val page = withContext(compute) { platform.workingCopy(photo) }
            // The session's runPipeline applies the settings the engine carries (the file's own
            // verified policy, else the fail-closed defaults): an untrusted or unmeasured
            // validator's PASS ends NEEDS_REVIEW, never PASS (ModelSettings.kt).
            val end = session.redact(page, platform.pixels(photo), model) { step -> state.update { it.during(step) } }
            finish(photo, end)
        }
    }

    /** Saves the burned copy as a new file (the original photo is not touched). */
    fun save() {
        val redacted = state.value.redacted ?: return
        work("Saving…") {
            val where = withContext(io) { platform.save(redacted) }
            state.update { it.copy(saved = where, stage = "Saved to ${platform.saveFolder}.") }
        }
    }

    /**
     * Closes the runtimes once every job that may use them has finished. [scope] may already be
     * cancelled (the view model is cleared), but a cancelled run may still be draining its
     * conversation or inside an OCR model call: the engine and the OCR sessions are closed only
     * after it, never under it. Returns the job that closes them.
     */
    fun close(closing: CoroutineScope = CoroutineScope(SupervisorJob() + io)): Job {
        val running = synchronized(jobs) { jobs.toList() }
        return closing.launch {
            running.joinAll()
            session.close()
        }
    }

    /** The screen while a run is under way; how it ends is [finish]'s, once the burn is ready. */
    private fun ScreenState<P, M, L>.during(step: RedactState): ScreenState<P, M, L> =
        when (step) {
            is RedactState.LoadingModel -> copy(stage = step.stage, backend = step.backend ?: backend)
            is RedactState.Redacting -> copy(stage = step.stage, boxes = step.boxes)
            is RedactState.Ended -> this
            else -> copy(stage = step.stage)
        }

    private suspend fun finish(
        photo: P,
        end: RedactState.Ended,
    ) {
        when (end) {
            is RedactState.Failed -> {
                // Nothing is claimed redacted: no boxes, nothing to save. The run may have ended
                // ERROR (the model failed, or a box cut ink that runs on past any word: core's
                // burn check), or a runtime could not open.
                state.update {
                    it.copy(
                        boxes = emptyList(),
                        status = end.redaction?.let { Status.ERROR },
                        error = end.message,
                        stage = end.stage,
                    )
                }
            }

            is RedactState.Done -> {
                val burned = withContext(compute) { platform.burn(photo, end.redaction.burn) }
                state.update { it.copy(boxes = end.boxes, status = end.status, review = end.review, redacted = burned, stage = end.stage) }
            }
        }
    }

    /**
     * Runs [block] as the one action under way, unless another is; what it throws is shown
     * through [failed].
     */
    private fun work(
        stage: String,
        failed: ScreenState<P, M, L>.(String) -> ScreenState<P, M, L> = showError,
        block: suspend () -> Unit,
    ) {
        while (true) {
            val now = state.value
            if (now.busy) return
            if (state.compareAndSet(now, now.copy(busy = true, error = null, stage = stage))) break
        }
        launchGuarded(failed, onEnd = { state.update { it.copy(busy = false) } }, block = block)
    }

    /**
     * Launches [block] in [scope], tracked for [close]. What it throws (cancellation excepted)
     * is laid on the screen by [failed] with the failure's words ([orFailure]), never rethrown
     * into [scope].
     */
    private fun launchGuarded(
        failed: ScreenState<P, M, L>.(String) -> ScreenState<P, M, L> = showError,
        onEnd: () -> Unit = {},
        block: suspend () -> Unit,
    ) {
        val job =
            scope.launch {
                try {
                    orFailure({ block() }) { failure -> state.update { it.failed(failure.message) } }
                } finally {
                    onEnd()
                }
            }
        synchronized(jobs) { jobs.add(job) }
        job.invokeOnCompletion { synchronized(jobs) { jobs.remove(job) } }
    }
}
