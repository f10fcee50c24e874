package dev.redacto.core.lexicon

import dev.redacto.core.text.PyText
import dev.redacto.core.text.TinyJson
import java.io.IOException
import java.io.InputStream
import java.security.MessageDigest
import java.util.zip.GZIPInputStream

/*
 * The lexicon files read back: which words a language's dictionary knows, in any case.
 * Mirrors `redacto.lexicon.dictionary` (docs/lexicon.md, "The dictionaries"). The files are the
 * repository's `lexicon/` folder, which the app ships as its `lexicon/` assets.
 */

/** A lexicon file is missing, unreadable, or not the one the manifest pins: nothing may be explained with it. */
class LexiconException(
    message: String,
    cause: Throwable? = null,
) : RuntimeException(message, cause)

/** How a dictionary knows a word. */
enum class Known {
    /** Some form of it is written in lower case (`paris` is not, `école` is). */
    COMMON,

    /** Only capitalised forms (`Marie`, `Paris`, `NASA`). */
    PROPER,
}

/**
 * One language's forms, lower-cased (Kotlin `lowercase()`, Locale.ROOT, as Python's
 * `str.lower`): those the dictionary writes in lower case somewhere ([Known.COMMON]) and the
 * rest ([Known.PROPER]), each a sorted array searched by halves (a French dictionary holds
 * 450,000 forms: arrays take a fraction of a hash set's memory on a phone).
 */
class Lexicon private constructor(
    val language: String,
    private val common: Array<String>,
    private val proper: Array<String>,
) {
    /** How the dictionary knows one form, in any case, or null. */
    fun knowsForm(form: String): Known? {
        val lowered = form.lowercase()
        return when {
            common.binarySearch(lowered) >= 0 -> Known.COMMON
            proper.binarySearch(lowered) >= 0 -> Known.PROPER
            else -> null
        }
    }

    /**
     * How the dictionary knows [word]: whole, else every one of its pieces
     * ([LexiconWords.pieces]); a word known only through a proper noun is [Known.PROPER].
     */
    fun knows(word: String): Known? {
        knowsForm(word)?.let { return it }
        val parts = LexiconWords.pieces(word)
        if (parts.isEmpty() || parts == listOf(word)) return null
        val known = parts.map { knowsForm(it) ?: return null }
        return if (Known.PROPER in known) Known.PROPER else Known.COMMON
    }

    companion object {
        /** The languages the lexicon holds, in the order a tie between them is settled. */
        val LANGUAGES: List<String> = listOf("en", "fr")

        /** The lexicon of [forms] as the artefact writes them (case kept). */
        fun of(
            language: String,
            forms: Iterable<String>,
        ): Lexicon {
            val common = HashSet<String>()
            val all = HashSet<String>()
            for (form in forms) {
                val lowered = form.lowercase()
                all.add(lowered)
                if (lowered == form) common.add(lowered)
            }
            all.removeAll(common)
            return Lexicon(language, common.toTypedArray().apply { sort() }, all.toTypedArray().apply { sort() })
        }

        /**
         * The language whose dictionary knows the most of [words] as common words (words with
         * no digit: a proper noun says little about a text's language); a tie goes to the
         * earlier of [lexicons] (pass them in [LANGUAGES] order).
         */
        fun languageOf(
            words: List<Word>,
            lexicons: List<Lexicon>,
        ): String {
            require(lexicons.isNotEmpty()) { "no lexicon to choose from" }
            val scored = words.map { it.text }.filter { text -> text.codePoints().noneMatch { PyText.isDigit(it) } }
            var best = lexicons[0].language
            var bestCount = -1
            for (lexicon in lexicons) {
                val count = scored.count { lexicon.knows(it) == Known.COMMON }
                if (count > bestCount) {
                    best = lexicon.language
                    bestCount = count
                }
            }
            return best
        }
    }
}

/** One language's entry of `lexicon/manifest.json`: the file, its pinned sha256 and its licence notice. */
data class LexiconEntry(
    val language: String,
    val file: String,
    val sha256: String,
    val licence: String,
)

/** Opens one file of the `lexicon/` folder by name: a folder on the JVM, the app's `lexicon/` assets on the phone. */
fun interface LexiconSource {
    fun open(name: String): InputStream
}

/**
 * The pinned lexicons of one [source], each read and checked once, on first use. A file whose
 * sha256 is not the manifest's, a missing file or a language the manifest lacks throws
 * [LexiconException]: a privacy check that cannot read its dictionary must not explain anything.
 */
class LexiconFiles(
    private val source: LexiconSource,
) {
    /** The manifest's entries, in its order. */
    val entries: List<LexiconEntry> by lazy { readManifest() }

    private val loaded = mutableMapOf<String, Lexicon>()

    /** The pinned lexicon of [language] (`en`, `fr`). */
    fun load(language: String): Lexicon =
        synchronized(loaded) {
            loaded.getOrPut(language) { read(language) }
        }

    private fun read(language: String): Lexicon {
        val entry =
            entries.firstOrNull { it.language == language }
                ?: throw LexiconException("no lexicon for language '$language'; known: ${entries.joinToString { it.language }}")
        val data =
            try {
                source.open(entry.file).use { it.readBytes() }
            } catch (error: IOException) {
                throw LexiconException("the lexicon file ${entry.file} cannot be read", error)
            }
        val digest = MessageDigest.getInstance("SHA-256").digest(data).joinToString("") { "%02x".format(it) }
        if (digest != entry.sha256) throw LexiconException("the lexicon file ${entry.file} does not match its pinned sha256")
        val text =
            try {
                GZIPInputStream(data.inputStream()).use { it.readBytes() }.toString(Charsets.UTF_8)
            } catch (error: IOException) {
                throw LexiconException("the lexicon file ${entry.file} is no gzip file", error)
            }
        return Lexicon.of(language, text.split('\n').filter { it.isNotEmpty() })
    }

    private fun readManifest(): List<LexiconEntry> {
        val text =
            try {
                source.open(MANIFEST).use { it.readBytes() }.toString(Charsets.UTF_8)
            } catch (error: IOException) {
                throw LexiconException("the lexicon's $MANIFEST cannot be read", error)
            }
        try {
            val top = TinyJson.parse(text) as Map<*, *>
            return (top["languages"] as List<*>).map { raw ->
                val entry = raw as Map<*, *>
                LexiconEntry(
                    language = entry["language"] as String,
                    file = entry["file"] as String,
                    sha256 = entry["sha256"] as String,
                    licence = entry["licence"] as String,
                )
            }
        } catch (error: RuntimeException) {
            throw LexiconException("the lexicon's $MANIFEST is malformed", error)
        }
    }

    companion object {
        /** The manifest's name in the folder. */
        const val MANIFEST = "manifest.json"

        /** The files of a folder on disk (the repository's `lexicon/`). */
        fun inFolder(folder: java.io.File): LexiconFiles = LexiconFiles { name -> java.io.File(folder, name).inputStream() }
    }
}
