package dev.redacto.core.session

import dev.redacto.core.Status
import dev.redacto.core.imaging.PhotoPixels
import dev.redacto.core.inputs.ImageInput
import dev.redacto.core.inputs.redact
import dev.redacto.core.lexicon.LexiconFiles
import dev.redacto.core.ner.NerModel
import dev.redacto.core.ner.NerReader
import dev.redacto.core.ner.NerTier
import dev.redacto.core.ocr.PpOcrModels
import dev.redacto.core.ocr.PpOcrReader
import dev.redacto.core.ocr.RgbImage
import dev.redacto.core.pipeline.Detector
import dev.redacto.core.pipeline.LiveBoxes
import dev.redacto.core.pipeline.PipelineOptions
import dev.redacto.core.pipeline.reviewItems
import dev.redacto.core.rules.RuleDetector
import dev.redacto.core.rules.Rules
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext

/**
 * The app's redaction of a photo, without Android: OCR reads the page, the model for the
 * chosen file runs core's [redact] with the rules and the NER tier beside it, and every step
 * is reported as a [RedactState] (boxes drawn as [LiveBoxes] sees them). The runtimes come
 * from [runtimes] and are opened once, on first use, and kept: the model until another model
 * is asked for or [closeModel], the OCR and NER until [close]. A failure of any of them ends
 * the run [RedactState.Failed], never an exception (cancellation excepted).
 *
 * One run at a time: the caller does not start a run, [closeModel] or [close] while one is
 * running. Every run applies the policy the engine's model carries (core's `runPipeline`), so
 * no caller can make an untrusted validator's PASS end PASS.
 */
class RedactSession<M>(
    private val runtimes: Runtimes<M>,
    /** The residual check's dictionaries (the app's `lexicon/` assets). */
    private val lexicon: LexiconFiles? = null,
    private val options: PipelineOptions = PipelineOptions(detectors = Detector.ALL),
    private val rules: RuleDetector = Rules.DETECTOR,
    /** Where the runtimes are opened (file and native loads). */
    private val io: CoroutineDispatcher = Dispatchers.IO,
    /** Where OCR and the pipeline run. */
    private val compute: CoroutineDispatcher = Dispatchers.Default,
) : AutoCloseable {
    private var ocrModels: PpOcrModels? = null
    private var reader: PpOcrReader? = null
    private var nerModel: NerModel? = null
    private var ner: NerTier? = null
    private var model: M? = null
    private var engine: LoadedEngine? = null

    /**
     * Redacts [photo], read by OCR from [page] (its working copy), with the model [choice]
     * names; reports each state to [onState] (from the thread the step runs on), the last one
     * included, and returns that last one: [RedactState.Done] or [RedactState.Failed].
     */
    suspend fun redact(
        page: RgbImage,
        photo: PhotoPixels,
        choice: M,
        onState: (RedactState) -> Unit = {},
    ): RedactState.Ended {
        val end = orFailure({ run(page, photo, choice, onState) }) { it }
        onState(end)
        return end
    }

    private suspend fun run(
        page: RgbImage,
        photo: PhotoPixels,
        choice: M,
        onState: (RedactState) -> Unit,
    ): RedactState.Ended {
        onState(RedactState.Reading)
        // The input carries the photo itself: core's redact checks the burn against its ink.
        val input = withContext(compute) { ImageInput.read(page, photo, reader()) }
        onState(RedactState.LoadingModel())
        val loaded = withContext(io) { engineFor(choice) }
        onState(RedactState.LoadingModel(loaded.backend))
        val tier = withContext(io) { nerTier() }
        val live = LiveBoxes(input.document)
        val redaction =
            withContext(compute) {
                redact(input, loaded.engine, options = options, rules = live.rules(rules), ner = live.ner(tier), lexicon = lexicon) { event ->
                    live.onEvent(event)
                    onState(RedactState.Redacting(loaded.backend, event, live.boxes))
                }
            }
        val report = redaction.report
        if (report.status == Status.ERROR) return RedactState.Failed(Failure.NOT_REDACTED, report.error, redaction)
        live.finish(redaction.boxes)
        val review = if (report.status == Status.NEEDS_REVIEW) reviewItems(report, input.document) else emptyList()
        return RedactState.Done(redaction, loaded.backend, live.boxes, review)
    }

    private fun reader(): PpOcrReader = reader ?: PpOcrReader(runtimes.ocr.open().also { ocrModels = it }).also { reader = it }

    private fun engineFor(choice: M): LoadedEngine {
        engine?.let { if (model == choice) return it }
        closeModel()
        return runtimes.engine.open(choice).also {
            engine = it
            model = choice
        }
    }

    private fun nerTier(): NerTier =
        ner ?: runtimes.ner.open().let { opened ->
            nerModel = opened.model
            NerTier(NerReader(opened.tokenizer, opened.model)).also { ner = it }
        }

    /** Closes the model (before another file replaces it: models are large); the next run opens it again. */
    fun closeModel() {
        val loaded = engine
        engine = null
        model = null
        loaded?.engine?.close()
    }

    /** Closes every runtime this session opened. */
    override fun close() {
        closeModel()
        ocrModels?.close()
        nerModel?.close()
        ocrModels = null
        reader = null
        nerModel = null
        ner = null
    }
}
