package dev.redacto.core.pipeline

import dev.redacto.core.engines.LlmEngine
import dev.redacto.core.modelfile.PipelineSettings
import dev.redacto.core.modelfile.phoneSettings

/*
 * A run's options with the settings its model's policy carries laid on. The policy is read
 * and sealed in `modelfile`; what a run makes of it is the pipeline's. Mirrors
 * `pipeline/policy.py`.
 */

/**
 * These options with the settings [engine]'s model carries ([LlmEngine.settings], as the phone
 * may use them) laid on; [runPipeline] applies it before the first step, so no caller gets a
 * PASS the model's own policy forbids. A caller can be stricter than the model, never looser:
 * a validator PASS is trusted only when both these options and the model trust it. The other
 * settings take the model's value where the caller left them null ("as the model says").
 */
fun PipelineOptions.forModel(engine: LlmEngine): PipelineOptions = withSettings(phoneSettings(engine.settings))

/**
 * These options with every setting still left to the model (null) at its default; the others
 * as they are (a [StepContext] built without [runPipeline] applies no model's policy).
 */
fun PipelineOptions.settled(): PipelineOptions {
    val defaults = PipelineSettings()
    return copy(
        imageReading = imageReading ?: defaults.imageReading,
        modelRedact = modelRedact ?: defaults.modelRedact,
        constrainedDecoding = constrainedDecoding ?: defaults.constrainedDecoding,
    )
}

/** These options with [settings] laid on: trust only if both trust, the rest where the caller left null. */
internal fun PipelineOptions.withSettings(settings: PipelineSettings): PipelineOptions =
    copy(
        trustValidatorPass = trustValidatorPass && settings.trustValidatorPass,
        imageReading = imageReading ?: settings.imageReading,
        modelRedact = modelRedact ?: settings.modelRedact,
        constrainedDecoding = constrainedDecoding ?: settings.constrainedDecoding,
    )
