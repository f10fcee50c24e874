package dev.redacto.core

import java.io.File

/**
 * Where the shared golden vectors live: `-Dredacto.vectors=DIR` (android/core/test.sh), or
 * `vectors/` on the test classpath (the Gradle build adds `tests/` as a test resource root).
 */
object Vectors {
    val root: File by lazy {
        val configured = System.getProperty("redacto.vectors")
        val dir =
            if (configured != null) {
                File(configured)
            } else {
                val url = Vectors::class.java.classLoader.getResource("vectors") ?: error("tests/vectors not found: set -Dredacto.vectors")
                File(url.toURI())
            }
        check(dir.isDirectory) { "golden vectors folder not found: $dir" }
        dir
    }

    /** The JSON files of one kind (`pipeline`, `rules`), sorted by name. */
    fun files(kind: String): List<File> = File(root, kind).listFiles { file -> file.name.endsWith(".json") }.orEmpty().sortedBy { it.name }

    /** Every JSON file anywhere under the vectors folder. */
    fun allJsonFiles(): List<File> = root.walkTopDown().filter { it.isFile && it.name.endsWith(".json") }.toList()

    fun load(file: File): Fields = Fields(StrictJson.parse(file.readText(Charsets.UTF_8)).asObjectStrict(file.name), file.name)
}
