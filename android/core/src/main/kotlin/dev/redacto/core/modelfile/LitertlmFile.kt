package dev.redacto.core.modelfile

import java.io.File
import java.io.IOException
import java.io.InputStream
import java.nio.ByteBuffer
import java.nio.ByteOrder
import java.nio.charset.CharacterCodingException
import java.nio.charset.CodingErrorAction

/*
 * Reads a `.litertlm` file's header: its system metadata and where its sections lie. Mirrors
 * `tools/redacto/litertlm_file.py` check for check.
 *
 * A `.litertlm` file (LiteRT-LM's container) starts with the magic `LITERTLM`, three
 * little-endian u32 version numbers, and at byte 24 a u64 saying where its header ends; from
 * byte 32 to there lies a FlatBuffers table (`LiteRTLMMetaData`: system metadata as key/value
 * pairs, then one entry per section with its byte range and data type). The sections follow.
 *
 * The table is walked by hand (tables, vtables, strings, vectors, a union), every offset
 * checked against the header's bytes, so the phone reads a model's policy without the
 * LiteRT-LM runtime and before loading anything. Only string values of system metadata are
 * read; other types are kept as their key.
 */

/** The bytes are not a readable `.litertlm` header; the message says what is wrong. */
class LitertlmFormatException(
    message: String,
) : Exception(message)

/** One section's byte range in the file ([end] exclusive) and its data type code. */
data class LitertlmSection(
    val begin: Long,
    val end: Long,
    val dataType: Int,
)

/** What a `.litertlm` header says: its version, system metadata, and sections. */
data class LitertlmHeader(
    val version: List<Long>,
    /** Where the header (the FlatBuffers table) ends: the first byte after it. */
    val headerEnd: Long,
    /** System metadata entries whose value is a string, by key (a repeated key: the last). */
    val strings: Map<String, String>,
    /** Every system metadata key, in file order (string-valued or not). */
    val keys: List<String>,
    val sections: List<LitertlmSection>,
) {
    /**
     * Where the model's content begins (what a policy's `content_sha256` covers): the first
     * section, or the header's end for a file with no sections. Python's `content_start`.
     */
    val contentStart: Long get() = sections.minOfOrNull { it.begin } ?: headerEnd

    /** Throws [LitertlmFormatException] when a section lies outside a file of [size] bytes. */
    fun checkSectionsWithin(size: Long) {
        for (section in sections) {
            if (!(headerEnd <= section.begin && section.begin <= section.end && section.end <= size)) {
                throw LitertlmFormatException(
                    "a section (${section.begin}–${section.end}) lies outside the file ($size bytes): truncated?",
                )
            }
        }
    }
}

/** The `.litertlm` header reader. */
object LitertlmFile {
    private val MAGIC = "LITERTLM".toByteArray(Charsets.US_ASCII)
    private const val HEADER_END_AT = 24

    /** Byte offset where the FlatBuffers table starts. */
    const val HEADER_BEGIN = 32

    /** A header larger than this is no model file we wrote (real ones are a few KiB). */
    const val MAX_HEADER_BYTES = 16L shl 20

    /** `VData.StringValue`, the union tag of a string value in the schema. */
    private const val STRING_VALUE = 9

    /**
     * Reads the header of the `.litertlm` file at [file] and checks its sections lie inside it.
     * Throws [LitertlmFormatException] when it is not one, [IOException] when it cannot be read.
     */
    fun readHeader(file: File): LitertlmHeader {
        val size = file.length()
        val header = file.inputStream().buffered(HEADER_BEGIN).use { readHeader(it, size) }
        header.checkSectionsWithin(size)
        return header
    }

    /**
     * Reads the header from the start of [input], leaving it just past the header's end. With
     * no [size] (a stream of unknown length) a header end past the stream's end is found when
     * the stream ends early, and the sections are not checked: call
     * [LitertlmHeader.checkSectionsWithin] once the size is known.
     */
    fun readHeader(
        input: InputStream,
        size: Long? = null,
    ): LitertlmHeader {
        val start = readUpTo(input, HEADER_BEGIN)
        if (start.size < HEADER_BEGIN || !start.copyOfRange(0, MAGIC.size).contentEquals(MAGIC)) {
            throw LitertlmFormatException("not a .litertlm file (no LITERTLM magic)")
        }
        val fixed = ByteBuffer.wrap(start).order(ByteOrder.LITTLE_ENDIAN)
        val version = (0 until 3).map { fixed.getInt(8 + 4 * it).toLong() and 0xFFFFFFFFL }
        val headerEnd = fixed.getLong(HEADER_END_AT)
        // A u64 past 2^63 reads negative here, and fails the same range check as in Python.
        val limit = minOf(size ?: Long.MAX_VALUE, HEADER_BEGIN + MAX_HEADER_BYTES)
        if (!(HEADER_BEGIN < headerEnd && headerEnd <= limit)) {
            throw LitertlmFormatException("header end $headerEnd lies outside the file")
        }
        val table = readUpTo(input, (headerEnd - HEADER_BEGIN).toInt())
        if (table.size.toLong() != headerEnd - HEADER_BEGIN) throw LitertlmFormatException("the file ends inside its header")
        return parseTable(FlatBufferReader(table), version, headerEnd)
    }

    /**
     * Up to [count] bytes from [input], fewer only at its end. `InputStream.readNBytes` would do,
     * but Android has it only from API 33 and the app runs from API 31.
     */
    private fun readUpTo(
        input: InputStream,
        count: Int,
    ): ByteArray {
        val bytes = ByteArray(count)
        var filled = 0
        while (filled < count) {
            val read = input.read(bytes, filled, count - filled)
            if (read < 0) break
            filled += read
        }
        return if (filled == count) bytes else bytes.copyOf(filled)
    }

    private fun parseTable(
        buffer: FlatBufferReader,
        version: List<Long>,
        headerEnd: Long,
    ): LitertlmHeader {
        val root = buffer.root()
        val strings = LinkedHashMap<String, String>()
        val keys = mutableListOf<String>()
        buffer.tableField(root, 0)?.let { system ->
            for (entry in buffer.tableVector(system, 0)) {
                val key = buffer.stringField(entry, 0) ?: throw LitertlmFormatException("a system metadata entry has no key")
                keys.add(key)
                if (buffer.scalar(entry, 1, 1) == STRING_VALUE.toLong()) {
                    val value = buffer.tableField(entry, 2)?.let { buffer.stringField(it, 0) }
                    strings[key] = value ?: ""
                }
            }
        }
        val sections =
            buffer
                .tableField(root, 1)
                ?.let { metadata ->
                    buffer.tableVector(metadata, 0).map { item ->
                        LitertlmSection(
                            begin = buffer.scalar(item, 1, 8),
                            end = buffer.scalar(item, 2, 8),
                            dataType = buffer.scalar(item, 3, 1).toInt(),
                        )
                    }
                }.orEmpty()
        return LitertlmHeader(version, headerEnd, strings, keys, sections)
    }
}

/**
 * Bounds-checked reads of a FlatBuffers buffer: tables, fields, strings, vectors. Positions are
 * Longs so that no sum of offsets read from the file can wrap around.
 */
private class FlatBufferReader(
    private val data: ByteArray,
) {
    /** The little-endian unsigned integer of [width] bytes at [at] (8 bytes: as a signed Long). */
    private fun unsigned(
        at: Long,
        width: Int,
    ): Long {
        if (at < 0 || at + width > data.size) throw LitertlmFormatException("an offset ($at) points outside the header")
        var value = 0L
        for (i in width - 1 downTo 0) value = (value shl 8) or (data[(at + i).toInt()].toLong() and 0xFF)
        return value
    }

    private fun signed32(at: Long): Long = unsigned(at, 4).toInt().toLong()

    fun root(): Long = unsigned(0, 4)

    /** Where field number [field] of the table at [table] lies, or null if absent. */
    private fun fieldAt(
        table: Long,
        field: Int,
    ): Long? {
        val vtable = table - signed32(table)
        val vtableSize = unsigned(vtable, 2)
        val slot = 4L + 2 * field
        if (slot + 2 > vtableSize) return null
        val offset = unsigned(vtable + slot, 2)
        return if (offset != 0L) table + offset else null
    }

    /** The unsigned scalar of [width] bytes in [field] (0 when absent, as FlatBuffers defaults). */
    fun scalar(
        table: Long,
        field: Int,
        width: Int,
    ): Long = fieldAt(table, field)?.let { unsigned(it, width) } ?: 0L

    private fun follow(at: Long): Long = at + unsigned(at, 4)

    fun tableField(
        table: Long,
        field: Int,
    ): Long? = fieldAt(table, field)?.let(::follow)

    fun stringField(
        table: Long,
        field: Int,
    ): String? {
        val at = fieldAt(table, field) ?: return null
        val start = follow(at)
        val length = unsigned(start, 4)
        if (start + 4 + length > data.size) throw LitertlmFormatException("a string runs past the header")
        val decoder =
            Charsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
        return try {
            decoder.decode(ByteBuffer.wrap(data, (start + 4).toInt(), length.toInt())).toString()
        } catch (error: CharacterCodingException) {
            throw LitertlmFormatException("a metadata string is not UTF-8")
        }
    }

    /** The tables a vector of tables in [field] points to (empty when absent). */
    fun tableVector(
        table: Long,
        field: Int,
    ): List<Long> {
        val at = fieldAt(table, field) ?: return emptyList()
        val start = follow(at)
        val count = unsigned(start, 4)
        if (start + 4 + 4 * count > data.size) throw LitertlmFormatException("a vector runs past the header")
        return (0 until count.toInt()).map { follow(start + 4 + 4L * it) }
    }
}
