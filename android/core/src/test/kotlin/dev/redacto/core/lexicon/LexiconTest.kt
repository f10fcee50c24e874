package dev.redacto.core.lexicon

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File
import java.nio.file.Files

/** The lexicon files fail closed, and words count code points as Python does (the vectors hold only BMP text). */
class LexiconTest {
    private fun copyOfLexicon(): File {
        val copy = Files.createTempDirectory("lexicon").toFile()
        LexiconFolder.dir
            .listFiles()
            .orEmpty()
            .forEach { it.copyTo(File(copy, it.name)) }
        return copy
    }

    @Test
    fun `a lexicon file that is not the pinned one is refused`() {
        val copy = copyOfLexicon()
        try {
            val file = File(copy, "en.words.gz")
            val bytes = file.readBytes()
            bytes[bytes.size - 1] = (bytes[bytes.size - 1] + 1).toByte()
            file.writeBytes(bytes)
            val error = assertThrows(LexiconException::class.java) { LexiconFiles.inFolder(copy).load("en") }
            assertTrue("sha256" in error.message.orEmpty(), error.message)
        } finally {
            copy.deleteRecursively()
        }
    }

    @Test
    fun `a missing lexicon file, manifest or language is refused`() {
        val copy = copyOfLexicon()
        try {
            File(copy, "fr.words.gz").delete()
            assertThrows(LexiconException::class.java) { LexiconFiles.inFolder(copy).load("fr") }
            assertThrows(LexiconException::class.java) { LexiconFiles.inFolder(copy).load("de") }
            File(copy, LexiconFiles.MANIFEST).delete()
            assertThrows(LexiconException::class.java) { LexiconFiles.inFolder(copy).load("en") }
        } finally {
            copy.deleteRecursively()
        }
    }

    @Test
    fun `every licence notice the manifest names ships beside its file`() {
        val entries = LexiconFolder.files.entries
        assertEquals(Lexicon.LANGUAGES, entries.map { it.language })
        entries.forEach { assertTrue(File(LexiconFolder.dir, it.licence).isFile, it.licence) }
    }

    @Test
    fun `offsets count code points and words are NFC with straight apostrophes`() {
        val text = "\uD83D\uDE00 Wiik\u2026l\u2019e\u0301cole (ok)."
        assertEquals(
            listOf(Word("Wiik", 2, 6), Word("l'école", 7, 15), Word("ok", 17, 19)),
            LexiconWords.words(text),
        )
        assertEquals(listOf("jean", "dupont@"), LexiconWords.pieces("jean.dupont@"))
        assertEquals("15%", LexiconWords.trim("(15%),"))
    }

    @Test
    fun `a word is known whole or by every piece, a proper noun only capitalised`() {
        val lexicon = Lexicon.of("en", listOf("Paris", "school", "ex", "NASA"))
        assertEquals(Known.COMMON, lexicon.knows("SCHOOL"))
        assertEquals(Known.PROPER, lexicon.knows("paris"))
        assertEquals(Known.PROPER, lexicon.knows("ex-Paris"))
        assertEquals(Known.COMMON, lexicon.knows("ex-school"))
        assertNull(lexicon.knows("ex-Wiik"))
        assertFalse(lexicon.knows("nasa") == Known.COMMON)
    }
}
