package dev.redacto.core.pipeline

import dev.redacto.core.Category
import dev.redacto.core.Detection
import dev.redacto.core.Document
import dev.redacto.core.Mode
import dev.redacto.core.RejectReason
import dev.redacto.core.Source
import dev.redacto.core.Step
import dev.redacto.core.UnexplainedWord
import dev.redacto.core.Verdict
import dev.redacto.core.modelfile.ImageReading

/*
 * Step 4 — Validate: an independent judge reads only the redacted output.
 *
 * A fresh conversation with the category's validate prompt sees the redacted element list
 * or the redacted text (a page read as text: its lines, one placeholder per redacted run of
 * words), chunked like detect, never the detector's answer. It says `PASS`, or `FAIL` and the items still readable, in the
 * detect step's format. Anything but a clean PASS is FAIL. Named items become detections
 * (source validate, this round) when they are usable: a known label, inside the chunk, not
 * redacted already, present in the document. Then the second opinion ([SecondOpinion]): the
 * run's rules and NER tier read the masked output again, and what they find fails the round
 * too, so a PASS stands only when the LLM and both tiers find nothing. Last the residual check
 * ([ResidualCheck]): the words of the masked output no dictionary or keep rule explains are
 * recorded (the run then never ends PASS); under [PipelineOptions.strict] each also fails the
 * round as a missed item (source lexicon). Mirrors `pipeline/validate.py`.
 */

/**
 * The round's verdict, the usable missed items, and every item the LLM named (as lines).
 * [verdict] is FAIL when the LLM said FAIL, the second opinion found something, or (under
 * [PipelineOptions.strict]) a word was unexplained;
 * [modelVerdict] is the LLM's alone, [foundInOutput] the second opinion's hits (also in
 * [missed], after the LLM's).
 */
class Validation {
    var verdict: Verdict = Verdict.PASS
        internal set
    val missed: MutableList<Detection> = mutableListOf()
    val named: MutableList<String> = mutableListOf()
    var modelVerdict: Verdict = Verdict.PASS
        internal set
    val foundInOutput: MutableList<Detection> = mutableListOf()

    /** The residual check's words (under [PipelineOptions.strict] also in [missed], last, as [Source.LEXICON] detections). */
    var unexplained: List<UnexplainedWord> = emptyList()
        internal set

    /** A second-opinion hit joins the missed items and fails the round. */
    internal fun addFoundInOutput(detection: Detection) {
        foundInOutput.add(detection)
        missed.add(detection)
        verdict = Verdict.FAIL
    }

    /** Under [PipelineOptions.strict]: a word no reader could explain is redacted next round. */
    internal fun addUnexplained(detection: Detection) {
        missed.add(detection)
        verdict = Verdict.FAIL
    }
}

private abstract class Judge(
    val context: StepContext,
    val category: Category,
    val round: Int,
    val known: MutableSet<DetectionKey>,
    var chunks: Int? = null,
) {
    val outcome = Validation()

    /** The elements' texts (image mode), to read what an `INDEX:LABEL` item names. */
    var words: List<String> = emptyList()

    /** What the category keeps readable wherever it stands ([KeptReadable]). */
    var kept: KeptReadable? = null

    /** Where this call's items begin in `outcome.missed`; earlier ones came from other chunks. */
    protected var callStart = 0
        private set

    fun progress(
        phase: Phase,
        chunk: Int? = null,
    ) {
        context.emit(
            ProgressEvent(
                step = Step.VALIDATE,
                phase = phase,
                round = round,
                category = category,
                found = outcome.missed.size,
                chunk = chunk,
                chunks = chunks,
                verdict = if (phase == Phase.END) outcome.verdict else null,
                index = if (phase == Phase.PROGRESS) outcome.missed.lastOrNull()?.index else null,
            ),
        )
    }

    /** One fresh call; each completed line is read as the verdict or a missed item. */
    suspend fun run(
        system: String,
        user: String,
        parseItem: (String) -> ParsedLine?,
        chunk: Int? = null,
        constraint: String? = null,
    ) {
        val verdict = VerdictParse()
        val rejected = mutableListOf<LineRejected>()
        callStart = outcome.missed.size
        val reply =
            context.callLines(Step.VALIDATE, system, user, rejected, constraint) { line ->
                val rest = verdict.feed(line) ?: return@callLines
                when (val item = parseItem(rest)) {
                    null -> {}

                    // a blank line or NONE: nothing to act on

                    is LineRejected -> {
                        rejected.add(LineRejected(line, item.reason))
                    }

                    is IndexItem, is TextItem -> {
                        outcome.named.add(if (item is IndexItem) itemLine(item) else itemLine(item as TextItem))
                        val named = trimmedItem(item)
                        // A value that recurs in a long text, named for an earlier chunk: still readable here too.
                        if (missedInEarlierChunk(named)) return@callLines
                        val reason = rejectedAs(named, words, kept) ?: admit(named)
                        if (reason != null) rejected.add(LineRejected(line, reason)) else progress(Phase.PROGRESS, chunk)
                    }
                }
            }
        // A PASS stands only on a reply read to its end: a stop left lines unread.
        if (verdict.final() == Verdict.FAIL || reply.stats.stopped) outcome.verdict = Verdict.FAIL
        context.record(Step.VALIDATE, reply, rejected + verdict.rejected, round, chunk, constrained = constraint != null)
    }

    /** Makes a named item a detection, or says why it cannot be one. */
    abstract fun admit(item: ParsedLine): RejectReason?

    /** Named already in this answer. */
    fun namedTwice(key: DetectionKey): Boolean = outcome.missed.drop(callStart).any { detectionKey(it) == key }

    /** Named for an earlier chunk already: a value that recurs in a long text. */
    protected open fun missedInEarlierChunk(item: ParsedLine): Boolean {
        val key =
            when (item) {
                is IndexItem -> itemKey(item)
                is TextItem -> itemKey(item)
                else -> return false
            }
        return outcome.missed.take(callStart).any { detectionKey(it) == key }
    }
}

private class ImageJudge(
    context: StepContext,
    category: Category,
    round: Int,
    known: MutableSet<DetectionKey>,
    chunks: Int,
) : Judge(context, category, round, known, chunks) {
    override fun admit(item: ParsedLine): RejectReason? {
        check(item is IndexItem) { "image-mode validation reads INDEX:LABEL items" }
        val key = DetectionKey.ByIndex(item.index)
        if (namedTwice(key)) return RejectReason.DUPLICATE
        if (key in known) return RejectReason.ALREADY_REDACTED
        known.add(key)
        outcome.missed.add(Detection(label = item.label, source = Source.VALIDATE, round = round, index = item.index))
        return null
    }
}

private class TextJudge(
    context: StepContext,
    category: Category,
    round: Int,
    known: MutableSet<DetectionKey>,
    val locator: Locator,
    val redaction: TextRedaction,
) : Judge(context, category, round, known) {
    override fun admit(item: ParsedLine): RejectReason? {
        check(item is TextItem) { "text-mode validation reads LABEL: value items" }
        val detection = Detection(label = item.label, source = Source.VALIDATE, round = round, value = item.value)
        val key = detectionKey(detection)
        if (namedTwice(key)) return RejectReason.DUPLICATE
        if (key in known) return RejectReason.ALREADY_REDACTED
        val located = locator.locate(item.value) ?: return RejectReason.NOT_IN_DOCUMENT
        val redacted = redaction.replacements.map { it.span }
        val allCovered = located.spans.all { span -> redacted.any { span.start >= it.start && span.end <= it.end } }
        if (allCovered) return RejectReason.ALREADY_REDACTED
        known.add(key)
        outcome.missed.add(detection)
        return null
    }
}

/** A page read as text: named values are placed on the page's elements by the locator. */
private class PageJudge(
    context: StepContext,
    category: Category,
    round: Int,
    known: MutableSet<DetectionKey>,
    val page: PageText,
) : Judge(context, category, round, known) {
    override fun admit(item: ParsedLine): RejectReason? {
        check(item is TextItem) { "a page read as text is validated with LABEL: value items" }
        val detections = itemDetections(item, Source.VALIDATE, round, page)
        if (detections.first().index == null) return RejectReason.NOT_IN_DOCUMENT
        val fresh = detections.filter { DetectionKey.ByIndex(checkNotNull(it.index)) !in known }
        if (fresh.isEmpty()) {
            val thisCall =
                outcome.missed
                    .drop(callStart)
                    .map { it.index }
                    .toSet()
            return if (detections.any { it.index in thisCall }) RejectReason.DUPLICATE else RejectReason.ALREADY_REDACTED
        }
        fresh.forEach { known.add(DetectionKey.ByIndex(checkNotNull(it.index))) }
        outcome.missed.addAll(fresh)
        return null
    }

    override fun missedInEarlierChunk(item: ParsedLine): Boolean {
        check(item is TextItem) { "a page read as text is validated with LABEL: value items" }
        val indices = page.locate(item.value).toSet()
        val earlier =
            outcome.missed
                .take(callStart)
                .map { it.index }
                .toSet()
        return indices.isNotEmpty() && earlier.containsAll(indices)
    }
}

/** Judges the redacted output; returns the verdict and the usable missed items. */
suspend fun validate(
    document: Document,
    redaction: Redaction,
    detections: List<Detection>,
    category: Category,
    context: StepContext,
    round: Int,
    opinion: SecondOpinion = SecondOpinion(),
    residual: ResidualCheck? = null,
): Validation {
    val known = detections.map(::detectionKey).toMutableSet()
    val judge = llmJudge(document, redaction, detections, category, context, round, known)
    val found =
        if (opinion.readers.isEmpty()) {
            emptyList()
        } else if (redaction is TextRedaction) {
            readTextOutput(document.text, redaction.replacements.map { it.span }, category, opinion, round)
        } else {
            readPageOutput(document, (redaction as ImageRedaction).shown.keys, category, opinion, round)
        }
    judge.outcome.modelVerdict = judge.outcome.verdict
    for (detection in found) {
        if (known.add(detectionKey(detection))) {
            judge.outcome.addFoundInOutput(detection)
            judge.progress(Phase.PROGRESS)
        }
    }
    if (residual != null) {
        judge.outcome.unexplained = residual.unexplainedWords(document, redaction, category)
        if (context.options.strict) {
            for (word in residual.asDetections(judge.outcome.unexplained, round)) {
                if (known.add(detectionKey(word))) judge.outcome.addUnexplained(word)
            }
        }
    }
    judge.progress(Phase.END, (judge.chunks ?: 1) - 1)
    return judge.outcome
}

/** The LLM's calls on the output, chunk by chunk; the judge holds its outcome. */
private suspend fun llmJudge(
    document: Document,
    redaction: Redaction,
    detections: List<Detection>,
    category: Category,
    context: StepContext,
    round: Int,
    known: MutableSet<DetectionKey>,
): Judge {
    val kept = KeptReadable.of(document, category)
    if (document.mode == Mode.IMAGE) {
        check(redaction is ImageRedaction) { "image mode needs an image redaction" }
        if (context.options.imageReading == ImageReading.TEXT) {
            val judge = PageJudge(context, category, round, known, PageText.of(document.elements))
            judge.kept = kept
            val hidden = detections.filter { it.index != null && it.index in redaction.shown }.associateBy { it.index!! }
            return judgeText(judge, redactedLines(document.elements, hidden))
        }
        val template = context.prompts.template(Step.VALIDATE, Mode.IMAGE, category)
        val labels = template.labels.toSet()
        val chunks = chunkElements(redaction.elements, context.options.chunkSize)
        val judge = ImageJudge(context, category, round, known, chunks.size)
        judge.words = document.elements.map { it.text }
        judge.kept = kept
        judge.progress(Phase.START, 0)
        for (chunk in chunks) {
            val (system, user) = template.render(mapOf("elements" to formatElements(chunk.elements)))
            judge.run(system, user, { line -> parseIndexLine(line, labels, chunk.indexRange) }, chunk.number)
        }
        return judge
    }
    check(redaction is TextRedaction) { "text mode needs a text redaction" }
    val judge = TextJudge(context, category, round, known, Locator(document.text), redaction)
    judge.kept = kept
    return judgeText(judge, redaction.text)
}

/** Asks the text-mode validate prompt about [redacted], one call per 150-word chunk. */
private suspend fun judgeText(
    judge: Judge,
    redacted: String,
): Judge {
    val template = judge.context.prompts.template(Step.VALIDATE, Mode.TEXT, judge.category)
    val labels = template.labels.toSet()
    val textChunks = chunkText(redacted, judge.context.options.chunkSize)
    judge.chunks = textChunks.size
    judge.progress(Phase.START, 0)
    for (chunk in textChunks) {
        val shown = chunk.of(redacted)
        val (system, user) = template.render(mapOf("document" to shown))
        // Only words still readable can be named missed (where the manifest says so).
        val constraint = judge.context.constraintFor(Step.VALIDATE, shown, template.labels, ReplyShape.VALIDATE)
        judge.run(system, user, { line -> parseTextLine(line, labels) }, chunk.number, constraint)
    }
    return judge
}
