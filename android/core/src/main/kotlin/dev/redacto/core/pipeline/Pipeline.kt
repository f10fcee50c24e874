package dev.redacto.core.pipeline

import dev.redacto.core.Category
import dev.redacto.core.Detection
import dev.redacto.core.Document
import dev.redacto.core.Mode
import dev.redacto.core.ReviewReason
import dev.redacto.core.RunReport
import dev.redacto.core.Source
import dev.redacto.core.Span
import dev.redacto.core.Status
import dev.redacto.core.UnexplainedWord
import dev.redacto.core.Verdict
import dev.redacto.core.engines.EngineException
import dev.redacto.core.engines.LlmEngine
import dev.redacto.core.lexicon.LexiconFiles
import dev.redacto.core.ner.NerDetector
import dev.redacto.core.prompts.PipelinePrompts
import dev.redacto.core.rules.RuleDetector
import dev.redacto.core.rules.Rules
import dev.redacto.core.text.PyText

/*
 * The pipeline, top to bottom: classify, detect, then redact and validate in rounds.
 *
 * [runPipeline] is the one place to read the data flow; each step lives in its own file. A
 * privacy tool fails closed: anything it could not verify ends NEEDS_REVIEW, never PASS, and
 * an engine failure ends ERROR with no redacted output claimed. Mirrors `pipeline/run.py`.
 */

/**
 * Redacts one document. Engine failures become an ERROR result, never an exception.
 *
 * The defaults are the product's behaviour, as in Python: the shipped rules run (unless
 * `options.rules` is false), and the settings the engine's model carries are applied to
 * [options] first ([forModel]: a built file's verified policy, else the fail-closed
 * defaults), so no caller gets a PASS the model's own policy forbids.
 * The NER tier runs where `options.detectors` names it, on [ner] (an open [NerTier];
 * asking for it without one throws). The residual check reads each round's output with
 * [lexicon]'s dictionaries (the app: its `lexicon/` assets); without them no word is checked
 * and the run never ends PASS ([ReviewReason.NO_LEXICON]).
 */
suspend fun runPipeline(
    document: Document,
    engine: LlmEngine,
    prompts: PromptBook = PromptBook.BUILT_IN,
    options: PipelineOptions = PipelineOptions(),
    rules: RuleDetector = Rules.DETECTOR,
    ner: NerDetector? = null,
    lexicon: LexiconFiles? = null,
    onEvent: ((ProgressEvent) -> Unit)? = null,
): PipelineResult {
    require(ner != null || Detector.NER !in options.detectors) {
        "the NER tier was asked for, but no NerDetector was given"
    }
    val context = StepContext(engine, prompts, options.forModel(engine), onEvent)
    val run = PipelineRun(document, context, rules, ner, lexicon)
    return try {
        run.execute()
    } catch (error: EngineException) {
        run.failed(error)
    }
}

/** The state of one run as the steps fill it in. */
private class PipelineRun(
    val document: Document,
    val context: StepContext,
    val rules: RuleDetector,
    val ner: NerDetector?,
    val lexicon: LexiconFiles?,
) {
    var classification = Classification(Category.GENERAL, "", fallback = false)
    var detections: List<Detection> = emptyList()
    val namedByValidator = mutableListOf<String>()
    var rounds = 0
    val reasons = mutableListOf<ReviewReason>()
    var lastVerdict: Verdict? = null
    var modelPieces: List<Pair<Span, Detection>> = emptyList()

    /** The residual check, once validate runs (null before, or without [lexicon]). */
    var residual: ResidualCheck? = null

    /** Whether validate read the output (so the residual check should have). */
    var validated = false

    /** Under `strict`: unexplained words the last round redacted with no reader after. */
    var redactedUnread: List<UnexplainedWord> = emptyList()

    suspend fun execute(): PipelineResult {
        if (PyText.strip(document.plainText()).isEmpty()) {
            reasons.add(ReviewReason.NO_TEXT)
            return finished(redact(askModel = false), Verdict.FAIL)
        }

        // 1. Classify
        val model = context.options.runs(Detector.MODEL)
        if (model) {
            classification = classify(document, context)
        } else {
            context.options.category?.let { classification = Classification(it, "", fallback = false, given = true) }
        }
        val category = classification.category

        // 2. Detect (the rules and the NER tier first; every tier's hits are unioned by word,
        // never subtracted)
        detections = if (context.options.runs(Detector.RULES)) rules.find(document, category) else emptyList()
        detections = unionDetections(detections, nerDetections(category)).first
        if (!model) {
            reasons.add(ReviewReason.MODEL_OFF)
            return finished(redact(askModel = false), Verdict.FAIL)
        }
        val modelHits = detect(document, category, context, already = detections)
        detections = unionDetections(detections, modelHits).first

        // 3–4. Redact and validate, adding what the validator names, for at most N rounds
        var verdict = Verdict.FAIL
        var redaction: Redaction? = null
        validated = true
        residual = lexicon?.let { ResidualCheck.of(document, it, context.options.language) }
        for (round in 1..context.options.maxRounds) {
            rounds = round
            redaction = redact(round)
            val check = validate(document, redaction, detections, category, context, round, secondOpinion(), residual)
            namedByValidator.addAll(check.named)
            verdict = check.verdict
            lastVerdict = verdict
            if (verdict == Verdict.PASS) {
                if (!context.options.trustValidatorPass) reasons.add(untrustedPassReason())
                break
            }
            if (check.missed.isEmpty()) {
                reasons.add(ReviewReason.NOTHING_USABLE)
                break
            }
            detections = unionDetections(detections, check.missed).first
            if (round == context.options.maxRounds) {
                // Out of rounds: keep everything found in the output, unverified.
                if (check.modelVerdict == Verdict.FAIL) reasons.add(ReviewReason.STILL_FAILING)
                if (check.foundInOutput.isNotEmpty()) reasons.add(ReviewReason.OUTPUT_STILL_READS)
                if (context.options.strict) redactedUnread = check.unexplained.map { it.copy(redacted = true) }
                redaction = redact(round, askModel = false)
            }
        }
        return finished(checkNotNull(redaction) { "max_rounds must be at least 1" }, verdict)
    }

    /**
     * Why a PASS is not trusted: the model's verified policy says so, or the model carries no
     * policy that could be verified (whatever its file is called).
     */
    fun untrustedPassReason(): ReviewReason =
        if (context.engine.identity.policy.trusted) ReviewReason.PASS_NOT_TRUSTED else ReviewReason.MODEL_NOT_MEASURED

    fun nerDetections(category: Category): List<Detection> {
        if (!context.options.runs(Detector.NER)) return emptyList()
        return checkNotNull(ner).find(document, category, PipelinePrompts.categoryLabels(category))
    }

    /** The run's own rules and NER tier, to read each round's output again. */
    fun secondOpinion(): SecondOpinion {
        val readers = mutableListOf<Pair<Source, OutputReader>>()
        if (context.options.runs(Detector.RULES)) readers.add(Source.VALIDATE_RULES to OutputReader { doc, cat -> rules.find(doc, cat) })
        if (context.options.runs(Detector.NER)) {
            val tier = checkNotNull(ner)
            readers.add(Source.VALIDATE_NER to OutputReader { doc, cat -> tier.find(doc, cat, PipelinePrompts.categoryLabels(cat)) })
        }
        return SecondOpinion(readers)
    }

    suspend fun redact(
        round: Int = 1,
        askModel: Boolean = true,
    ): Redaction =
        if (document.mode == Mode.IMAGE) {
            redactElements(document, detections, context, round)
        } else {
            redactText(
                document,
                detections,
                context,
                round,
                askModel && context.options.modelRedact != false,
                earlierPieces = modelPieces,
            ).also {
                modelPieces = it.modelPieces
            }
        }

    fun finished(
        redaction: Redaction,
        verdict: Verdict,
    ): PipelineResult {
        if (redaction.notLocated.isNotEmpty()) reasons.add(ReviewReason.NOT_LOCATED)
        if (context.unreadChunks.isNotEmpty()) reasons.add(ReviewReason.DETECT_REJECTED)
        val unexplained = unexplainedIn(redaction)
        if (unexplained.isNotEmpty()) reasons.add(ReviewReason.UNEXPLAINED_WORDS)
        if (validated && residual == null) reasons.add(ReviewReason.NO_LEXICON)
        val status = if (verdict == Verdict.PASS && reasons.isEmpty()) Status.PASS else Status.NEEDS_REVIEW
        val report = report(status).copy(notLocated = redaction.notLocated, unexplained = unexplained, language = residual?.language)
        return when (redaction) {
            is ImageRedaction -> {
                PipelineResult(
                    report = report.copy(boxes = redaction.boxes, countShown = redaction.boxes.size),
                    redactedText = redaction.text,
                    redactedElements = redaction.elements,
                    boxes = redaction.boxes,
                )
            }

            is TextRedaction -> {
                PipelineResult(
                    report =
                        report.copy(
                            countShown = redaction.replacements.size,
                            redactFallback = !redaction.modelAnswerAccepted && detections.isNotEmpty(),
                        ),
                    redactedText = redaction.text,
                )
            }
        }
    }

    /** The residual check on the final output, where validate ran: the words `strict` redacted after the last reading, then those the output still shows. */
    fun unexplainedIn(redaction: Redaction): List<UnexplainedWord> {
        val check = residual ?: return emptyList()
        return redactedUnread + check.unexplainedWords(document, redaction, classification.category)
    }

    fun failed(error: EngineException): PipelineResult =
        PipelineResult(report = report(Status.ERROR).copy(error = "${error::class.simpleName}: ${error.message}"))

    fun report(status: Status): RunReport =
        RunReport(
            status = status,
            mode = document.mode,
            category = classification.category,
            documentType = classification.documentType,
            classifyFallback = classification.fallback,
            categoryGiven = classification.given,
            rounds = rounds,
            detections = detections.toList(),
            reviewReasons = reasons.toList(),
            validatorMissed = namedByValidator.toList(),
            validatorVerdict = lastVerdict,
            steps = context.traces.toList(),
            parseErrors = context.parseErrors.toList(),
            model = context.engine.identity,
        )
}
