package dev.redacto.core.ner

import dev.redacto.core.text.CodePointText
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import kotlin.math.abs
import kotlin.math.ln

/** Decoding without a model: the same tables as Python's tests/ner/test_decode.py. */
class NerDecodeTest {
    @Test
    fun `windows cover every token with overlap and never open inside a word`() {
        val table =
            listOf(
                Triple(listOf<Int>(), 4 to 1, listOf<Pair<Int, Int>>()),
                Triple(listOf(0, 1, 2), 4 to 1, listOf(0 to 3)),
                Triple(listOf(0, 1, 2, 3), 4 to 1, listOf(0 to 4)),
                Triple(listOf(0, 1, 2, 3, 4, 5), 4 to 1, listOf(0 to 4, 3 to 6)),
                Triple((0..9).toList(), 4 to 2, listOf(0 to 4, 2 to 6, 4 to 8, 6 to 10)),
                // The second window would open on a `##` continuation of word 2: it backs up to it.
                Triple(listOf(0, 1, 2, 2, 2, 3, 4), 4 to 1, listOf(0 to 4, 2 to 6, 5 to 7)),
                // One word longer than the window: each window still starts after the last.
                Triple(List(6) { 0 }, 3 to 1, listOf(0 to 3, 1 to 4, 2 to 5, 3 to 6)),
                Triple((0..4).toList(), 3 to 0, listOf(0 to 3, 3 to 5)),
            )
        for ((wordIds, sizes, expected) in table) {
            val windows = planWindows(wordIds, sizes.first, sizes.second)
            assertEquals(expected, windows.map { it.start to it.end }, "$wordIds $sizes")
        }
        for ((window, overlap) in listOf(4 to 4, 4 to -1, 4 to 5)) {
            assertThrows(IllegalArgumentException::class.java) { planWindows(listOf(0, 1, 2), window, overlap) }
        }
    }

    @Test
    fun `a shared token is read where it has more context, the first window on a tie`() {
        val windows = listOf(NerWindow(0, 5), NerWindow(2, 6))
        assertEquals(listOf(0, 0, 0, 1, 1), listOf(0, 2, 3, 4, 5).map { bestWindow(it, windows) })
    }

    @Test
    fun `softmax gives the top label and its probability, the first on a tie`() {
        val (label, score) = softmaxBest(floatArrayOf(0f, ln(3.0).toFloat()))
        assertEquals(1, label)
        assertTrue(abs(score - 0.75) < 1e-6)
        assertEquals(0 to 0.5, softmaxBest(floatArrayOf(1f, 1f)))
    }

    @Test
    fun `a token is a hit at the threshold`() {
        assertEquals(null, TokenReading("O", 0.99).entity())
        assertEquals("GIVEN_NAME", TokenReading("B-GIVEN_NAME", 0.5).entity())
        assertEquals("SURNAME", TokenReading("I-SURNAME", 0.97).entity())
        assertEquals(null, TokenReading("B-CITY", 0.4999).entity())
    }

    @Test
    fun `a word is a run of non-space with its punctuation trimmed`() {
        val table =
            mapOf(
                "" to listOf(),
                "Morel, 12" to listOf("Morel", "12"),
                "(555) 123-4567." to listOf("555", "123-4567"),
                "« Élodie »\u00a0Brun" to listOf("Élodie", "Brun"),
                "— ... !" to listOf(),
                "jane@example.com." to listOf("jane@example.com"),
                "Peter's" to listOf("Peter's"),
                "東京都 山田太郎" to listOf("東京都", "山田太郎"),
                "\uD83D\uDE00 Anna" to listOf("\uD83D\uDE00", "Anna"),
            )
        for ((text, cores) in table) {
            val points = CodePointText(text)
            assertEquals(cores, nerWordsOf(text).map { points.slice(it.start, it.end) }, text)
        }
    }

    private val names: (String) -> String? = { mapOf("GIVEN_NAME" to "NAME", "SURNAME" to "NAME", "CITY" to "ADDRESS")[it] }

    @Test
    fun `a subword hit covers its whole word, a hit on trimmed punctuation names none`() {
        val tokens = listOf(NerToken(1, 0, 2), NerToken(2, 3, 7), NerToken(3, 7, 8), NerToken(4, 8, 9), NerToken(5, 10, 15))
        val readings =
            listOf(
                TokenReading("O", 0.9),
                TokenReading("O", 0.6),
                TokenReading("B-SURNAME", 0.8), // `##l` alone
                TokenReading("O", 1.0),
                TokenReading("O", 1.0),
            )
        assertEquals(listOf(WordHit(3, 8, "NAME", "SURNAME", 0.8)), wordHits("Dr Morel, merci", tokens, readings, names))
        val lyon =
            wordHits(
                "Lyon, ok",
                listOf(NerToken(1, 0, 4), NerToken(2, 4, 5), NerToken(3, 6, 8)),
                listOf(TokenReading("O", 1.0), TokenReading("I-CITY", 0.9), TokenReading("O", 1.0)),
                names,
            )
        assertEquals(emptyList<WordHit>(), lyon)
        assertEquals(emptyList<WordHit>(), wordHits("Ella", listOf(NerToken(1, 0, 4)), listOf(TokenReading("B-PASSPORT", 0.9)), names))
    }

    @Test
    fun `a word takes the label of its most probable hit`() {
        val tokens = listOf(NerToken(1, 0, 4), NerToken(2, 4, 5), NerToken(3, 5, 9))
        val readings = listOf(TokenReading("B-GIVEN_NAME", 0.7), TokenReading("O", 0.9), TokenReading("B-CITY", 0.95))
        assertEquals(listOf(WordHit(0, 9, "ADDRESS", "CITY", 0.95)), wordHits("Jean-Lyon", tokens, readings, names))
    }

    @Test
    fun `neighbouring words of one label join, an address also across one comma`() {
        val address = setOf("ADDRESS")
        assertEquals(
            listOf(SpanHit(0, 10, "NAME", listOf("GIVEN_NAME", "SURNAME"))),
            joinHits("Jean Morel", listOf(WordHit(0, 4, "NAME", "GIVEN_NAME", 0.9), WordHit(5, 10, "NAME", "SURNAME", 0.9))),
        )
        assertEquals(
            listOf(SpanHit(0, 4, "NAME", listOf("GIVEN_NAME")), SpanHit(6, 10, "NAME", listOf("GIVEN_NAME"))),
            joinHits("Jean, Paul", listOf(WordHit(0, 4, "NAME", "GIVEN_NAME", 0.9), WordHit(6, 10, "NAME", "GIVEN_NAME", 0.9)), address),
        )
        assertEquals(
            listOf(SpanHit(0, 12, "ADDRESS", listOf("STREET_NAME", "ZIP_CODE"))),
            joinHits(
                "Lilas, 69003",
                listOf(WordHit(0, 5, "ADDRESS", "STREET_NAME", 0.9), WordHit(7, 12, "ADDRESS", "ZIP_CODE", 0.9)),
                address,
            ),
        )
        assertEquals(
            listOf(SpanHit(0, 5, "NAME", listOf("SURNAME")), SpanHit(6, 8, "ADDRESS", listOf("BUILDING_NUMBER"))),
            joinHits("Morel 12", listOf(WordHit(0, 5, "NAME", "SURNAME", 0.9), WordHit(6, 8, "ADDRESS", "BUILDING_NUMBER", 1.0)), address),
        )
    }
}
