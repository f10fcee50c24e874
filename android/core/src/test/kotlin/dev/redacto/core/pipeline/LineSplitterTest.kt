package dev.redacto.core.pipeline

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

class LineSplitterTest {
    private fun split(vararg pieces: String): List<String> {
        val lines = mutableListOf<String>()
        val splitter = LineSplitter { lines.add(it) }
        pieces.forEach(splitter::feed)
        splitter.finish()
        return lines
    }

    @Test
    fun `lines spanning pieces are joined and emitted when complete`() {
        assertEquals(listOf("1:NAME", "2:DATE"), split("1:NA", "ME\n2:", "DATE"))
    }

    @Test
    fun `empty lines are kept and a trailing newline adds nothing`() {
        assertEquals(listOf("PASS", ""), split("PASS\n\n"))
    }
}
