package dev.redacto.core.pipeline

import dev.redacto.core.Box
import dev.redacto.core.Detection
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.Mode
import dev.redacto.core.Span
import dev.redacto.core.Step
import dev.redacto.core.engines.Decoding
import dev.redacto.core.text.CodePointText
import dev.redacto.core.text.PyText

/**
 * Step 3 — Redact: replace every detection with its `[LABEL_N]` placeholder.
 *
 * Image mode is deterministic and lossless: a detected index is its element's box, and the
 * redacted element list shows the placeholder instead of the word. Text mode asks the model
 * to rewrite the text with placeholders (it copes with OCR noise and its own "corrections"),
 * then trusts only what it can check: the answer must be the original text with some pieces
 * replaced, each replaced piece must be one of the detections. The locator's spans are always
 * added, so a model that misses something cannot unredact it. A detection that neither finds
 * is "not located": reported, and the run fails closed. Mirrors `pipeline/redact.py`; spans
 * count code points.
 */
const val MIN_SHARED_RUN = 5

private val UNFINISHED_PLACEHOLDER = PyText.regex("""\[[A-Z0-9_]*$""")

/** The outcome of a redaction in either mode. */
sealed interface Redaction {
    val text: String
    val notLocated: List<Detection>
}

/** Placeholders shown per detected index, and the boxes to burn (one per index). */
data class ImageRedaction(
    val shown: Map<Int, String>,
    val boxes: List<Box>,
    val elements: List<Element>,
    override val notLocated: List<Detection>,
) : Redaction {
    override val text: String get() = elements.joinToString(" ") { it.text }
}

/** One span of the original text and the placeholder that replaces it. */
data class Replacement(
    val span: Span,
    val placeholder: String,
    val detection: Detection,
)

/**
 * The redacted text, what was replaced, and whether the model's answer was used as-is.
 * [modelPieces]: every span a checked model answer tied to a detection, this round's and
 * earlier rounds'.
 */
data class TextRedaction(
    override val text: String,
    val replacements: List<Replacement>,
    override val notLocated: List<Detection>,
    val modelAnswerAccepted: Boolean,
    val modelPieces: List<Pair<Span, Detection>> = emptyList(),
) : Redaction

/** Maps each detected index to its box and placeholder (numbered in reading order). */
fun redactElements(
    document: Document,
    detections: List<Detection>,
    context: StepContext,
    round: Int,
): ImageRedaction {
    context.emit(ProgressEvent(step = Step.REDACT, phase = Phase.START, round = round))
    val byIndex = sortedMapOf<Int, Detection>()
    detections.forEach { detection -> detection.index?.let { byIndex[it] = detection } }
    val book = PlaceholderBook()
    val shown = linkedMapOf<Int, String>()
    val boxes = mutableListOf<Box>()
    // No index: a value the text reading could not place on the page.
    val notLocated = detections.filter { it.index == null }.toMutableList()
    for ((index, detection) in byIndex) {
        val element = document.elements[index]
        shown[index] = book.assign(detection.label, element.text)
        if (element.box == null) notLocated.add(detection) else boxes.add(element.box)
    }
    val elements = document.elements.map { element -> shown[element.index]?.let { element.copy(text = it) } ?: element }
    context.emit(ProgressEvent(step = Step.REDACT, phase = Phase.END, round = round, found = boxes.size))
    return ImageRedaction(shown, boxes, elements, notLocated)
}

/**
 * Redacts text-mode detections: the model's checked answer plus the locator's spans.
 *
 * The model is asked per 150-word chunk ([chunkText]), and only for a chunk where a detection
 * is located, with only those detections listed; a detection located nowhere is listed for
 * every chunk, since the model may still find what the locator cannot. [earlierPieces] are
 * spans a checked model answer of an earlier round tied to a detection; they stay redacted
 * even if this round's answer is unusable.
 */
suspend fun redactText(
    document: Document,
    detections: List<Detection>,
    context: StepContext,
    round: Int,
    askModel: Boolean = true,
    earlierPieces: List<Pair<Span, Detection>> = emptyList(),
): TextRedaction {
    context.emit(ProgressEvent(step = Step.REDACT, phase = Phase.START, round = round))
    val text = document.text
    val found = (earlierPieces + locateDetections(text, detections)).toMutableList()
    var accepted = false
    val pieces = mutableListOf<Pair<Span, Detection>>()
    if (askModel && detections.isNotEmpty()) {
        accepted = true
        for ((chunk, listed) in chunkListings(text, detections, found, context.options.chunkSize)) {
            val chunkPieces = askChunk(chunk, text, listed, context, round)
            if (chunkPieces == null) {
                accepted = false
                continue
            }
            pieces.addAll(chunkPieces)
            val covered = chunkPieces.map { detectionKey(it.second) }.toSet()
            accepted = accepted && listed.all { detectionKey(it) in covered }
        }
    }
    found.addAll(pieces)
    val replacements = number(merge(found))
    val coveredKeys = found.map { detectionKey(it.second) }.toSet()
    val notLocated = detections.filter { detectionKey(it) !in coveredKeys }
    val redacted = apply(text, replacements)
    context.emit(ProgressEvent(step = Step.REDACT, phase = Phase.END, round = round, found = replacements.size))
    return TextRedaction(redacted, replacements, notLocated, accepted, earlierPieces + pieces)
}

/** Every span the locator (or a detection's own span) places a detection at. */
fun locateDetections(
    text: String,
    detections: List<Detection>,
): List<Pair<Span, Detection>> {
    val found = mutableListOf<Pair<Span, Detection>>()
    val locator = Locator(text)
    for (detection in detections) {
        detection.span?.let { found.add(it to detection) }
        locator.locate(detection.value ?: "")?.spans?.forEach { found.add(it to detection) }
    }
    return found
}

/**
 * The chunks the redact step asks about, each with its detections (in list order). A chunk
 * is asked about when a detection is placed in it ([found]); a detection placed nowhere is
 * listed for every chunk. A text of one chunk lists every detection.
 */
fun chunkListings(
    text: String,
    detections: List<Detection>,
    found: List<Pair<Span, Detection>>,
    size: Int = CHUNK_SIZE,
): List<Pair<TextChunk, List<Detection>>> {
    val placed = found.map { detectionKey(it.second) }.toSet()
    return chunkText(text, size).mapNotNull { chunk ->
        val here =
            found
                .filter { (span, _) -> chunk.overlaps(span.start, span.end) }
                .map { detectionKey(it.second) }
                .toSet()
        val listed = detections.filter { detectionKey(it) in here || detectionKey(it) !in placed }
        if (listed.isEmpty()) null else chunk to listed
    }
}

/**
 * The redact prompt's `LABEL: value` list. One line per distinct item: the prompt numbers
 * placeholders in list order. Python formats a missing value as "None"; text-mode detections
 * always carry one.
 */
fun redactListing(detections: List<Detection>): String =
    detections.map { "${it.label}: ${it.value ?: "None"}" }.distinct().joinToString("\n")

/** One fresh redact call for one chunk; its checked pieces in whole-text coordinates. */
private suspend fun askChunk(
    chunk: TextChunk,
    text: String,
    listed: List<Detection>,
    context: StepContext,
    round: Int,
): List<Pair<Span, Detection>>? {
    val part = chunk.of(text)
    val template = context.prompts.template(Step.REDACT, Mode.TEXT, null)
    val (system, user) = template.render(mapOf("document" to part, "detections" to redactListing(listed)))
    val watch = AnswerWatch(part)
    val reply = context.call(Step.REDACT, system, user, watch::feed)
    context.record(Step.REDACT, reply, emptyList(), round, chunk.number)
    val pieces = alignAnswer(part, reply.text, listed) ?: return null
    return pieces.map { (span, detection) -> Span(span.start + chunk.start, span.end + chunk.start) to detection }
}

/**
 * Reads the model's redacted text back as spans of the original, or null if rewritten.
 *
 * The answer must be the original (surrounding whitespace aside) with some pieces replaced
 * by placeholders; each replaced piece must match one detection's value. Any other change — a
 * fixed typo, a dropped sentence, a redacted diagnosis — rejects the whole answer.
 */
fun alignAnswer(
    original: String,
    answer: String,
    detections: List<Detection>,
): List<Pair<Span, Detection>>? {
    // Worked in UTF-16 units like the rest of Kotlin; spans are converted to code points at the end.
    val trimmedAnswer = PyText.strip(answer)
    val offset = original.length - PyText.lstrip(original).length
    val body = PyText.strip(original)
    val (literals, labels) = splitAtPlaceholders(trimmedAnswer)
    if (labels.isEmpty()) return if (trimmedAnswer == body) emptyList() else null
    val starts = literalStarts(body, literals.dropLast(1))?.toMutableList() ?: return null
    val finalStart = body.length - literals.last().length
    if (!body.endsWith(literals.last()) || finalStart <= starts.last() + literals[literals.size - 2].length) {
        return null
    }
    starts.add(finalStart)
    val pieces = mutableListOf<Pair<Span, Detection>>()
    for ((number, label) in labels.withIndex()) {
        val gapFrom = starts[number] + literals[number].length
        val gap = body.substring(gapFrom, starts[number + 1])
        val gapStart = gapFrom + (gap.length - PyText.lstrip(gap).length)
        val gapEnd = gapFrom + PyText.rstrip(gap).length
        val owner = owner(body.substring(gapStart, gapEnd), label, detections) ?: return null
        val span = Span(original.codePointCount(0, offset + gapStart), original.codePointCount(0, offset + gapEnd))
        pieces.add(span to owner)
    }
    return pieces
}

/**
 * False once a partial answer can no longer become one [alignAnswer] accepts.
 *
 * Only conditions every accepted answer meets are checked, so an answer that would be
 * accepted is never cut short; one that rewrites the text is stopped where it departs from
 * the original instead of running to its output budget.
 */
fun answerMayAlign(
    original: String,
    partial: String,
): Boolean {
    val body = PyText.strip(original)
    var answer = PyText.lstrip(partial)
    val unfinished = UNFINISHED_PLACEHOLDER.matcher(answer)
    if (unfinished.find()) answer = answer.substring(0, unfinished.start())
    val literals = splitAtPlaceholders(answer).first
    val complete = literals.dropLast(1)
    val last = PyText.rstrip(literals.last())
    if (complete.isEmpty()) return body.startsWith(last)
    val starts = literalStarts(body, complete) ?: return false
    return last.isEmpty() || body.indexOf(last, starts.last() + complete.last().length + 1) != -1
}

/** The text between placeholders (one more than there are placeholders) and their labels. */
private fun splitAtPlaceholders(answer: String): Pair<List<String>, List<String>> {
    val literals = mutableListOf<String>()
    val labels = mutableListOf<String>()
    val matcher = PLACEHOLDER_PATTERN.matcher(answer)
    var after = 0
    while (matcher.find()) {
        literals.add(answer.substring(after, matcher.start()))
        labels.add(matcher.group(1))
        after = matcher.end()
    }
    literals.add(answer.substring(after))
    return literals to labels
}

/**
 * Where each literal of an answer starts in [body], read left to right; null if one can't.
 *
 * The first literal must open [body]. Each later one is the text between two placeholders:
 * it must not be empty (the split between back-to-back placeholders is unknown) and must
 * start at least one character after the one before ends, the character a placeholder hides.
 */
private fun literalStarts(
    body: String,
    literals: List<String>,
): List<Int>? {
    if (!body.startsWith(literals[0])) return null
    val starts = mutableListOf(0)
    for (number in 1 until literals.size) {
        val literal = literals[number]
        val from = starts.last() + literals[number - 1].length + 1
        val start = if (literal.isEmpty()) -1 else body.indexOf(literal, from)
        if (start == -1) return null
        starts.add(start)
    }
    return starts
}

/** Stops the redact answer as soon as it can no longer be accepted. */
private class AnswerWatch(
    private val original: String,
) {
    private val answer = StringBuilder()

    fun feed(piece: String): Decoding {
        answer.append(piece)
        return if (answerMayAlign(original, answer.toString())) Decoding.CONTINUE else Decoding.STOP
    }
}

/** The detection a replaced piece stands for, preferring one with the same label. */
private fun owner(
    piece: String,
    label: String,
    detections: List<Detection>,
): Detection? {
    val matching = detections.filter { valuesMatch(piece, it.value ?: "") }
    return matching.firstOrNull { it.label == label } ?: matching.firstOrNull()
}

/**
 * Could OCR noise or a model "correction" turn one into the other? Same letters and digits;
 * or few edits (a third of the length, one for mostly-digit values); or, for words, a shared
 * run of at least 5 letters/digits that is half the shorter one, within at most one extra
 * word — never a whole sentence for one name.
 */
fun valuesMatch(
    piece: String,
    value: String,
): Boolean {
    val a = skeleton(piece)
    val b = skeleton(value)
    if (a.isEmpty() || b.isEmpty()) {
        val strippedPiece = PyText.strip(piece)
        return strippedPiece == PyText.strip(value) && strippedPiece.isNotEmpty()
    }
    if (a == b) return true
    val pointsA = codePointsOf(a)
    val pointsB = codePointsOf(b)
    val budget = fuzzyBudget(b)
    if (Math.abs(pointsA.size - pointsB.size) <= budget && editDistance(pointsA, pointsB) <= budget) return true
    if (isNumeric(a) || isNumeric(b)) return false
    if (PyText.splitWhitespace(piece).size > PyText.splitWhitespace(value).size + 1) return false
    return longestSharedRun(pointsA, pointsB) >= maxOf(MIN_SHARED_RUN, (minOf(pointsA.size, pointsB.size) + 1) / 2)
}

private fun longestSharedRun(
    a: IntArray,
    b: IntArray,
): Int {
    var best = 0
    var previous = IntArray(b.size + 1)
    for (charA in a) {
        val current = IntArray(b.size + 1)
        for (j in 1..b.size) {
            if (charA == b[j - 1]) {
                current[j] = previous[j - 1] + 1
                best = maxOf(best, current[j])
            }
        }
        previous = current
    }
    return best
}

/** Disjoint spans in reading order; overlapping ones merge, the longest finder names it. */
private fun merge(found: List<Pair<Span, Detection>>): List<Pair<Span, Detection>> {
    data class Merged(
        val span: Span,
        val owner: Detection,
        val ownerLength: Int,
    )

    val merged = mutableListOf<Merged>()
    for ((span, detection) in found.sortedWith(compareBy({ it.first.start }, { -it.first.end }))) {
        if (span.end <= span.start) continue
        val previous = merged.lastOrNull()
        if (previous != null && span.start < previous.span.end) {
            val length = span.end - span.start
            val longer = length > previous.ownerLength
            merged[merged.lastIndex] =
                Merged(
                    Span(previous.span.start, maxOf(previous.span.end, span.end)),
                    if (longer) detection else previous.owner,
                    if (longer) length else previous.ownerLength,
                )
        } else {
            merged.add(Merged(span, detection, span.end - span.start))
        }
    }
    return merged.map { it.span to it.owner }
}

private fun number(spans: List<Pair<Span, Detection>>): List<Replacement> {
    val book = PlaceholderBook()
    return spans.map { (span, detection) -> Replacement(span, book.assign(detection.label, detection.value ?: ""), detection) }
}

private fun apply(
    text: String,
    replacements: List<Replacement>,
): String {
    val source = CodePointText(text)
    val out = StringBuilder()
    var position = 0
    for (replacement in replacements) {
        out.append(source.slice(position, replacement.span.start))
        out.append(replacement.placeholder)
        position = replacement.span.end
    }
    out.append(source.slice(position, source.length))
    return out.toString()
}
