package dev.redacto.app

import android.content.Context
import dev.redacto.core.session.LoadedEngine
import dev.redacto.core.session.RedactSession
import dev.redacto.core.session.Runtimes
import java.io.File

/**
 * The phone's runtimes for core's [RedactSession]: LiteRT-LM for the picked model file
 * ([LiteRtLmEngine], GPU else CPU), PP-OCR ([OnnxPpOcrModels]) and Rampart ([OnnxNerModel]) on
 * ONNX Runtime from the APK's assets. Core's tests run the same session on its fakes.
 */
fun appRuntimes(context: Context): Runtimes<ModelFile> =
    Runtimes<ModelFile>(
        engine = { model ->
            val engine = LiteRtLmEngine.open(model, File(context.cacheDir, "litertlm").apply { mkdirs() })
            LoadedEngine(engine, engine.backend)
        },
        ocr = { OnnxPpOcrModels(context.assets) },
        ner = { OnnxNerModel.open(context.assets) },
    )
