package dev.redacto.core

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** Python-compatible text primitives, the locator, placeholders and the YAML subset reader. */
class TextSemanticsTest {
    @Test
    fun `python string semantics`() {
        assertEquals("a b", PyText.strip("\u00a0\u3000a b\u001c\n"))
        assertEquals(listOf("a", "b"), PyText.splitWhitespace(" a\u2003b "))
        assertEquals(listOf("a", "b", "c"), PyText.splitLines("a\r\nb\u2028c"))
        assertEquals("ss", PyText.casefold('ß'.code))
        assertTrue(PyText.isAlnum('²'.code) && PyText.isDigit('²'.code) && !PyText.isAlnum('_'.code))
        assertEquals("janesmith3", skeleton("JANE SMITH-3"))
    }

    @Test
    fun `locator levels and code point spans`() {
        val text = "😀 Jane Smith met JANE SMITH; write inquire@blucurrent. mail"
        val located = Locator(text).locate("Jane Smith")!!
        assertEquals(LocateMethod.EXACT, located.method)
        // Spans count code points: the emoji is one, as in Python.
        assertEquals(listOf(Span(2, 12), Span(17, 27)), located.spans)
        assertEquals(LocateMethod.NORMALIZED, Locator(text).locate("inquire@blucurrent.mail")!!.method)
        assertNull(Locator(text).locate("Robert"))
        assertEquals(Located(LocateMethod.UNIQUE, listOf(Span(8, 18))), Locator("Patient Jane Smyth here").locate("Jane Smith"))
        // A near miss around a real name: its words of four or more letters, not the title.
        val history = "History: Mrs. Marlowe came with her daughter\nLisa, who saw the fall."
        assertEquals(Located(LocateMethod.WORDS, listOf(Span(45, 49))), Locator(history).locate("Mrs. Lisa"))
    }

    @Test
    fun `near tells a near miss from an invention, as Python's locator does`() {
        val cases =
            listOf(
                Triple("Seen by Dr. Lee.", "Lee Kowalski", true),
                Triple("Call 408-555-1234 today.", "408-555-0134", true),
                Triple("Dr. Kirby saw Mr. Kerby.", "Korby", true),
                Triple("Mrs. Chen (MRN 4471829) called.", "Robert Paulson", false),
                Triple("Mrs. Chen (MRN 4471829) called.", "ACCOUNT 00412-7781", false),
                Triple("Seen by Dr. Lee.", "J. Dr", false),
            )
        for ((text, value, near) in cases) {
            val locator = Locator(text)
            assertNull(locator.locate(value), value)
            assertEquals(near, locator.near(value), value)
        }
    }

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
