package dev.redacto.core

/*
 * The values a model's manifest sets for a run (its `[pipeline]` table), with no other
 * dependency: the generated [ModelSettings] holds one per manifest. Mirrors
 * `model_manifest.py`'s `PipelineSettings` and `document.py`'s `ImageReading` and
 * `ConstrainedDecoding`.
 */

/** One manifest's `[pipeline]` table: how a run may use the model. Mirrors `PipelineSettings`. */
data class PipelineSettings(
    val trustValidatorPass: Boolean = true,
    val imageReading: ImageReading = ImageReading.INDEXED,
    val modelRedact: Boolean = true,
    val constrainedDecoding: ConstrainedDecoding = ConstrainedDecoding.OFF,
)

/**
 * Which `LABEL: value` calls decode under a pattern built from the page ([answerPattern]): none,
 * detect's, or detect's and validate's. Only for an engine that can constrain decoding
 * ([LlmEngine.supportsConstraints]: the app's LiteRT-LM engine). Mirrors `ConstrainedDecoding`.
 */
enum class ConstrainedDecoding(
    val wire: String,
) {
    OFF("off"),
    DETECT("detect"),
    DETECT_VALIDATE("detect+validate"),
    ;

    companion object {
        fun fromWire(wire: String): ConstrainedDecoding =
            entries.firstOrNull { it.wire == wire } ?: throw IllegalArgumentException("unknown constrained decoding '$wire'")
    }
}

/**
 * How detect and validate read an image-mode page (a model-manifest choice).
 *
 * [INDEXED]: the elements as `[i] word` lines, answered with `INDEX:LABEL`. [TEXT]: the page
 * as plain text lines ([PageText]), answered with `LABEL: value` and mapped back onto the
 * elements by the locator. Boxes are the elements' either way.
 */
enum class ImageReading(
    val wire: String,
) {
    INDEXED("indexed"),
    TEXT("text"),
    ;

    companion object {
        fun fromWire(wire: String): ImageReading =
            entries.firstOrNull { it.wire == wire } ?: throw IllegalArgumentException("unknown image reading '$wire'")
    }
}
