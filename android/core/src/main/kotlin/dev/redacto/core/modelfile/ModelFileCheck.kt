package dev.redacto.core.modelfile

import dev.redacto.core.ModelIdentity
import dev.redacto.core.PolicyState
import java.io.File
import java.io.FilterInputStream
import java.io.IOException
import java.io.InputStream
import java.io.OutputStream
import java.security.MessageDigest

/*
 * Reads the policy a model file carries and verifies it against the file's bytes: what the
 * app's model picker shows and what the engine's settings come from. Mirrors
 * `model_policy.py`'s `check_model_file`, state for state (tests/vectors/policy/files.json).
 *
 * The file is read once, in order: its header first (a few KiB), then every byte through two
 * sha256 digests (the whole file, for the report; the content from the first section on, for
 * the policy). So the check also runs on a stream as the picker copies it ([checkModelStream]),
 * and a [ModelDigestCache] keeps a big file from being hashed again while its size and
 * modification time are unchanged.
 */

/** What a model file carries and whether it can be relied on ([checkModelFile]). */
data class ModelFileCheck(
    /** The whole file's sha256, hex (null when the file could not be read at all). */
    val sha256: String?,
    val state: PolicyState,
    /** The policy the file carries, verified or not (null when it has none or none readable). */
    val policy: ModelPolicy?,
    /** What was found, in words ("built from redacto-270m (int8)"). */
    val detail: String,
) {
    /**
     * How a run on the phone may use this model: its own settings as the phone may use them
     * ([phoneSettings]) only when verified, else the fail-closed defaults (no trusted PASS).
     */
    val settings: PipelineSettings
        get() = if (state == PolicyState.VERIFIED && policy != null) phoneSettings(policy.pipeline) else PipelineSettings()

    /**
     * The model's policy in one line for the screen, beside its name ([policyLine]): "redacto-270m
     * int8 · validator not trusted", or "unknown model (no policy in the file) · validator not
     * measured"; the trust is the phone's ([settings]).
     */
    fun describe(): String = policyLine(identity(uri = "", name = ""), settings)

    /** The identity an engine loaded from this file reports, under [uri] and the file [name]. */
    fun identity(
        uri: String,
        name: String,
    ): ModelIdentity = ModelIdentity(uri, name, sha256, policy?.manifest, policy?.quant, state)
}

/** Both digests of one file, and where the content digest began. */
data class ModelDigests(
    val sha256: String,
    /** Null when the header could not be read (no content to speak of). */
    val contentStart: Long?,
    val contentSha256: String?,
)

/**
 * Remembers a file's digests by its size and modification time, so a model of gigabytes is
 * hashed once. An entry is used only while both still match; a file rewritten in place to the
 * same size within the clock's resolution would escape it, so only the app writes the files it
 * caches ([SidecarDigestCache]).
 */
interface ModelDigestCache {
    /** The digests recorded for [file], if it has not changed since. */
    fun load(file: File): ModelDigests?

    /** Records [digests] for [file]; never throws (a record that cannot be written is not kept). */
    fun save(
        file: File,
        digests: ModelDigests,
    )

    companion object {
        /** No cache: every check hashes the file. */
        val NONE: ModelDigestCache =
            object : ModelDigestCache {
                override fun load(file: File): ModelDigests? = null

                override fun save(
                    file: File,
                    digests: ModelDigests,
                ) {}
            }
    }
}

/**
 * Keeps each file's digests in a small text file beside it (`<name>.digests`), with the size
 * and modification time they were computed at. A missing, unreadable or outdated record is no
 * record: the file is hashed again.
 */
class SidecarDigestCache : ModelDigestCache {
    private fun recordOf(file: File) = File(file.parentFile, "${file.name}.digests")

    override fun load(file: File): ModelDigests? {
        val values =
            try {
                recordOf(file).readLines().associate { it.substringBefore(' ') to it.substringAfter(' ', "") }
            } catch (error: IOException) {
                return null
            }
        if (values["size"] != file.length().toString() || values["mtime"] != file.lastModified().toString()) return null
        val sha256 = values["sha256"]?.takeIf { it.length == 64 } ?: return null
        val start = values["content_start"]?.toLongOrNull()
        return ModelDigests(sha256, start, values["content_sha256"]?.takeIf { start != null && it.length == 64 })
    }

    override fun save(
        file: File,
        digests: ModelDigests,
    ) {
        val lines =
            listOfNotNull(
                "size ${file.length()}",
                "mtime ${file.lastModified()}",
                "sha256 ${digests.sha256}",
                digests.contentStart?.let { "content_start $it" },
                digests.contentSha256?.let { "content_sha256 $it" },
            )
        val record = recordOf(file)
        val partial = File(record.parentFile, "${record.name}.partial")
        try {
            partial.writeText(lines.joinToString("\n", postfix = "\n"))
            if (!partial.renameTo(record)) partial.delete()
        } catch (error: IOException) {
            // No record: the next check hashes the file again, which is slow but right.
        }
    }
}

/**
 * Reads the policy the `.litertlm` file at [file] carries and verifies it against the file's
 * bytes, whatever the file is called or wherever it lies. Never throws for what the file holds:
 * anything unreadable is an unknown model, whose settings are the fail-closed defaults. Hashes
 * the file once, unless [cache] still holds its digests.
 */
fun checkModelFile(
    file: File,
    cache: ModelDigestCache = ModelDigestCache.NONE,
): ModelFileCheck {
    try {
        val cached = cache.load(file)
        if (cached != null) {
            // The header and its seal are read from the file every time; only the digests are remembered.
            val header = readingHeader { LitertlmFile.readHeader(file) }
            if (cached.contentStart == header.getOrNull()?.contentStart) return judge(header, cached)
        }
        val (check, digests) = file.inputStream().use { checkAndDigest(it, null) }
        cache.save(file, digests)
        return check
    } catch (error: IOException) {
        return ModelFileCheck(null, PolicyState.UNREADABLE, null, "the file could not be read: ${error.message}")
    }
}

/**
 * The same check on the bytes of a model file read from [input] to its end (a picked document's
 * stream), written on to [copyTo] as they are read: the picker copies a file and checks it in
 * one pass. An [IOException] of the stream or the copy is thrown (the copy failed); what the
 * bytes hold never throws.
 */
fun checkModelStream(
    input: InputStream,
    copyTo: OutputStream? = null,
): ModelFileCheck = checkAndDigest(input, copyTo).first

/**
 * Copies a picked model from [input] into [target], checking it in the same pass (the picker:
 * LiteRT-LM opens a path, so a document chosen on the device is copied into the app once), then
 * records its digests in [cache], so later checks of [target] need not hash it again. The copy
 * is written beside [target] and renamed once complete: a failed copy leaves no half model.
 */
fun importModelFile(
    input: InputStream,
    target: File,
    cache: ModelDigestCache = ModelDigestCache.NONE,
): ModelFileCheck {
    val partial = File(target.parentFile, "${target.name}.partial")
    try {
        val (check, digests) = partial.outputStream().use { checkAndDigest(input, it) }
        if (!partial.renameTo(target)) throw IOException("could not move the copied model to $target")
        cache.save(target, digests)
        return check
    } finally {
        partial.delete()
    }
}

/** The header [read] gives, or the [LitertlmFormatException] that says why there is none. */
private fun readingHeader(read: () -> LitertlmHeader): Result<LitertlmHeader> =
    try {
        Result.success(read())
    } catch (error: LitertlmFormatException) {
        Result.failure(error)
    }

/** One pass over [input]: the header from its start, both digests over everything. */
private fun checkAndDigest(
    input: InputStream,
    copyTo: OutputStream?,
): Pair<ModelFileCheck, ModelDigests> {
    val hashing = HashingInputStream(input, copyTo)
    val read = readingHeader { LitertlmFile.readHeader(hashing) }
    read.onSuccess { hashing.contentStart = it.contentStart }
    hashing.drain()
    // Only now is the size known: a section past the end is a truncated file.
    val header = read.getOrNull()?.let { found -> readingHeader { found.also { it.checkSectionsWithin(hashing.position) } } } ?: read
    val digests = hashing.digests()
    return judge(header, digests) to digests
}

/** The state a file is in, from its header (or why it has none) and its digests. */
private fun judge(
    read: Result<LitertlmHeader>,
    digests: ModelDigests,
): ModelFileCheck {
    val sha256 = digests.sha256
    val header = read.getOrElse { return ModelFileCheck(sha256, PolicyState.UNREADABLE, null, it.message ?: "not a .litertlm file") }
    val text = header.strings[POLICY_KEY] ?: return ModelFileCheck(sha256, PolicyState.ABSENT, null, "the file carries no policy")
    val policy =
        try {
            ModelPolicy.parse(text)
        } catch (error: PolicyFormatException) {
            return ModelFileCheck(sha256, PolicyState.UNREADABLE, null, error.message ?: "unreadable policy")
        }
    if (header.strings[SEAL_KEY] != sealOf(text)) {
        return ModelFileCheck(sha256, PolicyState.EDITED, policy, "the policy does not match its seal")
    }
    if (policy.contentSha256 != digests.contentSha256) {
        return ModelFileCheck(
            sha256,
            PolicyState.CONTENT_CHANGED,
            policy,
            "the model's content does not match the digest its policy was sealed with",
        )
    }
    return ModelFileCheck(sha256, PolicyState.VERIFIED, policy, "built from ${policy.manifest} (${policy.quant})")
}

/**
 * Passes every byte read through the whole file's digest, and those from [contentStart] on
 * through the content's, copying them to [copy] if given.
 */
private class HashingInputStream(
    source: InputStream,
    private val copy: OutputStream?,
) : FilterInputStream(source) {
    private val whole = MessageDigest.getInstance("SHA-256")
    private val content = MessageDigest.getInstance("SHA-256")

    /** Set once the header says where the content begins (never before the header's end). */
    var contentStart: Long? = null

    /** Bytes read so far: the file's size once drained. */
    var position = 0L
        private set

    override fun read(): Int {
        val one = ByteArray(1)
        return if (read(one, 0, 1) < 0) -1 else one[0].toInt() and 0xFF
    }

    override fun read(
        buffer: ByteArray,
        offset: Int,
        length: Int,
    ): Int {
        val read = `in`.read(buffer, offset, length)
        if (read <= 0) return read
        whole.update(buffer, offset, read)
        contentStart?.let { start ->
            val skip = (start - position).coerceIn(0L, read.toLong()).toInt()
            content.update(buffer, offset + skip, read - skip)
        }
        copy?.write(buffer, offset, read)
        position += read
        return read
    }

    override fun skip(n: Long): Long = throw UnsupportedOperationException("every byte is hashed")

    /** Reads the rest of the stream. */
    fun drain() {
        val buffer = ByteArray(1 shl 20)
        while (true) {
            if (read(buffer, 0, buffer.size) < 0) return
        }
    }

    fun digests(): ModelDigests = ModelDigests(whole.digest().toHex(), contentStart, contentStart?.let { content.digest().toHex() })
}
