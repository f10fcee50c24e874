package dev.redacto.app

import ai.onnxruntime.OnnxTensor
import ai.onnxruntime.OrtEnvironment
import ai.onnxruntime.OrtSession
import android.content.res.AssetManager
import dev.redacto.core.ocr.CtcSteps
import dev.redacto.core.ocr.OcrException
import dev.redacto.core.ocr.PpOcrModels
import dev.redacto.core.ocr.recognizerDictionary
import java.nio.FloatBuffer

/**
 * The PP-OCRv6 detector and recogniser from the app's assets on ONNX Runtime
 * (`com.microsoft.onnxruntime:onnxruntime-android` 1.22.0, Java API `ai.onnxruntime`).
 * Everything around the two model runs is core's [dev.redacto.core.ocr.PpOcrReader].
 */
class OnnxPpOcrModels(
    assets: AssetManager,
) : PpOcrModels {
    private val environment = OrtEnvironment.getEnvironment()

    // ONNX Runtime: "The SessionOptions object must not be closed until all sessions which use
    // it are closed" (OrtSession.SessionOptions); it is closed after both sessions in close().
    private val options = OrtSession.SessionOptions()
    private val detector = session(assets, "ppocr/PP-OCRv6_det_small.onnx")
    private val recognizer = session(assets, "ppocr/PP-OCRv6_rec_small.onnx")

    override val dictionary: List<String> =
        recognizerDictionary(
            recognizer.metadata.customMetadata["character"]
                ?: throw OcrException("the PP-OCR recogniser has no 'character' dictionary in its metadata"),
        )

    override fun detect(
        input: FloatArray,
        height: Int,
        width: Int,
    ): FloatArray = run(detector, input, longArrayOf(1, 3, height.toLong(), width.toLong())).first

    override fun recognize(
        input: FloatArray,
        count: Int,
        width: Int,
    ): List<CtcSteps> {
        val (scores, shape) = run(recognizer, input, longArrayOf(count.toLong(), 3, 48, width.toLong()))
        val steps = shape[1].toInt()
        val classes = shape[2].toInt()
        return (0 until count).map { CtcSteps.best(scores, steps, classes, offset = it * steps * classes) }
    }

    private fun run(
        session: OrtSession,
        input: FloatArray,
        shape: LongArray,
    ): Pair<FloatArray, LongArray> =
        OnnxTensor.createTensor(environment, FloatBuffer.wrap(input), shape).use { tensor ->
            session.run(mapOf(session.inputNames.first() to tensor)).use { result ->
                val output = result.get(0) as OnnxTensor
                val buffer = output.floatBuffer
                val values = FloatArray(buffer.remaining())
                buffer.get(values)
                values to output.info.shape
            }
        }

    override fun close() {
        detector.close()
        recognizer.close()
        options.close()
    }

    private fun session(
        assets: AssetManager,
        name: String,
    ): OrtSession =
        try {
            val bytes = assets.open(name).use { it.readBytes() }
            environment.createSession(bytes, options)
        } catch (error: Exception) {
            throw OcrException("could not load $name (run android/app/scripts/copy_ocr_models.sh): ${error::class.simpleName}", error)
        } catch (error: LinkageError) {
            throw OcrException("ONNX Runtime's native library does not load on this device: ${error::class.simpleName}", error)
        }
}
