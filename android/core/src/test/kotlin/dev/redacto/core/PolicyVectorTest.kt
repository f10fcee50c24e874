package dev.redacto.core

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.TestFactory

/**
 * The model policy against Python's `redacto.pipeline.policy`: which manifest an engine URI
 * names ([manifestFor]) and the settings it gets, and how a manifest's settings combine with a
 * caller's options (tests/vectors/policy, tests/pipeline/test_shared_vectors.py).
 */
class PolicyVectorTest {
    private fun wire(options: PipelineOptions): Map<String, Any?> =
        mapOf(
            "trust_validator_pass" to options.trustValidatorPass,
            "image_reading" to options.imageReading?.wire,
            "model_redact" to options.modelRedact,
            "constrained_decoding" to options.constrainedDecoding?.wire,
        )

    private fun wire(settings: PipelineSettings): Map<String, Any?> =
        wire(
            PipelineOptions(
                trustValidatorPass = settings.trustValidatorPass,
                imageReading = settings.imageReading,
                modelRedact = settings.modelRedact,
                constrainedDecoding = settings.constrainedDecoding,
            ),
        )

    private fun wire(fields: Fields): Map<String, Any?> {
        fields.onlyKeys(setOf("trust_validator_pass", "image_reading", "model_redact", "constrained_decoding"))
        val values =
            mapOf(
                "trust_validator_pass" to fields.bool("trust_validator_pass"),
                "image_reading" to fields.stringOrNull("image_reading"),
                "model_redact" to fields.rawOrNull("model_redact")?.takeUnless { it.isJsonNull }?.asBoolStrict("model_redact"),
                "constrained_decoding" to fields.stringOrNull("constrained_decoding"),
            )
        fields.allRead()
        return values
    }

    @TestFactory
    fun `settings for an engine uri`(): List<DynamicTest> =
        SharedVectors.tests("policy/uris.json", { it.string("uri") }) { case ->
            case.string("description")
            val uri = case.string("uri")
            val lookup = manifestFor(uri)
            val expected =
                when {
                    !case.bool("readable") -> ManifestLookup.Unreadable
                    case.stringOrNull("manifest") == null -> ManifestLookup.Defaults
                    else -> ManifestLookup.Named(case.string("manifest"))
                }
            case.rawOrNull("manifest")
            assertEquals(expected, lookup, uri)
            assertEquals(wire(case.obj("settings")), wire(ModelIdentity(uri = uri, name = uri.substringAfterLast('/')).settings()), uri)
        }

    @TestFactory
    fun `a manifest laid onto a caller's options`(): List<DynamicTest> =
        SharedVectors.tests("policy/options.json", { it.string("name") }) { case ->
            case.string("description")
            val caller = case.obj("caller")
            val options =
                PipelineOptions(
                    trustValidatorPass = caller.bool("trust_validator_pass"),
                    imageReading = caller.stringOrNull("image_reading")?.let(ImageReading::fromWire),
                    modelRedact = caller.rawOrNull("model_redact")?.takeUnless { it.isJsonNull }?.asBoolStrict("model_redact"),
                    constrainedDecoding = caller.stringOrNull("constrained_decoding")?.let(ConstrainedDecoding::fromWire),
                )
            assertEquals(wire(case.obj("caller")), wire(options))
            val manifest = case.stringOrNull("manifest")
            val applied = if (manifest == null) options else options.withSettings(ModelSettings.PIPELINE.getValue(manifest))
            assertEquals(wire(case.obj("applied")), wire(applied), manifest)
        }
}
