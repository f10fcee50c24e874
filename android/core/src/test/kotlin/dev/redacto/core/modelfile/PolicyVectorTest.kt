package dev.redacto.core.modelfile

import dev.redacto.core.Fields
import dev.redacto.core.PolicyState
import dev.redacto.core.SharedVectors
import dev.redacto.core.Vectors
import dev.redacto.core.asBoolStrict
import dev.redacto.core.pipeline.PipelineOptions
import dev.redacto.core.pipeline.withSettings
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory
import java.io.File

/**
 * The model policy against Python's `redacto.model_policy` and `redacto.pipeline.policy`: what
 * each committed file under tests/vectors/policy/files carries and whether it verifies
 * ([checkModelFile], read from the file and as a stream), and how a model's settings combine
 * with a caller's options (tests/pipeline/test_shared_vectors.py runs the same cases).
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

    /** The four phone settings of a vector, as [PipelineSettings] (no null allowed). */
    private fun settings(fields: Fields): PipelineSettings {
        val values = wire(fields)
        return PipelineSettings(
            trustValidatorPass = values["trust_validator_pass"] as Boolean,
            imageReading = ImageReading.fromWire(values["image_reading"] as String),
            modelRedact = values["model_redact"] as Boolean,
            constrainedDecoding = ConstrainedDecoding.fromWire(values["constrained_decoding"] as String),
        )
    }

    @TestFactory
    fun `what a model file carries`(): List<DynamicTest> =
        SharedVectors.tests("policy/files.json", { it.string("file") }) { case ->
            val file = File(FILES, case.string("file"))
            val fromFile = checkModelFile(file)
            val fromStream = file.inputStream().use { checkModelStream(it) }
            for ((how, check) in listOf("file" to fromFile, "stream" to fromStream)) {
                val where = "${file.name} ($how)"
                assertEquals(case.string("sha256"), check.sha256, where)
                assertEquals(case.string("state"), check.state.name.lowercase(), where)
                assertEquals(case.stringOrNull("manifest"), check.policy?.manifest, where)
                assertEquals(case.stringOrNull("quant"), check.policy?.quant, where)
                assertEquals(settings(case.obj("settings")), check.settings, where)
            }
        }

    @Test
    fun `every way a file can fail to carry a policy has a shared file`() {
        val cases = Vectors.load(File(Vectors.root, "policy/files.json")).array("cases")
        val states = cases.map { it.asJsonObject["state"].asString }.toSet()
        val engineOnly = setOf(PolicyState.DECLARED, PolicyState.NOT_OPENED)
        assertEquals((PolicyState.entries - engineOnly).map { it.name.lowercase() }.toSet(), states)
    }

    @Test
    fun `every committed file has a case`() {
        val cases = Vectors.load(File(Vectors.root, "policy/files.json")).array("cases")
        assertEquals(FILES.list().orEmpty().sorted(), cases.map { it.asJsonObject["file"].asString }.sorted())
    }

    @TestFactory
    fun `a model's settings laid onto a caller's options`(): List<DynamicTest> =
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
            // Kotlin knows no manifest by name: the vector carries the manifest's settings.
            val manifest = case.stringOrNull("manifest")
            val model = case.rawOrNull("settings")?.takeUnless { it.isJsonNull }?.let { settings(case.obj("settings")) }
            assertEquals(manifest == null, model == null, "manifest and settings go together")
            val applied = if (model == null) options else options.withSettings(model)
            assertEquals(wire(case.obj("applied")), wire(applied), manifest)
        }

    private companion object {
        val FILES: File get() = File(Vectors.root, "policy/files")
    }
}
