package dev.redacto.core.pipeline

import dev.redacto.core.Box
import dev.redacto.core.Category
import dev.redacto.core.Element
import dev.redacto.core.Mode
import dev.redacto.core.ParseError
import dev.redacto.core.RunReport
import dev.redacto.core.Step
import dev.redacto.core.StepTrace
import dev.redacto.core.Verdict
import dev.redacto.core.engines.ChatRequest
import dev.redacto.core.engines.Decoding
import dev.redacto.core.engines.LlmEngine
import dev.redacto.core.engines.Reply
import dev.redacto.core.modelfile.ConstrainedDecoding
import dev.redacto.core.modelfile.ImageReading
import dev.redacto.core.prompts.PipelinePrompts

/*
 * What the steps share: options, progress events, the call context and the result.
 *
 * Steps are plain functions of the document and the detections so far; the [StepContext]
 * carries what every step needs (engine, prompts, options, where events go) and collects the
 * per-call traces and parse errors that end up in the report. Mirrors `pipeline/state.py`.
 */

private val STEP_NUMBERS = mapOf(Step.CLASSIFY to 1, Step.DETECT to 2, Step.REDACT to 3, Step.VALIDATE to 4)

/** Most tokens each step may generate; redact rewrites the whole text. */
data class OutputBudget(
    val classify: Int = 64,
    val detect: Int = 512,
    val redact: Int = 1024,
    val validate: Int = 256,
) {
    fun forStep(step: Step): Int =
        when (step) {
            Step.CLASSIFY -> classify
            Step.DETECT -> detect
            Step.REDACT -> redact
            Step.VALIDATE -> validate
        }
}

/**
 * The three kinds of reader a run can use ([PipelineOptions.detectors]): the checksum rules, the
 * NER token classifier, the LLM (classify, detect, validate). Their hits are unioned by word,
 * never subtracted (DESIGN.md, "Three detectors, one answer"). Mirrors Python's `Detector`.
 */
enum class Detector(
    val wire: String,
) {
    RULES("rules"),
    NER("ner"),
    MODEL("model"),
    ;

    companion object {
        /** `rules,ner,model` (any subset, any order); unknown names throw, naming the known ones. */
        fun parseList(text: String): Set<Detector> {
            val names = text.split(",").map { it.trim().lowercase() }.filter { it.isNotEmpty() }
            val unknown = names.filter { name -> entries.none { it.wire == name } }
            require(unknown.isEmpty() && names.isNotEmpty()) {
                "unknown detectors ${unknown.ifEmpty { listOf(text) }}; choose from ${entries.joinToString { it.wire }}"
            }
            return names.map { name -> entries.first { it.wire == name } }.toSet()
        }

        /** Every tier. */
        val ALL: Set<Detector> = entries.toSet()

        /**
         * [PipelineOptions]' default, as in Python's library (`LIBRARY_DETECTORS`): the rules and
         * the model. A caller that has opened a [NerDetector] asks for [ALL].
         */
        val LIBRARY: Set<Detector> = setOf(RULES, MODEL)
    }
}

/** Knobs of one run. The defaults are the product's behaviour. */
data class PipelineOptions(
    /** False turns the rules tier off whatever [detectors] says. */
    val rules: Boolean = true,
    /**
     * The tiers that read the page. Without [Detector.MODEL] no classify, detect or validate
     * call is made: the category is the given one or General, the output is the located hits,
     * and the run ends NEEDS_REVIEW. [Detector.NER] needs a [NerDetector] ([runPipeline]).
     */
    val detectors: Set<Detector> = Detector.LIBRARY,
    /**
     * Said by the user ("this is a medical record"): classify is skipped and this drives
     * detect, the rules and validate. Null: the model classifies.
     */
    val category: Category? = null,
    val chunkSize: Int = CHUNK_SIZE,
    val maxRounds: Int = 3,
    val budget: OutputBudget = OutputBudget(),
    /**
     * The caller's trust in a validator PASS. A run trusts a PASS only when this and the model's
     * own policy both do ([forModel]: false for a model whose validator was measured saying PASS
     * on pages that still leaked, and for every model that carries no verified policy): a caller
     * can distrust, never trust more. An untrusted PASS ends the rounds, the run NEEDS_REVIEW.
     */
    val trustValidatorPass: Boolean = true,
    /**
     * How an image-mode page is shown to detect and validate (the manifest's
     * `[pipeline] image_reading`). Null: as the model's own policy says ([forModel]).
     */
    val imageReading: ImageReading? = null,
    /**
     * Text mode: ask the model to rewrite the text with placeholders before the locator's
     * deterministic pass (the manifest's `[pipeline] model_redact`). False for a model whose
     * answers the eval never accepted: the call then costs time and changes nothing. Null: as
     * the model's own policy says ([forModel]).
     */
    val modelRedact: Boolean? = null,
    /**
     * Which `LABEL: value` calls decode under a pattern built from the page's words (the
     * manifest's `[pipeline] constrained_decoding`), where the engine can constrain decoding.
     * Null: as the model's own policy says ([forModel]).
     */
    val constrainedDecoding: ConstrainedDecoding? = null,
    /**
     * Every word the residual check cannot explain ([ResidualCheck]) is redacted, as a detection
     * with source [Source.LEXICON] that fails its round. False: those words stay readable and
     * the run ends NEEDS_REVIEW naming them.
     */
    val strict: Boolean = false,
    /** The document's language for the residual check's dictionary (`en`, `fr`); null: detected. */
    val language: String? = null,
)

/** Whether [detector] reads the page in a run with these options. */
fun PipelineOptions.runs(detector: Detector): Boolean = (detector != Detector.RULES || rules) && detector in detectors

enum class Phase { START, PROGRESS, END }

/**
 * A step started, found something, or ended. Carries counts, never document values; a
 * PROGRESS event of an image-mode run names the element just detected ([index]), so a screen
 * can draw its box while the model is still talking.
 */
data class ProgressEvent(
    val step: Step,
    val phase: Phase,
    val round: Int = 1,
    val category: Category? = null,
    val found: Int = 0,
    val chunk: Int? = null,
    val chunks: Int? = null,
    val verdict: Verdict? = null,
    val index: Int? = null,
) {
    /** The progress line, e.g. `Step 2/4: Detecting Medical identifiers… 7 found`. */
    fun describe(): String {
        val prefix = "Step ${STEP_NUMBERS.getValue(step)}/4: "
        val part = if (chunks != null && chunks > 1 && chunk != null) " (part ${chunk + 1}/$chunks)" else ""
        val again = if (round > 1) " (round $round)" else ""
        return when (step) {
            Step.CLASSIFY -> {
                val tail = if (phase == Phase.END && category != null) " ${category.label}" else ""
                "${prefix}Classifying document…$tail"
            }

            Step.DETECT -> {
                val kind = category?.let { "${it.label} " } ?: ""
                "${prefix}Detecting ${kind}identifiers$part… $found found"
            }

            Step.REDACT -> {
                "${prefix}Redacting$again… $found redacted"
            }

            Step.VALIDATE -> {
                val outcome = verdict?.let { " ${it.name}" } ?: ""
                val missed = if (found > 0) ", $found missed" else ""
                "${prefix}Validating$again$part…$outcome$missed"
            }
        }
    }
}

/** Where the steps find their prompts; the app uses the compiled-in [PipelinePrompts]. */
fun interface PromptBook {
    fun template(
        step: Step,
        mode: Mode,
        category: Category?,
    ): PipelinePrompts.Template

    companion object {
        val BUILT_IN: PromptBook = PromptBook { step, mode, category -> PipelinePrompts.template(step, mode, category) }
    }
}

/** A finished run. Outputs are null when the run ended in ERROR (nothing to claim). */
data class PipelineResult(
    val report: RunReport,
    val redactedText: String? = null,
    val redactedElements: List<Element>? = null,
    val boxes: List<Box> = emptyList(),
)

/** Engine, prompts and options for the steps, plus the traces they record. */
class StepContext(
    val engine: LlmEngine,
    val prompts: PromptBook,
    options: PipelineOptions,
    private val onEvent: ((ProgressEvent) -> Unit)? = null,
) {
    /** Every setting decided before a step reads it: one left to a model never applied takes its default. */
    val options: PipelineOptions = options.settled()

    val traces: MutableList<StepTrace> = mutableListOf()
    val parseErrors: MutableList<ParseError> = mutableListOf()

    /** Chunks whose detect answer was rejected whole (every line junk or invented). */
    val unreadChunks: MutableList<Int> = mutableListOf()

    fun emit(event: ProgressEvent) {
        onEvent?.invoke(event)
    }

    /**
     * The pattern a `LABEL: value` reply of [step] to a call showing [shown] must match, when the
     * options constrain that step and the engine can apply it ([answerPattern]).
     */
    fun constraintFor(
        step: Step,
        shown: String,
        labels: List<String>,
        shape: ReplyShape,
    ): String? {
        val setting = options.constrainedDecoding ?: return null
        if (!setting.covers(step) || !engine.supportsConstraints) return null
        return answerPattern(shown, labels, shape).pattern
    }

    /** One fresh, greedy conversation; [onText] sees the reply as it is generated. */
    suspend fun call(
        step: Step,
        system: String,
        user: String,
        onText: (String) -> Decoding = { Decoding.CONTINUE },
        constraint: String? = null,
    ): Reply {
        val request =
            ChatRequest(step = step, system = system, user = user, maxOutputTokens = options.budget.forStep(step), constraint = constraint)
        val started = System.nanoTime()
        val reply = engine.complete(request, onText)
        if (reply.stats.ms > 0) return reply
        return reply.copy(stats = reply.stats.copy(ms = (System.nanoTime() - started) / 1e6))
    }

    /**
     * A call whose reply is acted on line by line as each ends. [rejected] is where [onLine]
     * files the lines it drops; once they show the model has left the format, decoding stops
     * (see [LineWatch]), and a constrained reply stops at its first repeated line. The reply
     * says `stopped` whenever the watch left part of it unread, also when the stop came at its
     * last piece.
     */
    suspend fun callLines(
        step: Step,
        system: String,
        user: String,
        rejected: List<LineRejected>,
        constraint: String? = null,
        onLine: (String) -> Unit,
    ): Reply {
        val watch = LineWatch(onLine, rejected, stopOnRepeat = constraint != null)
        val reply = call(step, system, user, watch::feed, constraint).also { watch.finish() }
        if (!watch.stopped || reply.stats.stopped) return reply
        return reply.copy(stats = reply.stats.copy(stopped = true))
    }

    /** Keeps the call's trace and the lines it could not use. */
    fun record(
        step: Step,
        reply: Reply,
        rejected: List<LineRejected>,
        round: Int = 1,
        chunk: Int? = null,
        constrained: Boolean = false,
    ) {
        traces.add(
            StepTrace(
                step = step,
                round = round,
                chunk = chunk,
                ms = Math.round(reply.stats.ms * 1000) / 1000.0,
                promptTokens = reply.stats.promptTokens,
                outputTokens = reply.stats.outputTokens,
                ttftMs = reply.stats.ttftMs,
                parseErrors = rejected.size,
                stopped = reply.stats.stopped,
                constrained = constrained,
            ),
        )
        rejected.forEach { parseErrors.add(ParseError(step = step, round = round, chunk = chunk, line = it.line, reason = it.reason)) }
    }
}
