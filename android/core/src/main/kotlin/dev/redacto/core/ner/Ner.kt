package dev.redacto.core.ner

import dev.redacto.core.Category
import dev.redacto.core.Detection
import dev.redacto.core.Document
import dev.redacto.core.Mode
import dev.redacto.core.Source
import dev.redacto.core.Span
import dev.redacto.core.rules.RuleMatching
import dev.redacto.core.text.CodePointText
import dev.redacto.core.text.NotIdentifiers
import dev.redacto.core.text.NotNames
import dev.redacto.core.text.PyText
import dev.redacto.core.text.TinyJson

/*
 * The NER tier: Rampart, a token classifier, as a second kind of detector beside the rules
 * and the LLM. Its hits join the others by word and never remove one (DESIGN.md, "Three
 * detectors, one answer"). Mirrors Python's `redacto.ner`.
 *
 * Only running the model is platform-specific: the app implements [NerModel] with ONNX
 * Runtime (the same runtime as its PP-OCR); tokenizing, windows, decoding, labels and filters
 * are here and run on the JVM, where tests/vectors/ner replays the model's stored output.
 */

/** The token classifier, as the NER tier needs it. */
interface NerModel : AutoCloseable {
    /** The model's labels by id (`config.json`'s `id2label`): `O`, `B-GIVEN_NAME`, `I-GIVEN_NAME`, … */
    val labels: List<String>

    /** Most positions one call may take, [CLS] and [SEP] included (`max_position_embeddings`). */
    val maxPositions: Int

    /** One row of logits per input position of `[CLS] … [SEP]`, one column per label. */
    fun logits(inputIds: IntArray): List<FloatArray>

    override fun close() {}
}

/** What the tier reads of the model's `config.json`: its labels by id and its positions. */
data class NerModelConfig(
    val labels: List<String>,
    val maxPositions: Int,
) {
    companion object {
        /** Reads a Hugging Face `config.json` (`id2label`, `max_position_embeddings`). */
        fun fromJson(json: String): NerModelConfig {
            val root = TinyJson.parse(json) as? Map<*, *> ?: throw IllegalArgumentException("config.json is not an object")
            val byId = root["id2label"] as? Map<*, *> ?: throw IllegalArgumentException("config.json has no id2label")
            val labels =
                byId.indices().map {
                    byId[it.toString()] as? String
                        ?: throw IllegalArgumentException("config.json has no label $it")
                }
            val positions =
                root["max_position_embeddings"] as? Long ?: throw IllegalArgumentException("config.json has no max_position_embeddings")
            return NerModelConfig(labels, positions.toInt())
        }

        private fun Map<*, *>.indices(): IntRange = 0 until size
    }
}

/** One window and the model's logits for its tokens (without [CLS] and [SEP]). */
class NerWindowOutput(
    val window: NerWindow,
    val logits: List<FloatArray>,
)

/** A text read by the model: its tokens, the windows, and each token's reading. */
class NerReading(
    val tokenized: Tokenized,
    val windows: List<NerWindowOutput>,
    val readings: List<TokenReading>,
) {
    val tokens: List<NerToken> get() = tokenized.tokens
}

/**
 * Tokenizes a text once and reads it in windows ([planWindows]); each token takes its reading
 * from the window that sees it with the most context ([bestWindow]). Opened once and reused:
 * the model load is the expensive part.
 */
class NerReader(
    private val tokenizer: NerTokenizer,
    private val model: NerModel,
    windowTokens: Int = NER_WINDOW_TOKENS,
    private val overlapTokens: Int = NER_OVERLAP_TOKENS,
) : AutoCloseable {
    private val windowTokens: Int = minOf(windowTokens, model.maxPositions - 2)

    /** Every token's reading, window by window. */
    fun read(text: String): NerReading {
        val tokenized = tokenizer.tokenize(text)
        val tokens = tokenized.tokens
        val windows = planWindows(tokenized.wordIds, windowTokens, overlapTokens)
        val outputs =
            windows.map { window ->
                val ids = IntArray(window.end - window.start + 2)
                ids[0] = tokenizer.clsId
                for (position in window.start until window.end) ids[position - window.start + 1] = tokens[position].id
                ids[ids.size - 1] = tokenizer.sepId
                val rows = model.logits(ids)
                check(rows.size == ids.size) { "the NER model gave ${rows.size} rows for ${ids.size} positions" }
                NerWindowOutput(window, rows.subList(1, rows.size - 1))
            }
        val readings =
            tokens.indices.map { position ->
                val chosen = outputs[bestWindow(position, windows)]
                val (best, probability) = softmaxBest(chosen.logits[position - chosen.window.start])
                TokenReading(model.labels[best], probability)
            }
        return NerReading(tokenized, outputs, readings)
    }

    override fun close() = model.close()
}

/** Every stage of one text's reading, for the golden vectors and for debugging. */
class NerTrace(
    val reading: NerReading,
    val words: List<WordHit>,
    /** Word hits joined, after the words that are no value are dropped ([NerTier.wordIsValue]). */
    val joined: List<SpanHit>,
    val kept: List<SpanHit>,
)

/** The NER tier as the pipeline runs it: a document's detections under a category. */
fun interface NerDetector {
    /** The tier's detections, shaped like the rules' (source `ner`, round 1). */
    fun find(
        document: Document,
        category: Category,
        allowedLabels: Collection<String>,
    ): List<Detection>
}

/**
 * The NER tier over an open [NerReader]: labels mapped per category, each category's preserve
 * rules applied (a span beside a role the category preserves too), a lone city, a lone
 * function word, a time or an amount dropped. `find_ner_detections` in Python.
 */
class NerTier(
    private val reader: NerReader,
    private val threshold: Double = NER_THRESHOLD,
) : NerDetector {
    /** Reads [text] and keeps every stage: tokens and readings, word hits, joined spans, kept spans. */
    fun trace(
        text: String,
        category: Category,
        allowedLabels: Collection<String>,
    ): NerTrace = decide(text, reader.read(text), category, allowedLabels, threshold)

    /** The tier's spans in [text] under [category] (code-point offsets). */
    fun findSpans(
        text: String,
        category: Category,
        allowedLabels: Collection<String>,
    ): List<SpanHit> = if (PyText.strip(text).isEmpty()) emptyList() else trace(text, category, allowedLabels).kept

    /** The tier's detections, shaped like the rules' ([nerDetections]). */
    override fun find(
        document: Document,
        category: Category,
        allowedLabels: Collection<String>,
    ): List<Detection> =
        nerDetections(document) { text ->
            findSpans(text, category, allowedLabels).map { Triple(it.start, it.end, it.label) }
        }

    companion object {
        /**
         * The decisions on a reading: word hits, the words that are values joined, and the spans
         * kept after the category's filters. Pure, so tests run it on stored model output.
         */
        fun decide(
            text: String,
            reading: NerReading,
            category: Category,
            allowedLabels: Collection<String>,
            threshold: Double = NER_THRESHOLD,
        ): NerTrace {
            val words = wordHits(text, reading.tokens, reading.readings, { NerLabels.labelFor(it, allowedLabels) }, threshold)
            val joined = joinHits(text, words.filter { wordIsValue(text, it) }, NerLabels.COMMA_JOINS)
            return NerTrace(reading, words, joined, joined.filter { kept(text, it, category) })
        }

        /**
         * A word hit stands unless it names a field (`email:`) or is a word never a NAME (`Coucou`
         * of "Coucou Thérèse"): decisions are by word, so these go before words join.
         */
        fun wordIsValue(
            text: String,
            hit: WordHit,
        ): Boolean {
            val word = CodePointText(text).slice(hit.start, hit.end)
            return PyText.casefold(word) !in NerLabels.FIELD_WORDS && !NotNames.isNotAName(hit.label, word)
        }

        private fun kept(
            text: String,
            span: SpanHit,
            category: Category,
        ): Boolean {
            val value = CodePointText(text).slice(span.start, span.end)
            if (NerLabels.LONE_NOT_AN_ADDRESS.containsAll(span.entities)) return false
            if (NotNames.isNotAName(span.label, value) || NerLabels.isAmount(text, span.start, span.end)) return false
            if (NotIdentifiers.identifiesNoOne(value)) return false
            if (NerLabels.hasRole(text, span.start, span.end, category, span.label)) return false
            if (NerLabels.namesEquipment(text, span.start, span.end, category)) return false
            if (span.label == "NAME" && NerLabels.namesAnOrganisation(text, span.start, span.end)) return false
            return span.entities.toSet().none { NerLabels.preserved(it, value, category) }
        }
    }
}

/**
 * Detections of the spans `(start, end, label)` (code points) that [spansIn] finds in a text.
 * Text mode: one detection per span, with `span` and `value`. Image mode: each page is read as
 * the lines of the text it was typeset from ([RuleMatching.unwrappedLineBreaks]: a printed line
 * that wrapped goes on with a space, one that ended short breaks), so a role that ends a short
 * line never vouches for a name that starts the next; every element a span touches is a
 * detection (`value` the span's text), ordered by index. Mirrors Python's `ner_detections`.
 */
internal fun nerDetections(
    document: Document,
    spansIn: (String) -> List<Triple<Int, Int, String>>,
): List<Detection> {
    if (document.mode == Mode.TEXT) {
        val text = CodePointText(document.text)
        return spansIn(document.text).map { (start, end, label) ->
            Detection(label = label, source = Source.NER, round = 1, value = text.slice(start, end), span = Span(start, end))
        }
    }
    val byIndex = sortedMapOf<Int, Detection>()
    for (page in RuleMatching.joinByPage(document.elements, unwrapLines = true)) {
        val text = CodePointText(page.text)
        for ((start, end, label) in spansIn(page.text)) {
            val value = text.slice(start, end)
            // JoinedElements counts UTF-16 units; the tier counts code points.
            for (index in page.indicesBetween(text.toCharIndex(start), text.toCharIndex(end))) {
                byIndex.getOrPut(index) { Detection(label = label, source = Source.NER, round = 1, index = index, value = value) }
            }
        }
    }
    return byIndex.values.toList()
}
