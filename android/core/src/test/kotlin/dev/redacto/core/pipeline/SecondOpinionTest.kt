package dev.redacto.core.pipeline

import dev.redacto.core.Box
import dev.redacto.core.Category
import dev.redacto.core.Detection
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.Source
import dev.redacto.core.Span
import dev.redacto.core.text.CodePointText
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * The second opinion's masking, the table of `tests/pipeline/test_second_opinion.py`; the
 * pipeline's use of it is pinned by the shared vectors `tests/vectors/pipeline/ *second_opinion*`.
 */
class SecondOpinionTest {
    private class Case(
        val original: String,
        val redacted: List<Pair<Int, Int>>,
        val masked: String,
        val hit: Pair<Int, Int>,
        val readable: List<String>,
    )

    private val cases =
        listOf(
            Case("Call Jane Moreau today", listOf(5 to 9), "Call … Moreau today", 5 to 13, listOf("Moreau")),
            Case("Call Jane Moreau today", listOf(5 to 9), "Call … Moreau today", 5 to 6, emptyList()),
            Case("Ann, Bo and Cy", listOf(5 to 7), "Ann, … and Cy", 0 to 14, listOf("Ann", "and Cy")),
            Case("Jane Moreau", listOf(0 to 11), "…", 0 to 1, emptyList()),
            Case("x Jane. y", emptyList(), "x Jane. y", 2 to 7, listOf("Jane")),
            Case("ab cd ef", listOf(6 to 8, 0 to 2), "… cd …", 0 to 6, listOf("cd")),
            Case("𝐀 Jane 𝐁 Moreau", listOf(2 to 6), "𝐀 … 𝐁 Moreau", 6 to 12, listOf("Moreau")),
        )

    @Test
    fun `masked text maps readable parts back to the original`() {
        for (case in cases) {
            val masked = MaskedText.of(case.original, case.redacted.map { Span(it.first, it.second) })
            assertEquals(case.masked, masked.text, case.original)
            val text = CodePointText(case.original)
            val found = masked.readable(case.hit.first, case.hit.second, case.original).map { text.slice(it.start, it.end) }
            assertEquals(case.readable, found, case.original)
        }
    }

    @Test
    fun `image mode masks redacted elements and keeps only readable ones`() {
        val words = listOf("Call", "Jane", "Moreau", "today")
        val document = Document.fromElements(words.mapIndexed { i, w -> Element(i, w, Box(40.0 * i, 0.0, 40.0 * i + 30, 10.0)) })
        assertEquals(listOf("Call", SECOND_OPINION_MASK, "Moreau", "today"), maskedElements(document, listOf(1)).elements.map { it.text })
        val opinion =
            SecondOpinion(
                listOf(
                    Source.VALIDATE_NER to
                        OutputReader { doc, _ ->
                            assertEquals("Call … Moreau today", doc.plainText())
                            listOf(1, 2).map { Detection(label = "NAME", source = Source.NER, round = 1, index = it, value = "… Moreau") }
                        },
                ),
            )
        val found = readPageOutput(document, listOf(1), Category.GENERAL, opinion, 1)
        assertEquals(listOf(Triple(2, "Moreau", Source.VALIDATE_NER)), found.map { Triple(it.index, it.value, it.source) })
    }
}
