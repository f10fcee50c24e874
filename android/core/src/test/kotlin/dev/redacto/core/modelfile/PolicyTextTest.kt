package dev.redacto.core.modelfile

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * [ModelPolicy.parse] reads what Python's `ModelPolicy.parse` reads and refuses what it refuses
 * (each answer below was taken from the Python reference): a policy Python cannot read must not
 * be trusted here, nor the other way round.
 */
class PolicyTextTest {
    private val base = "redacto-model-policy 1\nmanifest \"m\"\nquant \"int8\"\nfingerprint \"f\"\ncontent_sha256 \"c\"\n"

    private fun parsed(text: String): PipelineSettings = ModelPolicy.parse(text).pipeline

    private fun refused(
        text: String,
        why: String,
    ) {
        assertThrows(PolicyFormatException::class.java, { ModelPolicy.parse(text) }, why)
    }

    @Test
    fun `what Python reads`() {
        assertEquals(PipelineSettings(), parsed(base), "the rest at the fail-closed defaults")
        assertEquals(
            PipelineSettings(trustValidatorPass = true),
            parsed(base + "trust_validator_pass  true\n"),
            "JSON whitespace around a value",
        )
        assertEquals(PipelineSettings(), parsed(base + "model_redact true \n"))
        assertEquals(PipelineSettings(passMargin = 2.0), parsed(base + "pass_margin 2\n"), "an integer margin")
        assertEquals(PipelineSettings(passMargin = 100.0), parsed(base + "pass_margin 1e2\n"))
        assertEquals(PipelineSettings(passMargin = -0.5), parsed(base + "pass_margin -0.5\n"))
        assertEquals(PipelineSettings(), parsed(base + "pass_margin null\n"))
        assertEquals(PipelineSettings(validatorVerdict = ValidatorVerdict.SCORED), parsed(base + "validator_verdict \"scored\"\n"))
        assertEquals(
            PipelineSettings(constrainedDecoding = ConstrainedDecoding.DETECT_VALIDATE),
            parsed(base + "constrained_decoding \"detect+validate\"\n"),
        )
        assertEquals("a\u00e9\n", ModelPolicy.parse(base.replace("\"m\"", "\"a\\u00e9\\n\"")).manifest, "JSON escapes")
    }

    @Test
    fun `what Python refuses`() {
        refused(base.dropLast(1), "no final newline")
        refused(base + "pass_margin NaN\n", "a margin no PASS can be measured against")
        refused(base + "pass_margin Infinity\n", "an infinite margin")
        refused(base + "pass_margin -Infinity\n", "a margin that passes everything")
        refused(base.replace("\n", "\r\n"), "CRLF lines")
        refused("\ufeff" + base, "a byte order mark")
        refused(base.replace("policy 1", "policy 2"), "another format")
        refused(base + "trust_validator_pass\ttrue\n", "a tab instead of the space")
        refused(base + "trust_validator_pass 1\n", "a number for a flag")
        refused(base + "trust_validator_pass null\n", "null for a flag")
        refused(base + "colour \"red\"\n", "an unknown key")
        refused(base + "model_redact true\nmodel_redact true\n", "a repeated key")
        refused(base + "\n", "an empty line")
        refused(base + "model_redact\n", "a key alone")
        refused(base + "pass_margin \"1\"\n", "a string for a number")
        refused(base + "pass_margin 01\n", "a leading zero (not JSON)")
        refused(base + "image_reading \"pixels\"\n", "an unknown reading")
        refused(base + "image_reading \"TEXT\"\n", "case matters")
        refused(base + "model_redact [true]\n", "a list")
        refused(base.replace("\"m\"", "5"), "a number for the manifest")
        refused(base.replace("\"m\"", "null"), "null for the manifest")
        refused(base.replace("quant \"int8\"\n", ""), "no quant")
    }

    @Test
    fun `the seal is the sha256 of the text's UTF-8 bytes`() {
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", sealOf(""))
        assertEquals("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824", sealOf("hello"))
    }
}
