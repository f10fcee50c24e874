package dev.redacto.core.modelfile

/*
 * The values a model's manifest sets for a run (its `[pipeline]` table), with no other
 * dependency. A built model file carries them in its sealed policy ([checkModelFile]); an
 * engine carries the ones its model has ([LlmEngine.settings]). Mirrors `model_manifest.py`'s
 * `PipelineSettings` and `document.py`'s `ImageReading`, `ConstrainedDecoding` and
 * `ValidatorVerdict`.
 */

/**
 * One manifest's `[pipeline]` table: how a run may use the model. Mirrors `PipelineSettings`.
 * The defaults are the fail-closed ones, what every model that carries no verified policy
 * gets: its validator's PASS is not trusted.
 */
data class PipelineSettings(
    /** True only where the eval measured this model's validator safe to end a run on PASS. */
    val trustValidatorPass: Boolean = false,
    val imageReading: ImageReading = ImageReading.INDEXED,
    val modelRedact: Boolean = true,
    val constrainedDecoding: ConstrainedDecoding = ConstrainedDecoding.OFF,
    /**
     * How the measurement that trusts the validator read its verdict. The phone can only read
     * the answer ([phoneSettings]): a trust measured on [ValidatorVerdict.SCORED] does not hold here.
     */
    val validatorVerdict: ValidatorVerdict = ValidatorVerdict.ANSWER,
    /** The scored rule's threshold (null: 0); read and kept, never used on the phone. */
    val passMargin: Double? = null,
)

/**
 * How validate's verdict is read: the free answer's first line, or PASS only when the model's
 * log-likelihood of `PASS` beats `FAIL` by a margin (a runtime that scores: the workstation's).
 * Mirrors `ValidatorVerdict`.
 */
enum class ValidatorVerdict(
    val wire: String,
) {
    ANSWER("answer"),
    SCORED("scored"),
    ;

    companion object {
        fun fromWire(wire: String): ValidatorVerdict =
            entries.firstOrNull { it.wire == wire } ?: throw IllegalArgumentException("unknown validator verdict '$wire'")
    }
}

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
