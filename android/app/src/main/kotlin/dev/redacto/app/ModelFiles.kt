package dev.redacto.app

import android.content.ContentResolver
import android.net.Uri
import android.provider.OpenableColumns
import dev.redacto.core.modelfile.ModelFileCheck
import dev.redacto.core.modelfile.SidecarDigestCache
import dev.redacto.core.modelfile.checkModelFile
import dev.redacto.core.modelfile.importModelFile
import java.io.File
import java.io.IOException

/**
 * A model in the app's storage, with what the picker shows about it: the name it was picked
 * under, its size, and what the file itself carries ([check]: its sha256 and sealed policy,
 * which decide how a run may use it — the name decides nothing).
 */
data class ModelFile(
    val file: File,
    val name: String,
    val sizeBytes: Long,
    val check: ModelFileCheck,
)

/**
 * The model picker's storage: LiteRT-LM opens a file path, so a model chosen from the device's
 * storage is copied once into the app's files, its policy checked on the way (core's
 * [importModelFile]), and reused. The copy is always `model.litertlm` (the runtime is given a
 * `.litertlm` path whatever the document was called); the picked name is kept beside it for
 * the screen. The check's digests are cached by size and modification time
 * ([SidecarDigestCache]), so a model of gigabytes is hashed once, not at every start.
 * Nothing is ever downloaded.
 */
class ModelFiles(
    private val folder: File,
) {
    private val cache = SidecarDigestCache()

    /** The model imported last, if any, with its policy read again from the file. */
    fun current(): ModelFile? =
        folder.listFiles { file -> file.name.endsWith(".litertlm") }?.maxByOrNull { it.lastModified() }?.let { file ->
            val name = File(folder, "${file.name}.name").takeIf { it.isFile }?.readText()?.trim() ?: file.name
            ModelFile(file, name, file.length(), checkModelFile(file, cache))
        }

    /** Copies the picked document into app storage, checking the policy it carries in the same pass. */
    fun import(
        resolver: ContentResolver,
        uri: Uri,
    ): ModelFile {
        val name = File(displayName(resolver, uri) ?: "model").name
        folder.mkdirs()
        folder.listFiles()?.forEach { it.delete() }
        val target = File(folder, STORED_NAME)
        val input = resolver.openInputStream(uri) ?: throw IOException("cannot read $name")
        val check = input.use { importModelFile(it, target, cache) }
        File(folder, "$STORED_NAME.name").writeText(name)
        return ModelFile(target, name, target.length(), check)
    }

    private fun displayName(
        resolver: ContentResolver,
        uri: Uri,
    ): String? =
        resolver.query(uri, arrayOf(OpenableColumns.DISPLAY_NAME), null, null, null)?.use { cursor ->
            if (cursor.moveToFirst()) cursor.getString(0) else null
        }

    private companion object {
        const val STORED_NAME = "model.litertlm"
    }
}
