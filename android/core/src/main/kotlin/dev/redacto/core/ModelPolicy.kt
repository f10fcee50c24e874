package dev.redacto.core

/*
 * What the model's own manifest says about a run, laid onto the run's options. [runPipeline]
 * applies it before the first step, so every caller (the app, a test, a future screen) gets
 * the same fail-closed policy: a model whose manifest distrusts its validator cannot end PASS,
 * whoever runs it. The manifests' settings reach the phone compiled into [ModelSettings].
 * Mirrors `pipeline/policy.py`.
 */

/**
 * These options with the manifest of the model [identity] names applied. A caller can be
 * stricter than the manifest, never looser: a validator PASS is trusted only when both these
 * options and the manifest trust it. The other settings take the manifest's value where the
 * caller left them null ("as the model says").
 */
fun PipelineOptions.forModel(identity: ModelIdentity): PipelineOptions = withSettings(identity.settings())

/** These options with every setting still left to a manifest (null) at its default. */
fun PipelineOptions.settled(): PipelineOptions = withSettings(PipelineSettings())

private fun PipelineOptions.withSettings(settings: PipelineSettings): PipelineOptions =
    copy(
        trustValidatorPass = trustValidatorPass && settings.trustValidatorPass,
        imageReading = imageReading ?: settings.imageReading,
        modelRedact = modelRedact ?: settings.modelRedact,
        constrainedDecoding = constrainedDecoding ?: settings.constrainedDecoding,
    )

/**
 * The manifest's settings for the engine URI, as Python's `pipeline_settings` finds them: a
 * `litertlm:` URI (or a bare file) by its file name ([ModelSettings.forFile]); any other
 * engine is the user's own choice and gets the defaults.
 */
private fun ModelIdentity.settings(): PipelineSettings {
    val scheme = uri.substringBefore(':', missingDelimiterValue = "")
    if (scheme.isNotEmpty() && scheme != "litertlm") return PipelineSettings()
    return ModelSettings.forFile(uri.substringAfter(':'))
}
