package dev.redacto.core.text

import dev.redacto.core.Vectors
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import java.io.File

/** The words never named a NAME on their own, equal to the list Python reads (`tools/redacto/text/not_names.txt`). */
class NotNamesTest {
    private val tools = File(Vectors.root, "../../tools/redacto")

    @Test
    fun `a lone function word is never a name`() {
        val refused =
            listOf(
                "My",
                "I",
                "The",
                "You",
                "She",
                "Can",
                "So",
                "There",
                "Dear",
                "Je",
                "Le",
                "Vous",
                "Elle",
                "L'",
                "J'",
                "Bonjour,",
                "  my. ",
                "MONSIEUR",
            )
        val kept = listOf("Will", "May", "Jean", "Ella", "My Lisa", "Le Pen", "")
        refused.forEach { assertEquals(true, NotNames.isNotAName("NAME", it), it) }
        kept.forEach { assertEquals(false, NotNames.isNotAName("NAME", it), it) }
        assertEquals(false, NotNames.isNotAName("NAME", null))
        assertEquals(false, NotNames.isNotAName("ID", "I"))
        assertEquals(false, NotNames.isNotAName("ADDRESS", "The"))
    }

    @Test
    fun `the not-name list is Python's not_names txt`() {
        val words =
            File(tools, "text/not_names.txt")
                .readLines()
                .map { it.trim() }
                .filter { it.isNotEmpty() && !it.startsWith("#") }
                .map { PyText.casefold(it) }
                .toSet()
        assertEquals(words, NotNames.WORDS)
    }
}
