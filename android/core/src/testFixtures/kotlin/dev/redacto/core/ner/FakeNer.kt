package dev.redacto.core.ner

import kotlin.math.ln

/*
 * The NER model and tokenizer, faked from a golden vector (tests/vectors/ner): the tokenizer
 * gives the stored tokens, the model replays each window's stored output, so core tests every
 * step after the ONNX call without ONNX Runtime, as FakePpOcr does for OCR.
 */

/** One window as a vector stores it: tokens [start, end), each token's best label id and probability, and the logits where stored. */
class StoredWindow(
    val start: Int,
    val end: Int,
    val best: List<Pair<Int, Double>>,
    val logits: List<FloatArray>?,
)

/** Gives the stored tokens of one text (whatever text it is asked about). */
class FakeNerTokenizer(
    private val tokenized: Tokenized,
    override val clsId: Int,
    override val sepId: Int,
) : NerTokenizer {
    override fun tokenize(text: String): Tokenized = tokenized
}

/**
 * Replays [windows] in call order. Each call must send `[CLS] + the window's token ids + [SEP]`;
 * a window stored without logits answers a row whose softmax gives the stored best label its
 * stored probability.
 */
class FakeNerModel(
    override val labels: List<String>,
    private val windows: List<StoredWindow>,
    private val tokenIds: List<Int>,
    private val clsId: Int,
    private val sepId: Int,
    override val maxPositions: Int = 512,
) : NerModel {
    var calls = 0
        private set

    override fun logits(inputIds: IntArray): List<FloatArray> {
        // Each reading of the text calls the windows again, in order.
        val number = calls++ % windows.size
        val window = windows[number]
        val expected = listOf(clsId) + tokenIds.subList(window.start, window.end) + sepId
        check(inputIds.toList() == expected) { "window $number: the model was sent other ids than the vector's" }
        val rows = window.logits ?: window.best.map { (label, probability) -> rowFor(label, probability) }
        return listOf(FloatArray(labels.size)) + rows + listOf(FloatArray(labels.size))
    }

    /** Logits zero but at [label], where ln(p·(n−1)/(1−p)) makes its softmax [probability]. */
    private fun rowFor(
        label: Int,
        probability: Double,
    ): FloatArray {
        val p = probability.coerceIn(1.0 / labels.size + 1e-6, 1.0 - 1e-9)
        return FloatArray(labels.size).also { it[label] = ln(p * (labels.size - 1) / (1 - p)).toFloat() }
    }
}
