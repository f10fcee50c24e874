package dev.redacto.core


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

/** Why a model line was dropped. The wire values are stable: reports and vectors use them. */
enum class RejectReason(
    val wire: String,
) {
    JUNK("junk"),
    UNKNOWN_LABEL("unknown label"),
    OUT_OF_CHUNK("index outside the chunk"),
    DUPLICATE("duplicate"),
    EMPTY_VALUE("empty value"),
    PLACEHOLDER_VALUE("value is a placeholder"),
    UNKNOWN_CATEGORY("unknown category"),
    BAD_VERDICT("no PASS/FAIL verdict"),
    ALREADY_REDACTED("already redacted"),
    NOT_IN_DOCUMENT("not in the document"),

    /** A NAME whose value is a lone pronoun or function word ([NotNames]). */
    NOT_A_NAME("not a name"),

    /** A value that is only a time of day or an amount ([NotIdentifiers]). */
    NOT_AN_IDENTIFIER("not an identifier"),

    /** A value the category's preserve rules keep readable wherever it stands ([KeptReadable]). */
    KEPT_READABLE("kept readable by the category"),
}

/** The validator's answer on a round. */
enum class Verdict { PASS, FAIL }

/**
 * Which model answered: recorded in every report so results can be traced to a file (the
 * engine's URI, the file name, its sha256), and the policy the file carries: the manifest and
 * quantisation it was built from, and whether that policy could be verified ([policy]). The
 * run's settings come from the model's verified policy ([LlmEngine.settings]), never from a
 * name here. Mirrors Python's `ModelIdentity`.
 */
data class ModelIdentity(
    val uri: String,
    val name: String,
    val sha256: String? = null,
    val manifest: String? = null,
    val quant: String? = null,
    val policy: PolicyState = PolicyState.NOT_OPENED,
)

/**
 * Whether a model carries a policy its run may rely on ([checkModelFile]). Only [VERIFIED] (a
 * `.litertlm` whose policy and content match its seal and digest) and [DECLARED] (an engine
 * that reads no model file and states its own settings: a script) give the model's settings;
 * every other state runs the fail-closed defaults, so its validator's PASS is not trusted.
 * [wire] is Python's `PolicyState` value, the vectors' `state` its name in lower case.
 */
enum class PolicyState(
    val wire: String,
) {
    VERIFIED("verified"),
    DECLARED("declared by the engine"),
    ABSENT("no policy in the file"),
    EDITED("policy edited since it was sealed"),
    CONTENT_CHANGED("model content changed since its policy was sealed"),
    UNREADABLE("not a readable model file"),
    NOT_OPENED("the model was not opened"),
    ;

    /** May the model's own settings apply (else the fail-closed defaults do)? */
    val trusted: Boolean get() = this == VERIFIED || this == DECLARED
}

/** What an unexplained word looks like (the vectors' and the report's `kind`). */
enum class WordKind(
    val wire: String,
) {
    EMAIL("email"),
    URL("url"),
    DOMAIN("domain"),
    DIGITS("digits"),
    CAPITALISED("capitalised"),
    LOWER_CASE("lower-case"),
    OTHER("other"),
}
