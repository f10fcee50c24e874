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

/** These options with [settings] laid on: trust only if both trust, the rest where the caller left null. */
internal fun PipelineOptions.withSettings(settings: PipelineSettings): PipelineOptions =
    copy(
        trustValidatorPass = trustValidatorPass && settings.trustValidatorPass,
        imageReading = imageReading ?: settings.imageReading,
        modelRedact = modelRedact ?: settings.modelRedact,
        constrainedDecoding = constrainedDecoding ?: settings.constrainedDecoding,
    )

/** Which manifest's settings an engine URI gets ([manifestFor]). */
sealed interface ManifestLookup {
    /** The manifest of this name. */
    data class Named(
        val name: String,
    ) : ManifestLookup

    /** No manifest: another engine, or a file of another name, is the user's own choice. */
    data object Defaults : ManifestLookup

    /** A name no manifest answers to: its validator cannot be vouched for (fail closed). */
    data object Unreadable : ManifestLookup
}

/** What a manifest that cannot be read allows: the defaults, but no trusted PASS. Python's `UNREADABLE_MANIFEST`. */
private val UNREADABLE = PipelineSettings(trustValidatorPass = false)

/**
 * The manifest an engine URI names, by Python's `pipeline_manifest` rule: a URI with a scheme
 * (a Python identifier before the first `:`) other than `litertlm`, or `litertlm:` alone, is
 * another engine; what remains is a `.litertlm` file, found by its name
 * ([ModelSettings.manifestForFile]), or else a model name (`redacto-270m`,
 * `redacto-270m@int4`), which must be one of [ModelSettings.NAMES].
 */
internal fun manifestFor(uri: String): ManifestLookup {
    var name = uri
    val colon = uri.indexOf(':')
    if (colon >= 0 && isPythonIdentifier(uri.substring(0, colon))) {
        if (uri.substring(0, colon) != "litertlm" || colon == uri.length - 1) return ManifestLookup.Defaults
        name = uri.substring(colon + 1)
    }
    if (ModelSettings.litertlmStem(name) != null) {
        return ModelSettings.manifestForFile(name)?.let { ManifestLookup.Named(it) } ?: ManifestLookup.Defaults
    }
    if (name !in ModelSettings.NAMES) return ManifestLookup.Unreadable
    return ManifestLookup.Named(name.substringBefore('@'))
}

/** Python's `str.isidentifier()`: exact for ASCII, Java's Unicode identifier classes beyond. */
private fun isPythonIdentifier(text: String): Boolean {
    val points = text.codePoints().toArray()
    if (points.isEmpty()) return false
    val start = points[0] == '_'.code || Character.isUnicodeIdentifierStart(points[0])
    return start && points.drop(1).all { Character.isUnicodeIdentifierPart(it) && !Character.isIdentifierIgnorable(it) }
}

/** The `[pipeline]` settings of the model an engine identity names ([manifestFor]). */
internal fun ModelIdentity.settings(): PipelineSettings =
    when (val lookup = manifestFor(uri)) {
        is ManifestLookup.Named -> ModelSettings.PIPELINE.getValue(lookup.name)
        ManifestLookup.Defaults -> PipelineSettings()
        ManifestLookup.Unreadable -> UNREADABLE
    }
