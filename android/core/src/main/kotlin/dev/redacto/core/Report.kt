package dev.redacto.core

import dev.redacto.core.engines.ModelIdentity
import dev.redacto.core.lexicon.WordKind
import dev.redacto.core.pipeline.RejectReason
import dev.redacto.core.pipeline.Verdict

/** Version of the `report.json` shape; mirrors `REPORT_VERSION` in `tools/redacto/report.py`. */
const val REPORT_VERSION = 1

/**
 * One LLM call: which step, round and chunk, and what it cost. [stopped]: decoding was
 * stopped early because the reply had left the step's format ([LineWatch]) or a redact
 * answer could no longer be accepted ([answerMayAlign]).
 */
data class StepTrace(
    val step: Step,
    val round: Int = 1,
    val chunk: Int? = null,
    val ms: Double,
    val promptTokens: Int? = null,
    val outputTokens: Int? = null,
    val ttftMs: Double? = null,
    val parseErrors: Int = 0,
    val stopped: Boolean = false,
    val constrained: Boolean = false,
)

/** A line the model produced that could not be used, and why (kept for the report). */
data class ParseError(
    val step: Step,
    val round: Int = 1,
    val chunk: Int? = null,
    val line: String,
    /** Why it was dropped; its [RejectReason.wire] string is what reports and vectors hold. */
    val reason: RejectReason,
)

/** Why a run ended NEEDS_REVIEW: what a person should look at. */
enum class ReviewReason(
    val wire: String,
) {
    NO_TEXT("no text found"),
    STILL_FAILING("validator still failing after the last round"),

    /** Validate's second opinion ([SecondOpinion]) found a value readable in the last round's output. */
    OUTPUT_STILL_READS("rules or NER still find values in the output after the last round"),
    NOTHING_USABLE("validator failed without naming anything usable"),
    NOT_LOCATED("detections could not be located"),

    /** The model's verified policy says its validator was measured passing leaky pages. */
    PASS_NOT_TRUSTED("this model's validator PASS is not trusted"),
    MODEL_OFF("the model tier did not run: no validator read the output"),

    /** The model carries no verified policy (a foreign or edited file): its PASS is not trusted, whatever its name. */
    MODEL_NOT_MEASURED("this model's validator has not been measured"),

    /** Every line of a detect answer was junk or named what is not on the page. */
    DETECT_REJECTED("a detect answer was rejected whole"),

    /**
     * The residual check ([ResidualCheck], docs/lexicon.md) found words in the final output
     * that no dictionary or rule of the category explains: [RunReport.unexplained] lists them.
     * Under [PipelineOptions.strict] they were redacted, but nothing read the output after that.
     */
    UNEXPLAINED_WORDS("words no reader could explain"),

    /** The run was given no dictionaries ([runPipeline]'s `lexicon`), so no word of its output was checked. */
    NO_LEXICON("the residual check had no dictionaries: no word of the output was checked"),
}

/** The review reasons as a person reads them, the residual check's with its count (`3 words no reader could explain`). */
fun describeReasons(report: RunReport): List<String> =
    report.reviewReasons.map { reason ->
        if (reason == ReviewReason.UNEXPLAINED_WORDS) {
            val count = report.unexplained.size
            "$count word${if (count == 1) "" else "s"} no reader could explain"
        } else {
            reason.wire
        }
    }

/** A word the final output leaves readable that no reader could explain (the residual check): where it stands, what it looks like. */
data class UnexplainedWord(
    val value: String,
    val kind: WordKind,
    /** Text mode: where it stands in the input text (code points). */
    val span: Span? = null,
    /** Image mode: the element it is (or lies in), and that element's box and page. */
    val index: Int? = null,
    val box: Box? = null,
    val page: Int = 0,
    /** [PipelineOptions.strict] redacted it (a detection with source [Source.LEXICON]). */
    val redacted: Boolean = false,
)

/**
 * The run's outcome, the same shape as Python's `RunReport`.
 * [countShown] must always equal `boxes.size` in image mode.
 */
data class RunReport(
    val version: Int = REPORT_VERSION,
    val status: Status,
    val mode: Mode,
    val category: Category,
    val documentType: String = "",
    val classifyFallback: Boolean = false,
    /** The category came from the user ([PipelineOptions.category]), not from the classify step. */
    val categoryGiven: Boolean = false,
    val rounds: Int = 0,
    val detections: List<Detection> = emptyList(),
    val boxes: List<Box> = emptyList(),
    val countShown: Int = 0,
    val notLocated: List<Detection> = emptyList(),
    val reviewReasons: List<ReviewReason> = emptyList(),
    val redactFallback: Boolean = false,
    val validatorMissed: List<String> = emptyList(),
    /**
     * The last validate round's verdict (its name, `PASS` or `FAIL`, is Python's
     * `validator_verdict`); null when no validation ran. It differs from [status] when the run
     * needs review for another reason.
     */
    val validatorVerdict: Verdict? = null,
    val steps: List<StepTrace> = emptyList(),
    val parseErrors: List<ParseError> = emptyList(),
    /** Which model answered: the engine's own [LlmEngine.identity]. */
    val model: ModelIdentity,
    /** The words of the final output no reader could explain; non-empty comes with [ReviewReason.UNEXPLAINED_WORDS]. */
    val unexplained: List<UnexplainedWord> = emptyList(),
    /** The language whose dictionary the residual check read the output with (`en`, `fr`); null when it did not run. */
    val language: String? = null,
    val ocr: String? = null,
    val error: String? = null,
)
