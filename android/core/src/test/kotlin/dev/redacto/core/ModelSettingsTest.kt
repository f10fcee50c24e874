package dev.redacto.core

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * The generated [ModelSettings] knows a model by its file name exactly as Python's
 * `pipeline_settings` does (tests/models/test_resolve.py holds the same file cases).
 */
class ModelSettingsTest {
    private val tuned = PipelineSettings(trustValidatorPass = false, imageReading = ImageReading.TEXT, modelRedact = false, constrainedDecoding = ConstrainedDecoding.DETECT)

    @Test
    fun `a model is known by its built file's name, any other file gets the defaults`() {
        val table =
            listOf(
                "redacto-270m-int8.litertlm" to tuned,
                "redacto-270m-int4.litertlm" to tuned,
                "/data/user/0/dev.redacto/files/models/redacto-270m-int8.litertlm" to tuned,
                "gemma-3-270m-int8.litertlm" to PipelineSettings(),
                "other.litertlm" to PipelineSettings(),
                "my-model.litertlm" to PipelineSettings(),
                // Only a built file's name counts: a bare manifest name or another suffix does not.
                "redacto-270m.litertlm" to PipelineSettings(),
                "redacto-270m-int8.bin" to PipelineSettings(),
                ".litertlm" to PipelineSettings(),
            )
        for ((fileName, settings) in table) assertEquals(settings, ModelSettings.forFile(fileName), fileName)
    }

    @Test
    fun `the generated map holds the tuned default's settings`() {
        assertEquals(tuned, ModelSettings.PIPELINE["redacto-270m"])
    }
}
