package dev.redacto.core.session

import dev.redacto.core.engines.LlmEngine
import dev.redacto.core.ner.NerModel
import dev.redacto.core.ner.NerToken
import dev.redacto.core.ner.NerTokenizer
import dev.redacto.core.ner.Tokenized
import dev.redacto.core.ocr.FakePpOcrModels
import dev.redacto.core.ocr.OcrException
import dev.redacto.core.ocr.PpOcrModels

/**
 * The session's three factories over core's fakes (a scripted engine per model choice,
 * [FakePpOcrModels], a NER tier that finds nothing), counting what they open and what gets
 * closed. [ocrFails]: the OCR cannot open.
 */
class CountingRuntimes(
    val ocrFails: Boolean = false,
    val script: () -> LlmEngine,
) {
    val opened = mutableListOf<String>()
    val closed = mutableListOf<String>()
    val enginesOpened: Int get() = opened.size
    var ocrOpened = 0
    var ocrClosed = 0
    var nerOpened = 0
    var nerClosed = 0

    val runtimes =
        Runtimes<String>(
            engine = { choice ->
                val inner = script()
                opened.add(choice)
                LoadedEngine(ClosingEngine(inner) { closed.add(choice) }, "scripted")
            },
            ocr = {
                if (ocrFails) throw OcrException("could not load PP-OCRv6_det_small.onnx")
                ocrOpened++
                ClosingOcr(FakePpOcrModels()) { ocrClosed++ }
            },
            ner = {
                nerOpened++
                NerRuntime(WordTokenizer, SilentNer { nerClosed++ })
            },
        )
}

private class ClosingEngine(
    inner: LlmEngine,
    val onClose: () -> Unit,
) : LlmEngine by inner {
    override fun close() = onClose()
}

private class ClosingOcr(
    inner: PpOcrModels,
    val onClose: () -> Unit,
) : PpOcrModels by inner {
    override fun close() = onClose()
}

/** One token a word, as a tokenizer that knows every word whole would give. */
private object WordTokenizer : NerTokenizer {
    override val clsId: Int = 101
    override val sepId: Int = 102

    override fun tokenize(text: String): Tokenized {
        val words = Regex("\\S+").findAll(text).toList()
        return Tokenized(words.map { NerToken(1000, it.range.first, it.range.last + 1) }, words.indices.toList())
    }
}

/** A classifier that reads every token as `O`: the NER tier runs and finds nothing. */
private class SilentNer(
    val onClose: () -> Unit,
) : NerModel {
    override val labels: List<String> = listOf("O", "B-GIVEN_NAME", "I-GIVEN_NAME")
    override val maxPositions: Int = 512

    override fun logits(inputIds: IntArray): List<FloatArray> = inputIds.map { floatArrayOf(9f, 0f, 0f) }

    override fun close() = onClose()
}
