package dev.redacto.core

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * The generated [ModelTrust] knows a model by its file name exactly as Python's
 * `validator_trusted` does (tests/models/test_resolve.py holds the same file cases).
 */
class ModelTrustTest {
    @Test
    fun `a model whose manifest distrusts its validator is known by its file name`() {
        val table =
            listOf(
                "redacto-270m-int8.litertlm" to false,
                "redacto-270m-int4.litertlm" to false,
                "/data/user/0/dev.redacto/files/models/redacto-270m-int8.litertlm" to false,
                "gemma-3-270m-int8.litertlm" to true,
                "other.litertlm" to true,
                "my-model.litertlm" to true,
                // Only a built file's name counts: a bare manifest name or another suffix does not.
                "redacto-270m.litertlm" to true,
                "redacto-270m-int8.bin" to true,
                ".litertlm" to true,
            )
        for ((fileName, trusted) in table) assertEquals(trusted, ModelTrust.validatorTrusted(fileName), fileName)
    }

    @Test
    fun `the generated map holds the distrusted model`() {
        assertEquals(false, ModelTrust.TRUST_VALIDATOR_PASS["redacto-270m"])
    }
}
