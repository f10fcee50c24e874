package dev.redacto.core.modelfile

import com.google.gson.JsonParser
import dev.redacto.core.PolicyState
import dev.redacto.core.Vectors
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import java.io.File

/**
 * A real model built by `redacto model build` (git-ignored under build/models/, so only where one
 * was built) reads here as Python reads it: its sealed policy verifies, and the two digests
 * Kotlin computes are the ones the Python build recorded beside it (`<stem>.build.json`).
 * Skipped where no model is built (CI without models).
 */
class BuiltModelTest {
    private val models = File(Vectors.root, "../../build/models")

    /** Each built `.litertlm` whose build record still describes it (the same size and mtime). */
    private fun builtModels(): List<Pair<File, com.google.gson.JsonObject>> =
        models.listFiles().orEmpty().flatMap { folder ->
            folder.listFiles { file -> file.name.endsWith(".litertlm") }.orEmpty().mapNotNull { file ->
                val record = File(folder, file.name.removeSuffix(".litertlm") + ".build.json")
                if (!record.isFile) return@mapNotNull null
                val json = JsonParser.parseString(record.readText()).asJsonObject
                val current =
                    json["size_bytes"].asLong == file.length() && json["mtime_ns"].asLong / 1_000_000 == file.lastModified()
                if (current && json.has("content_sha256")) file to json else null
            }
        }

    @Test
    fun `a built model's policy verifies and its digests are the build's`() {
        val built = builtModels()
        assumeTrue(built.isNotEmpty(), "no built model under $models")
        for ((file, record) in built) {
            val check = checkModelFile(file)
            assertEquals(PolicyState.VERIFIED, check.state, "${file.name}: ${check.detail}")
            assertEquals(record["sha256"].asString, check.sha256, file.name)
            val policy = checkNotNull(check.policy)
            assertEquals(record["name"].asString, policy.manifest, file.name)
            assertEquals(record["quant"].asString, policy.quant, file.name)
            assertEquals(record["fingerprint"].asString, policy.fingerprint, file.name)
            assertEquals(record["content_sha256"].asString, policy.contentSha256, file.name)
            assertEquals(record["content_start"].asLong, LitertlmFile.readHeader(file).contentStart, file.name)
        }
    }
}
