package dev.redacto.core

/*
 * What the model's own manifest says about a run, laid onto the run's options. [runPipeline]
 * applies it before the first step, so every caller (the app, a test, a future screen) gets
 * the same fail-closed policy: a model whose manifest distrusts its validator cannot end PASS,
 * whoever runs it. The manifests' settings reach the phone compiled into [ModelTrust].
 * Mirrors `pipeline/policy.py`.
 */

/**
 * These options with the manifest of the model [identity] names applied. A caller can be
 * stricter than the manifest, never looser: a validator PASS is trusted only when both these
 * options and the manifest trust it.
 */
fun PipelineOptions.forModel(identity: ModelIdentity): PipelineOptions =
    copy(trustValidatorPass = trustValidatorPass && identity.validatorTrusted())

/**
 * The manifest's trust for the engine URI, as Python's `pipeline_settings` finds it: a
 * `litertlm:` URI (or a bare file) by its file name ([ModelTrust.validatorTrusted]); any other
 * engine is the user's own choice and is trusted.
 */
private fun ModelIdentity.validatorTrusted(): Boolean {
    val scheme = uri.substringBefore(':', missingDelimiterValue = "")
    if (scheme.isNotEmpty() && scheme != "litertlm") return true
    return ModelTrust.validatorTrusted(uri.substringAfter(':'))
}
