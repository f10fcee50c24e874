package dev.redacto.core.modelfile

import dev.redacto.core.Box
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.PolicyState
import dev.redacto.core.ReviewReason
import dev.redacto.core.Status
import dev.redacto.core.Step
import dev.redacto.core.TRUSTING
import dev.redacto.core.Vectors
import dev.redacto.core.engines.ChatRequest
import dev.redacto.core.engines.LlmEngine
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.lexicon.LexiconFolder
import dev.redacto.core.pipeline.PipelineOptions
import dev.redacto.core.pipeline.runPipeline
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.io.ByteArrayOutputStream
import java.io.File
import java.io.IOException
import java.io.InputStream
import java.nio.file.Files

/**
 * The policy a picked model gets comes from the file's bytes, never from its name or place:
 * the committed sealed files copied renamed, moved, linked and with other extensions keep
 * their trust; truncated and edited copies lose it, whatever they are called. Each ends a
 * real run with the right status, through an engine built as the app builds its engine.
 */
class ModelFileTest {
    @TempDir
    lateinit var temp: File

    private val vectors get() = File(Vectors.root, "policy/files")

    private fun copy(
        vector: String,
        to: String,
    ): File = File(temp, to).also { target -> target.parentFile.mkdirs() }.also { vectors.resolve(vector).copyTo(it) }

    /** Copies [vector] to [to] with its bytes changed by [edit]. */
    private fun edited(
        vector: String,
        to: String,
        edit: (ByteArray) -> ByteArray,
    ): File = copy(vector, to).also { it.writeBytes(edit(it.readBytes())) }

    private fun ByteArray.replacedOnce(
        old: String,
        new: String,
    ): ByteArray {
        val text = String(this, Charsets.ISO_8859_1)
        check(
            text.indexOf(old) >= 0 && text.indexOf(old) == text.lastIndexOf(old) && old.length == new.length,
        ) { "one '$old' to replace in place" }
        return text.replace(old, new).toByteArray(Charsets.ISO_8859_1)
    }

    /**
     * An engine as the app opens one for a model file: its identity and settings from the
     * file's own check, its replies scripted (a validator that finds the name and says PASS).
     */
    private class FileModelEngine(
        file: File,
        reading: ImageReading,
    ) : LlmEngine {
        val check = checkModelFile(file)
        private val script =
            ScriptedEngine(
                mapOf(
                    Step.CLASSIFY to listOf("CATEGORY: Medical"),
                    Step.DETECT to listOf(if (reading == ImageReading.TEXT) "NAME: Jane Smith" else "1:NAME\n2:NAME"),
                    Step.VALIDATE to listOf("PASS"),
                ),
            )
        override val identity = check.identity("litertlm:${file.path}", file.name)
        override val settings = check.settings
        override val supportsConstraints get() = true

        override fun stream(request: ChatRequest): Flow<String> = script.stream(request)
    }

    private val page =
        Document.fromElements(
            listOf("Patient", "Jane", "Smith", "compound", "fracture").mapIndexed { i, word ->
                Element(
                    i,
                    word,
                    Box(
                        10.0 * i,
                        0.0,
                        10.0 * i + 8,
                        10.0,
                    ),
                )
            },
        )

    /** Runs the page on [file] and checks its state, its trust, and how the run ends. */
    private fun assertRun(
        file: File,
        state: PolicyState,
        status: Status,
        reasons: List<ReviewReason>,
        reading: ImageReading = ImageReading.INDEXED,
    ): Unit =
        runBlocking {
            val engine = FileModelEngine(file, reading)
            assertEquals(state, engine.check.state, "${file.path}: ${engine.check.detail}")
            val report = runPipeline(page, engine, options = PipelineOptions(rules = false), lexicon = LexiconFolder.files).report
            assertEquals(status, report.status, file.path)
            assertEquals(reasons, report.reviewReasons, file.path)
            assertEquals(state, report.model.policy)
            assertEquals(file.name, report.model.name)
        }

    private fun assertTrusted(file: File) {
        assertRun(file, PolicyState.VERIFIED, Status.PASS, emptyList())
        assertEquals("tiny", checkModelFile(file).policy?.manifest)
    }

    private fun assertUnknown(
        file: File,
        state: PolicyState,
    ) = assertRun(file, state, Status.NEEDS_REVIEW, listOf(ReviewReason.MODEL_NOT_MEASURED))

    @Test
    fun `a sealed trusted file keeps its trust renamed, moved, linked, or with another extension`() {
        assertTrusted(copy("sealed-trusted.litertlm", "my-redactor.litertlm"))
        assertTrusted(copy("sealed-trusted.litertlm", "Download/models/deep/inside/model.litertlm"))
        assertTrusted(copy("sealed-trusted.litertlm", "model.bin"))
        assertTrusted(copy("sealed-trusted.litertlm", "no-extension"))
        assertTrusted(copy("sealed-trusted-other-extension.bin", "picked.litertlm"))
        val target = copy("sealed-trusted.litertlm", "elsewhere/real.litertlm")
        val link = File(temp, "linked/redacto-270m-int8.litertlm").also { it.parentFile.mkdirs() }
        Files.createSymbolicLink(link.toPath(), target.toPath())
        assertTrusted(link)
    }

    @Test
    fun `a sealed untrusted file stays untrusted under a trusted model's name`() {
        val renamed = copy("sealed-untrusted.litertlm", "gemma-3-270m-int8.litertlm")
        assertRun(renamed, PolicyState.VERIFIED, Status.NEEDS_REVIEW, listOf(ReviewReason.PASS_NOT_TRUSTED), ImageReading.TEXT)
        assertEquals("redacto-270m", checkModelFile(renamed).policy?.manifest)
        // Trust measured on the scored verdict does not hold on the phone, whatever the name.
        val scored = copy("sealed-scored.litertlm", "tiny-int8.litertlm")
        assertRun(scored, PolicyState.VERIFIED, Status.NEEDS_REVIEW, listOf(ReviewReason.PASS_NOT_TRUSTED))
    }

    @Test
    fun `a file with no policy is unknown, whatever it is called`() {
        assertUnknown(copy("foreign.litertlm", "redacto-270m-int8.litertlm"), PolicyState.ABSENT)
        assertUnknown(copy("foreign.litertlm", "gemma-3-270m-int8.litertlm"), PolicyState.ABSENT)
        assertUnknown(copy("not-a-model.litertlm", "tiny-int8.litertlm"), PolicyState.UNREADABLE)
    }

    @Test
    fun `truncated or lengthened copies lose their trust`() {
        val bytes = vectors.resolve("sealed-trusted.litertlm").readBytes()
        assertUnknown(edited("sealed-trusted.litertlm", "one-byte-short.litertlm") { it.copyOf(it.size - 1) }, PolicyState.UNREADABLE)
        assertUnknown(edited("sealed-trusted.litertlm", "header-only.litertlm") { it.copyOf(600) }, PolicyState.UNREADABLE)
        assertUnknown(edited("sealed-trusted.litertlm", "magic-only.litertlm") { it.copyOf(8) }, PolicyState.UNREADABLE)
        assertUnknown(edited("sealed-trusted.litertlm", "empty.litertlm") { ByteArray(0) }, PolicyState.UNREADABLE)
        // Bytes after the last section are content too: the digest runs to the file's end.
        assertUnknown(edited("sealed-trusted.litertlm", "one-byte-long.litertlm") { it + 0 }, PolicyState.CONTENT_CHANGED)
        assertEquals(bytes.size, vectors.resolve("sealed-trusted.litertlm").readBytes().size, "the vector itself is untouched")
    }

    @Test
    fun `edited copies lose their trust`() {
        val header = LitertlmFile.readHeader(vectors.resolve("sealed-trusted.litertlm"))
        val weight = ((header.sections[0].begin + header.sections[0].end) / 2).toInt()
        assertUnknown(
            edited("sealed-trusted.litertlm", "weights.litertlm") {
                it.copyOf().also { b ->
                    b[weight] = (b[weight].toInt() xor 1).toByte()
                }
            },
            PolicyState.CONTENT_CHANGED,
        )
        assertUnknown(
            edited("sealed-trusted.litertlm", "renamed-manifest.litertlm") {
                it.replacedOnce("\"tiny\"", "\"tinx\"")
            },
            PolicyState.EDITED,
        )
        val seal = header.strings.getValue(SEAL_KEY)
        val otherSeal = seal.substring(0, 63) + (if (seal.last() == '0') '1' else '0')
        assertUnknown(edited("sealed-trusted.litertlm", "seal.litertlm") { it.replacedOnce(seal, otherSeal) }, PolicyState.EDITED)
        // An untrusted policy edited to trust (the same length, so the header still parses).
        val promoted =
            edited(
                "sealed-untrusted.litertlm",
                "promoted.litertlm",
            ) { it.replacedOnce("trust_validator_pass false", "trust_validator_pass  true") }
        assertRun(promoted, PolicyState.EDITED, Status.NEEDS_REVIEW, listOf(ReviewReason.MODEL_NOT_MEASURED))
        assertEquals(PipelineSettings(), checkModelFile(promoted).settings)
        // A policy of a format this version does not know, though sealed.
        val format =
            edited("sealed-trusted.litertlm", "format.litertlm") { it.replacedOnce("redacto-model-policy 1", "redacto-model-policy 2") }
        assertUnknown(format, PolicyState.UNREADABLE)
    }

    @Test
    fun `a broken header is unreadable, not an exception`() {
        fun at(
            offset: Int,
            vararg values: Int,
        ): (ByteArray) -> ByteArray = { bytes -> bytes.copyOf().also { b -> values.forEachIndexed { i, v -> b[offset + i] = v.toByte() } } }
        val cases =
            mapOf(
                "magic" to at(0, 'X'.code),
                "header end before the table" to at(24, 16, 0, 0, 0, 0, 0, 0, 0),
                "header end past 2^63" to at(24, 0, 0, 0, 0, 0, 0, 0, 0x80),
                "root table outside the header" to at(32, 0xF0, 0xFF, 0xFF, 0x7F),
                "a key that is not UTF-8" to { bytes -> bytes.replacedOnce("creation_timestamp", "creation_timestam\u00ff") },
            )
        for ((name, edit) in cases) {
            val file = edited("sealed-trusted.litertlm", "${name.replace(' ', '-')}.litertlm", edit)
            val check = checkModelFile(file)
            assertEquals(PolicyState.UNREADABLE, check.state, name)
            assertEquals(PipelineSettings(), check.settings, name)
            assertEquals(64, check.sha256?.length, "$name: the whole file is still hashed for the report")
        }
        val missing = checkModelFile(File(temp, "nothing-here.litertlm"))
        assertEquals(PolicyState.UNREADABLE to null, missing.state to missing.sha256)
    }

    @Test
    fun `the header reads as Python reads it`() {
        val header = LitertlmFile.readHeader(vectors.resolve("sealed-trusted.litertlm"))
        assertEquals(listOf(1L, 7L, 0L), header.version)
        assertEquals(856L, header.headerEnd)
        assertEquals(listOf("uuid", "creation_timestamp", POLICY_KEY, SEAL_KEY), header.keys)
        assertEquals(listOf(LitertlmSection(16384, 16704, 1), LitertlmSection(32768, 32888, 1)), header.sections)
        assertEquals(16384L, header.contentStart)
        val policy = ModelPolicy.parse(header.strings.getValue(POLICY_KEY))
        assertEquals("50d5cabeda41a74102242134b5514ec6def23a41a2996159c2891749d9f6bec1", policy.contentSha256)
        assertEquals(PipelineSettings(trustValidatorPass = true), policy.pipeline)
    }

    @Test
    fun `the picker copies and checks in one pass`() {
        for (name in vectors.list().orEmpty().sorted()) {
            val source = vectors.resolve(name)
            val copy = ByteArrayOutputStream()
            val streamed = source.inputStream().use { checkModelStream(it, copy) }
            assertArrayEquals(source.readBytes(), copy.toByteArray(), name)
            assertEquals(checkModelFile(source), streamed, name)
        }
    }

    @Test
    fun `the picker imports a model once and says what it carries`() {
        val source = vectors.resolve("sealed-untrusted.litertlm")
        val target = File(temp, "models/model.litertlm").also { it.parentFile.mkdirs() }
        val cache = SidecarDigestCache()
        val imported = source.inputStream().use { importModelFile(it, target, cache) }
        assertEquals(checkModelFile(source), imported)
        assertArrayEquals(source.readBytes(), target.readBytes())
        assertEquals(
            listOf("model.litertlm", "model.litertlm.digests"),
            target.parentFile
                .list()
                .orEmpty()
                .sorted(),
        )
        assertEquals(imported, checkModelFile(target, cache))
        assertEquals("redacto-270m int8 · validator not trusted", imported.describe())
        assertEquals("tiny int8 · validator trusted", checkModelFile(vectors.resolve("sealed-trusted.litertlm")).describe())
        assertEquals("tiny int8 · validator not trusted", checkModelFile(vectors.resolve("sealed-scored.litertlm")).describe())
        assertEquals(
            "unknown model (no policy in the file) · validator not measured",
            checkModelFile(vectors.resolve("foreign.litertlm")).describe(),
        )
        assertEquals(
            "unknown model (policy edited since it was sealed) · validator not measured",
            checkModelFile(vectors.resolve("policy-edited.litertlm")).describe(),
        )
        assertEquals("declared by its engine · validator trusted", policyLine(ScriptedEngine(emptyMap(), TRUSTING).identity, TRUSTING))
        assertEquals(
            "unknown model (no policy in the file) · validator not measured",
            policyLine(ScriptedEngine(emptyMap()).identity, TRUSTING),
        )
        // A copy that fails half way leaves nothing behind.
        val failing =
            object : InputStream() {
                var left = 40_000

                override fun read(): Int = if (left-- > 0) 0 else throw IOException("the document went away")
            }
        assertThrows(IOException::class.java) { importModelFile(failing, File(target.parentFile, "other.litertlm"), cache) }
        assertEquals(
            listOf("model.litertlm", "model.litertlm.digests"),
            target.parentFile
                .list()
                .orEmpty()
                .sorted(),
        )
    }

    @Test
    fun `the digests are cached by size and modification time`() {
        val file = copy("sealed-trusted.litertlm", "cached.litertlm")
        val cache = SidecarDigestCache()
        val first = checkModelFile(file, cache)
        assertEquals(PolicyState.VERIFIED, first.state)
        val record = File(temp, "cached.litertlm.digests")
        assertTrue(record.isFile)
        assertEquals(first, checkModelFile(file, cache))
        // A record that still matches is believed without hashing: a wrong digest written into
        // it shows that the file was not read again...
        val wrong = "0".repeat(64)
        record.writeText(record.readText().replace(first.policy!!.contentSha256, wrong))
        assertEquals(PolicyState.CONTENT_CHANGED, checkModelFile(file, cache).state)
        // ...and one the file no longer matches (another modification time) is not.
        file.setLastModified(file.lastModified() - 60_000)
        assertEquals(first, checkModelFile(file, cache))
        assertTrue(!record.readText().contains(wrong))
        // The seal is still read from the file each time: an edit of the same size and time is caught.
        val time = file.lastModified()
        file.writeBytes(file.readBytes().replacedOnce("\"tiny\"", "\"tinx\""))
        file.setLastModified(time)
        assertEquals(PolicyState.EDITED, checkModelFile(file, cache).state)
    }

    @Test
    fun `a record that cannot be written costs time, not the check`() {
        val file = copy("sealed-trusted.litertlm", "unwritable/model.litertlm")
        File(temp, "unwritable/model.litertlm.digests.partial").mkdirs() // a folder where the record's file would go
        val cache = SidecarDigestCache()
        assertEquals(checkModelFile(file), checkModelFile(file, cache))
        assertEquals(PolicyState.VERIFIED, checkModelFile(file, cache).state)
        assertTrue(!File(temp, "unwritable/model.litertlm.digests").exists())
    }
}
