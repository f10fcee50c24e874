package dev.redacto.core.lexicon

import dev.redacto.core.Category
import dev.redacto.core.Fields
import dev.redacto.core.Vectors
import dev.redacto.core.asObjectStrict
import dev.redacto.core.asStringStrict
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory
import java.io.File

/**
 * The residual check ([ResidualWords], [Lexicon], [LexiconWords]) against Python's own answers
 * (tests/vectors/lexicon/residual.json, written by `redacto lexicon vectors` from texts.json):
 * every word of every text, its offsets, and its reason or kind, read with the repository's
 * pinned `lexicon/` files.
 */
class LexiconVectorTest {
    private val set = Vectors.load(File(Vectors.root, RESIDUAL))

    @Test
    fun `the vectors were made with the pinned lexicon files`() {
        set.onlyKeys(setOf("description", "lexicon", "labels", "cases"))
        set.string("description")
        val pinned = set.obj("lexicon")
        val manifest = LexiconFolder.files.entries.associate { it.language to it.sha256 }
        assertEquals(manifest.keys, pinned.keys())
        for ((language, sha256) in manifest) assertEquals(sha256, pinned.string(language), language)
        pinned.allRead()
        set.array("labels")
        set.array("cases")
        set.allRead()
    }

    @Test
    fun `the words that name a field are derived from the rules as in Python`() {
        val labels = set.array("labels").mapIndexed { i, raw -> raw.asStringStrict("$RESIDUAL.labels[$i]") }
        assertEquals(labels.sorted(), ResidualWords.LABEL_WORDS.sorted())
    }

    @Test
    fun `the vectors are made from texts json`() {
        val inputs = Vectors.load(File(Vectors.root, TEXTS))
        inputs.onlyKeys(setOf("description", "texts"))
        inputs.string("description")
        val texts = inputs.array("texts").mapIndexed { i, raw -> Fields(raw.asObjectStrict("$TEXTS[$i]"), "$TEXTS[$i]") }
        val cases = set.array("cases").mapIndexed { i, raw -> Fields(raw.asObjectStrict("$RESIDUAL[$i]"), "$RESIDUAL[$i]") }
        val keys = listOf("id", "category", "language", "text", "covers")
        assertEquals(
            texts.map { text -> keys.map { text.stringOrNull(it) } },
            cases.map { case -> keys.map { case.stringOrNull(if (it == "language") "language_given" else it) } },
        )
        texts.forEach { it.allRead() }
        inputs.allRead()
    }

    @TestFactory
    fun `residual words`(): List<DynamicTest> {
        val cases = set.array("cases")
        check(cases.size >= 50) { "$RESIDUAL holds ${cases.size} cases, fewer than the 50 it must" }
        val files = LexiconFolder.files
        return cases.mapIndexed { i, raw ->
            val case = Fields(raw.asObjectStrict("$RESIDUAL[$i]"), "$RESIDUAL[$i]")
            DynamicTest.dynamicTest("$RESIDUAL[$i] ${case.string("id")}") {
                case.onlyKeys(setOf("id", "covers", "category", "language_given", "language", "text", "words"))
                case.string("covers")
                val text = case.string("text")
                val category = Category.fromLabel(case.string("category")) ?: error("unknown category")
                val given = case.stringOrNull("language_given")
                val language = case.string("language")
                if (given == null) {
                    val detected = Lexicon.languageOf(LexiconWords.words(text), Lexicon.LANGUAGES.map { files.load(it) })
                    assertEquals(language, detected, "detected language")
                } else {
                    assertEquals(given, language)
                }
                val expected =
                    case.array("words").mapIndexed { j, element ->
                        val word = Fields(element.asObjectStrict("${case.string("id")}.words[$j]"), "words[$j]")
                        word.onlyKeys(setOf("text", "start", "end", "reason", "kind"))
                        val row =
                            listOf(
                                word.string("text"),
                                word.int("start"),
                                word.int("end"),
                                word.stringOrNull("reason"),
                                word.stringOrNull("kind"),
                            )
                        word.allRead()
                        row
                    }
                val actual =
                    ResidualWords.residualWords(text, category, given, files::load).map {
                        listOf(it.word.text, it.word.start, it.word.end, it.reason?.wire, it.kind?.wire)
                    }
                assertEquals(expected, actual)
                case.allRead()
            }
        }
    }

    companion object {
        const val RESIDUAL = "lexicon/residual.json"
        const val TEXTS = "lexicon/texts.json"

        /** The vector files this suite runs, relative to tests/vectors/: [VectorCountTest] counts them. */
        val FILES = listOf(RESIDUAL, TEXTS)
    }
}

/**
 * The repository's `lexicon/` folder (`-Dredacto.lexicon=DIR`, android/core/test.sh; else
 * beside tests/vectors/), read once for every test.
 */
object LexiconFolder {
    val dir: File by lazy {
        val configured = System.getProperty("redacto.lexicon")
        val dir = if (configured != null) File(configured) else File(Vectors.root, "../../lexicon").canonicalFile
        check(File(dir, LexiconFiles.MANIFEST).isFile) { "lexicon folder not found: $dir (set -Dredacto.lexicon)" }
        dir
    }

    val files: LexiconFiles by lazy { LexiconFiles.inFolder(dir) }
}
