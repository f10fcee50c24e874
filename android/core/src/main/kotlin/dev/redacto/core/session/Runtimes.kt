package dev.redacto.core.session

import dev.redacto.core.engines.LlmEngine
import dev.redacto.core.ner.NerModel
import dev.redacto.core.ner.NerTokenizer
import dev.redacto.core.ocr.PpOcrModels

/*
 * The three runtimes a redaction on the phone opens, behind factories: the app's open
 * LiteRT-LM and ONNX Runtime from its assets and the picked model file, core's tests open the
 * test doubles (ScriptedEngine, FakePpOcrModels, a NER fake). [RedactSession] opens each once,
 * on first use, and closes what it opened.
 */

/** An opened on-device model and the backend that loaded it (`GPU`, `CPU`), for the screen. */
data class LoadedEngine(
    val engine: LlmEngine,
    val backend: String,
)

/** Opens the on-device model a model choice [M] names (the app's picked file). Blocks for seconds; throws [dev.redacto.core.engines.EngineException]. */
fun interface EngineFactory<M> {
    fun open(model: M): LoadedEngine
}

/** Opens PP-OCR's detector and recogniser. Throws [dev.redacto.core.ocr.OcrException]. */
fun interface OcrFactory {
    fun open(): PpOcrModels
}

/** The NER tier's tokenizer and token classifier, opened together; the session closes [model]. */
data class NerRuntime(
    val tokenizer: NerTokenizer,
    val model: NerModel,
)

/** Opens the NER tier's tokenizer and model. */
fun interface NerFactory {
    fun open(): NerRuntime
}

/** The factories of one [RedactSession]: the model for a choice [M], the OCR and the NER tier. */
data class Runtimes<M>(
    val engine: EngineFactory<M>,
    val ocr: OcrFactory,
    val ner: NerFactory,
)
