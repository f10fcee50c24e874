package dev.redacto.app

import android.content.ContentResolver
import android.net.Uri
import android.provider.OpenableColumns
import java.io.File
import java.io.IOException
import java.security.MessageDigest

/** A `.litertlm` model in the app's storage, with what the picker shows about it. */
data class ModelFile(
    val file: File,
    val sizeBytes: Long,
    val sha256: String,
)

/**
 * The model picker's storage: LiteRT-LM opens a file path, so a model chosen from the
 * device's storage is copied once into the app's files (hashing it on the way) and reused.
 * Nothing is ever downloaded.
 */
class ModelFiles(
    private val folder: File,
) {
    /** The model imported last, if any. */
    fun current(): ModelFile? =
        folder.listFiles { file -> file.name.endsWith(".litertlm") }?.maxByOrNull { it.lastModified() }?.let { file ->
            val digest = File(folder, "${file.name}.sha256")
            if (digest.isFile) ModelFile(file, file.length(), digest.readText().trim()) else null
        }

    /** Copies the picked document into app storage and records its sha256. */
    fun import(
        resolver: ContentResolver,
        uri: Uri,
    ): ModelFile {
        val name = File(displayName(resolver, uri) ?: "model.litertlm").name
        if (!name.endsWith(".litertlm")) throw IOException("$name is not a .litertlm model")
        folder.mkdirs()
        folder.listFiles()?.forEach { it.delete() }
        val target = File(folder, name)
        val sha = MessageDigest.getInstance("SHA-256")
        val input = resolver.openInputStream(uri) ?: throw IOException("cannot read $name")
        input.use { source ->
            target.outputStream().use { sink ->
                val buffer = ByteArray(1 shl 20)
                while (true) {
                    val read = source.read(buffer)
                    if (read < 0) break
                    sha.update(buffer, 0, read)
                    sink.write(buffer, 0, read)
                }
            }
        }
        val hex = sha.digest().joinToString("") { "%02x".format(it) }
        File(folder, "$name.sha256").writeText(hex)
        return ModelFile(target, target.length(), hex)
    }

    private fun displayName(
        resolver: ContentResolver,
        uri: Uri,
    ): String? =
        resolver.query(uri, arrayOf(OpenableColumns.DISPLAY_NAME), null, null, null)?.use { cursor ->
            if (cursor.moveToFirst()) cursor.getString(0) else null
        }
}
