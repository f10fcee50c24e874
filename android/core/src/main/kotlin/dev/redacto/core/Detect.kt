package dev.redacto.core

/*
 * Step 2 — Detect: the category's own prompt finds the identifiers, one line per item.
 *
 * Image mode shows the elements as an indexed list, 150 per call, and reads `INDEX:LABEL`
 * lines; text mode shows the text, 150 words per call, and reads `LABEL: value` lines. Each
 * line is acted on as soon as it is complete (the count on screen rises while the model
 * talks). Lines that cannot be used are dropped and recorded as parse errors. Mirrors
 * `pipeline/detect.py`.
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

/** The canonical line for an item (`1:NAME`, `NAME: value`). */
/** The [detectionKey] the item's detection will have. */
fun itemKey(item: IndexItem): DetectionKey = DetectionKey.ByIndex(item.index)

fun itemKey(item: TextItem): DetectionKey = DetectionKey.ByValue(valueKey(item.value))

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

    fun progress(
        phase: Phase,
        chunk: Int? = null,
    ) {
        val index = if (phase == Phase.PROGRESS) found.lastOrNull()?.index else null
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

    /** Files one parsed line: a new detection (true), a rejection, or nothing. */
    fun keep(
        item: ParsedLine?,
        line: String,
        rejected: MutableList<LineRejected>,
    ): Boolean {
        val detection =
            when (item) {
                null -> {
                    return false
                }

                is LineRejected -> {
                    rejected.add(item)
                    return false
                }

                is IndexItem -> {
                    Detection(label = item.label, source = Source.DETECT, round = 1, index = item.index)
                }

                is TextItem -> {
                    Detection(label = item.label, source = Source.DETECT, round = 1, value = item.value)
                }
            }
        val key = detectionKey(detection)
        if (key in seen) {
            // Found by a rule or in an earlier chunk (a name recurs in a long text): no fault
            // of the model's. Said twice in one answer: a duplicate.
            if (key in keptInCall) rejected.add(LineRejected(line, RejectReason.DUPLICATE))
            return false
        }
        seen.add(key)
        keptInCall.add(key)
        found.add(detection)
        return true
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
    val template = context.prompts.template(Step.DETECT, document.mode, category)
    val labels = template.labels.toSet()
    val findings = Findings(context, category, already.map(::detectionKey).toMutableSet())

    val calls =
        if (document.mode == Mode.TEXT) {
            chunkText(document.text, context.options.chunkSize).map { chunk ->
                ChunkCall(chunk.number, template.render(mapOf("document" to chunk.of(document.text)))) { line ->
                    parseTextLine(line, labels)
                }
            }
        } else {
            chunkElements(document.elements, context.options.chunkSize).map { chunk ->
                ChunkCall(chunk.number, template.render(mapOf("elements" to formatElements(chunk.elements)))) { line ->
                    // Indices outside the chunk are the model's error.
                    parseIndexLine(line, labels, chunk.indexRange)
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
    val reply =
        context.callLines(Step.DETECT, system, user, rejected) { line ->
            if (findings.keep(call.parse(line), line, rejected)) {
                findings.progress(Phase.PROGRESS, call.number)
            }
        }
    context.record(Step.DETECT, reply, rejected, chunk = call.number)
}
