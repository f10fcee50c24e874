package dev.redacto.core.pipeline

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * Placeholder numbering and value matching. Python's string semantics and the locator are held
 * to the Python's own answers by the shared vectors instead (PyTextVectorTest,
 * LocatorVectorTest).
 */
class PlaceholdersTest {
    @Test
    fun `one value one placeholder, numbered per label`() {
        val book = PlaceholderBook()
        assertEquals("[NAME_1]", book.assign("NAME", "Smith,"))
        assertEquals("[NAME_2]", book.assign("NAME", "Chen"))
        assertEquals("[NAME_1]", book.assign("ID", "SMITH"))
        assertEquals("[PHONE_1]", book.assign("PHONE", "555"))
    }

    @Test
    fun `values match despite OCR noise but not across numbers`() {
        assertTrue(valuesMatch("inquire@blucurrent. mail", "inquire@blucurrent.mail"))
        assertTrue(valuesMatch("Jane Smyth", "Jane Smith"))
        assertFalse(valuesMatch("408-555-1299", "408-555-1234"))
    }
}
