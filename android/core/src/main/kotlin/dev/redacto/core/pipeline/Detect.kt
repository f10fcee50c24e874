package dev.redacto.core.pipeline

import dev.redacto.core.Category
import dev.redacto.core.Detection
import dev.redacto.core.Document
import dev.redacto.core.Mode
import dev.redacto.core.RejectReason
import dev.redacto.core.Source
import dev.redacto.core.Step
import dev.redacto.core.modelfile.ImageReading
import dev.redacto.core.text.NotIdentifiers
import dev.redacto.core.text.NotNames

/*
 * Step 2 — Detect: the category's own prompt finds the identifiers, one line per item.
 *
 * Image mode shows the elements as an indexed list, 150 per call, and reads `INDEX:LABEL`
 * lines; text mode shows the text, 150 words per call, and reads `LABEL: value` lines. Image
 * mode's text reading shows the page as text lines like text mode and maps each value back
 * onto the elements it covers ([PageText]); a value it cannot place stays a value-only
 * detection, which the redact step reports as not located. Each line is acted on as soon as
 * it is complete (the count on screen rises while the model talks). Lines that cannot be
 * used are dropped and recorded as parse errors. Mirrors `pipeline/detect.py`.
 */

/** What makes two detections the same thing: the element (image) or the value (text). */
sealed interface DetectionKey {
    data class ByIndex(
        val index: Int,
    ) : DetectionKey

    data class ByValue(
        val value: String,
    ) : DetectionKey
}

fun detectionKey(detection: Detection): DetectionKey =
    detection.index?.let { DetectionKey.ByIndex(it) } ?: DetectionKey.ByValue(valueKey(detection.value ?: ""))

/**
 * Adds the [new] detections not already present; returns (all, the ones added). The first
 * finder of an element or value keeps it (rules run first, then detect, then each validate
 * round), so nothing already detected is ever removed or relabelled.
 */
fun unionDetections(
    existing: List<Detection>,
    new: List<Detection>,
): Pair<List<Detection>, List<Detection>> {
    val seen = existing.map(::detectionKey).toMutableSet()
    val added = new.filter { seen.add(detectionKey(it)) }
    return (existing + added) to added
}

/**
 * The detections one named item stands for. An index is its element; a text-mode value is
 * itself. On a page read as text ([page]), a value is every element the locator places it on,
 * each carrying the value; a value it cannot place stays a value-only detection (reported as
 * not located, never dropped).
 */
fun itemDetections(
    item: ParsedLine,
    source: Source,
    round: Int,
    page: PageText? = null,
): List<Detection> =
    when (item) {
        is IndexItem -> {
            listOf(Detection(label = item.label, source = source, round = round, index = item.index))
        }

        is TextItem -> {
            val indices = page?.locate(item.value).orEmpty()
            if (indices.isEmpty()) {
                listOf(Detection(label = item.label, source = source, round = round, value = item.value))
            } else {
                indices.map { Detection(label = item.label, source = source, round = round, index = it, value = item.value) }
            }
        }

        is LineRejected -> {
            error("a rejected line names no detection")
        }
    }

/**
 * Why a named item stands for nothing, or null: a lone pronoun or function word named a NAME
 * (`My`, `Je`: FINDINGS 3), a value that is only a time or an amount under any label
 * ([NotIdentifiers]), or one the category keeps readable wherever it stands ([kept]:
 * [KeptReadable]). [words] are the elements' texts by position, for an `INDEX:LABEL` item.
 */
fun rejectedAs(
    item: ParsedLine,
    words: List<String> = emptyList(),
    kept: KeptReadable? = null,
): RejectReason? {
    val (label, value) =
        when (item) {
            is TextItem -> item.label to item.value
            is IndexItem -> item.label to words.getOrNull(item.index)
            is LineRejected -> return null
        }
    if (NotNames.isNotAName(label, value)) return RejectReason.NOT_A_NAME
    if (NotIdentifiers.identifiesNoOne(value)) return RejectReason.NOT_AN_IDENTIFIER
    if (kept != null && kept.keeps(item)) return RejectReason.KEPT_READABLE
    return null
}

/** The item with a NAME value's opening greeting cut (`Coucou Thérèse` → `Thérèse`, [NotIdentifiers.withoutOpeners]). */
fun trimmedItem(item: ParsedLine): ParsedLine {
    if (item !is TextItem) return item
    val value = NotIdentifiers.withoutOpeners(item.label, item.value)
    return if (value == item.value) item else TextItem(item.label, value)
}

/** The [detectionKey] the item's detection will have. */
fun itemKey(item: IndexItem): DetectionKey = DetectionKey.ByIndex(item.index)

fun itemKey(item: TextItem): DetectionKey = DetectionKey.ByValue(valueKey(item.value))

/** The canonical line for an item (`1:NAME`, `NAME: value`). */
fun itemLine(item: IndexItem): String = "${item.index}:${item.label}"

fun itemLine(item: TextItem): String = "${item.label}: ${item.value}"

/** Detections of one detect step, as the lines arrive, with the running count. */
private class Findings(
    val context: StepContext,
    val category: Category,
    val seen: MutableSet<DetectionKey>,
) {
    val found = mutableListOf<Detection>()
    var chunks: Int? = null
    val keptInCall = mutableSetOf<DetectionKey>()

    /** A PROGRESS event names the element just detected ([index]), so its box can be drawn. */
    fun progress(
        phase: Phase,
        chunk: Int? = null,
        index: Int? = null,
    ) {
        context.emit(
            ProgressEvent(
                step = Step.DETECT,
                phase = phase,
                category = category,
                found = seen.size,
                chunk = chunk,
                chunks = chunks,
                index = index,
            ),
        )
    }

    /** The page as text, when an image is read as text: where values are placed. */
    var page: PageText? = null

    /** Where `LABEL: value` answers are looked for (the text, or the page as text). */
    var locator: Locator? = null

    /** The elements' texts (image mode), to read what an `INDEX:LABEL` item names. */
    var words: List<String> = emptyList()

    /** What the category keeps readable wherever it stands ([KeptReadable]). */
    var kept: KeptReadable? = null

    /**
     * A value with no trace in the text (FINDINGS 2: mostly the prompt's own examples) cannot
     * leak: it is dropped as noise, not kept as a detection that is not located. A near miss
     * stays, and fails closed when the redact step cannot place it.
     */
    fun invented(value: String): Boolean {
        val where = checkNotNull(locator) { "text answers need a locator" }
        return where.locate(value) == null && !where.near(value)
    }

    /** Files one parsed line: the new detections it gave (in order), a rejection, or nothing. */
    fun keep(
        item: ParsedLine?,
        line: String,
        rejected: MutableList<LineRejected>,
    ): List<Detection> {
        when (item) {
            null -> return emptyList()
            is LineRejected -> return emptyList<Detection>().also { rejected.add(item) }
            else -> {}
        }
        val named = trimmedItem(item)
        if (named is TextItem && invented(named.value)) {
            rejected.add(LineRejected(line, RejectReason.NOT_IN_DOCUMENT))
            return emptyList()
        }
        val reason = rejectedAs(named, words, kept)
        if (reason != null) {
            rejected.add(LineRejected(line, reason))
            return emptyList()
        }
        val fresh = mutableListOf<Detection>()
        var saidBefore = false
        for (detection in itemDetections(named, Source.DETECT, 1, page)) {
            val key = detectionKey(detection)
            if (key in seen) {
                // Found by a rule or in an earlier chunk (a name recurs in a long text): no
                // fault of the model's. Said twice in one answer: a duplicate.
                saidBefore = saidBefore || key in keptInCall
                continue
            }
            seen.add(key)
            keptInCall.add(key)
            found.add(detection)
            fresh.add(detection)
        }
        if (saidBefore && fresh.isEmpty()) rejected.add(LineRejected(line, RejectReason.DUPLICATE))
        return fresh
    }
}

/**
 * Runs the detector over the document; returns its detections (round 1, source detect).
 * [already] (the rule hits) seeds the running count shown to the user; the model naming one
 * of them again is not counted as an error.
 */
suspend fun detect(
    document: Document,
    category: Category,
    context: StepContext,
    already: List<Detection>,
): List<Detection> {
    val findings = Findings(context, category, already.map(::detectionKey).toMutableSet())
    findings.words = document.elements.map { it.text }
    findings.kept = KeptReadable.of(document, category)
    val calls =
        if (document.mode == Mode.IMAGE && context.options.imageReading != ImageReading.TEXT) {
            val template = context.prompts.template(Step.DETECT, Mode.IMAGE, category)
            val labels = template.labels.toSet()
            chunkElements(document.elements, context.options.chunkSize).map { chunk ->
                ChunkCall(chunk.number, template.render(mapOf("elements" to formatElements(chunk.elements)))) { line ->
                    // Indices outside the chunk are the model's error.
                    parseIndexLine(line, labels, chunk.indexRange)
                }
            }
        } else {
            // Text mode, or a page read as text: the same prompt, the same `LABEL: value` lines.
            var text = document.text
            if (document.mode == Mode.IMAGE) {
                val page = PageText.of(document.elements)
                findings.page = page
                text = page.text
            }
            findings.locator = findings.page?.locator ?: Locator(text)
            val template = context.prompts.template(Step.DETECT, Mode.TEXT, category)
            val labels = template.labels.toSet()
            chunkText(text, context.options.chunkSize).map { chunk ->
                // Answers limited to the words this call shows (where the manifest says so).
                val constraint = context.constraintFor(Step.DETECT, chunk.of(text), template.labels, ReplyShape.DETECT)
                ChunkCall(chunk.number, template.render(mapOf("document" to chunk.of(text))), constraint) { line ->
                    parseTextLine(line, labels)
                }
            }
        }
    findings.chunks = calls.size
    findings.progress(Phase.START, 0)
    for (call in calls) detectChunk(call, findings, context)
    findings.progress(Phase.END, calls.size - 1)
    return findings.found
}

/** One chunk's detect call: its number, rendered (system, user) and line parser. */
private class ChunkCall(
    val number: Int,
    val prompt: Pair<String, String>,
    val constraint: String? = null,
    val parse: (String) -> ParsedLine?,
)

/** One fresh call for one chunk; each completed line is kept or recorded as rejected. */
private suspend fun detectChunk(
    call: ChunkCall,
    findings: Findings,
    context: StepContext,
) {
    val rejected = mutableListOf<LineRejected>()
    findings.keptInCall.clear()
    val (system, user) = call.prompt
    var lines = 0
    val reply =
        context.callLines(Step.DETECT, system, user, rejected, call.constraint) { line ->
            val item = call.parse(line)
            if (item != null) lines += 1
            for (detection in findings.keep(item, line, rejected)) {
                findings.progress(Phase.PROGRESS, call.number, detection.index)
            }
        }
    // Nothing of the answer was usable: the model did not read this chunk.
    if (lines > 0 && rejected.size >= lines) context.unreadChunks.add(call.number)
    context.record(Step.DETECT, reply, rejected, chunk = call.number, constrained = call.constraint != null)
}
