package dev.redacto.core.pipeline

import dev.redacto.core.Document
import dev.redacto.core.Fields
import dev.redacto.core.Status
import dev.redacto.core.Step
import dev.redacto.core.TRUSTING
import dev.redacto.core.Vectors
import dev.redacto.core.Verdict
import dev.redacto.core.asArrayStrict
import dev.redacto.core.asIntStrict
import dev.redacto.core.asObjectStrict
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.lexicon.LexiconFolder
import dev.redacto.core.text.PyText
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory
import kotlin.random.Random

/**
 * Text-mode chunks: the shared cases in tests/vectors/chunking, and the same word-limit,
 * long-line and coverage checks as tests/pipeline/test_chunking.py.
 */
class ChunkingTest {
    @TestFactory
    fun `text chunk vectors`(): List<DynamicTest> =
        Vectors.files("chunking").flatMap { file ->
            val vector = Vectors.load(file)
            vector.string("name")
            vector.string("description")
            vector.array("cases").mapIndexed { i, element ->
                val case = Fields(element.asObjectStrict("cases[$i]"), "cases[$i]")
                case.onlyKeys(setOf("name", "description", "text", "size", "chunks"))
                DynamicTest.dynamicTest(case.string("name")) {
                    val text = case.string("text")
                    val size = case.int("size")
                    val expected = case.array("chunks").map { pair -> pair.asArrayStrict("chunks").map { it.asIntStrict("chunks") } }
                    assertEquals(expected, chunkText(text, size).map { listOf(it.start, it.end) })
                    assertCovers(text, size)
                }
            }
        }

    private fun words(text: String): List<String> = PyText.splitWhitespace(text)

    /** Chunks [text] and checks what every chunking keeps; returns the chunks' texts. */
    private fun assertCovers(
        text: String,
        size: Int,
    ): List<String> {
        val chunks = chunkText(text, size)
        val parts = chunks.map { it.of(text) }
        assertEquals(text, parts.joinToString(""))
        assertEquals(chunks.indices.toList(), chunks.map { it.number })
        chunks.zipWithNext().forEach { (left, right) -> assertEquals(left.end, right.start) }
        assertTrue(parts.all { words(it).size <= size }, "a chunk over $size words")
        if (words(text).size > size) assertTrue(parts.all { words(it).isNotEmpty() }, "a chunk without a word wastes a call")
        return parts
    }

    private fun linesOf(
        count: Int,
        perLine: Int = 10,
    ): String = (0 until count).map { "w$it" }.chunked(perLine).joinToString("") { it.joinToString(" ") + "\n" }

    @Test
    fun `text chunks at the word limit, on one line and at line breaks`() {
        for ((count, sizes) in listOf(149 to listOf(149), 150 to listOf(150), 151 to listOf(150, 1), 301 to listOf(150, 150, 1))) {
            val oneLine = (0 until count).joinToString(" ") { "w$it" }
            assertEquals(sizes, assertCovers(oneLine, CHUNK_SIZE).map { words(it).size }, "one line of $count")
            val lines = assertCovers(linesOf(count), CHUNK_SIZE)
            assertEquals(sizes, lines.map { words(it).size }, "lines of $count")
            assertTrue(lines.all { it.endsWith("\n") })
        }
    }

    @Test
    fun `a line longer than a chunk is cut after its last word that fits`() {
        val longLine = (0 until 320).joinToString(" ") { "x$it" }
        val parts = assertCovers("first line\n$longLine\nlast line\n", CHUNK_SIZE)
        assertEquals("first line\n", parts[0])
        assertEquals((0 until 150).map { "x$it" }, words(parts[1]))
        assertTrue(parts[2].startsWith(" x150 "))
        assertEquals((300 until 320).map { "x$it" } + listOf("last", "line"), words(parts[3]))
    }

    @Test
    fun `whitespace stays where it was`() {
        val texts =
            listOf(
                "",
                "   \n\n  ",
                "\n\n" + linesOf(200) + "\n\n",
                "  " + linesOf(200).replace("\n", "\r\n") + "  ",
                linesOf(200).replace("\n", "\n\n"),
            )
        for (text in texts) {
            val parts = assertCovers(text, CHUNK_SIZE)
            if (words(text).size <= CHUNK_SIZE) assertEquals(listOf(text), parts)
        }
    }

    @Test
    fun `any text is covered exactly, offsets in code points`() {
        val pieces = listOf("w", "word", "\n", "\n\n", " ", "\t", "\r\n", "\u00a0", "\uD83D\uDE00", "é")
        val random = Random(7)
        repeat(300) {
            val text = (0 until random.nextInt(0, 121)).joinToString("") { pieces[random.nextInt(pieces.size)] }
            assertCovers(text, random.nextInt(1, 13))
            assertEquals(text.codePointCount(0, text.length), chunkText(text, 3).last().end)
        }
    }

    @Test
    fun `text chunk size must be positive`() {
        assertThrows(IllegalArgumentException::class.java) { chunkText("a b", 0) }
    }

    @Test
    fun `a long text is sent at most one chunk per call, however long`(): Unit =
        runBlocking {
            // 1,500 words in lines of 12: no call may carry more than one chunk's worth.
            val text = (0 until 125).joinToString("") { line -> (0 until 12).joinToString(" ") { "w${line * 12 + it}" } + "\n" }
            val chunks = chunkText(text).size
            assertEquals(11, chunks)
            val engine =
                ScriptedEngine(
                    mapOf(
                        Step.CLASSIFY to listOf("CATEGORY: General"),
                        Step.DETECT to List(chunks - 1) { "NONE" } + "NAME: w1499",
                        Step.REDACT to listOf(chunkText(text).last().of(text).replace("w1499", "[NAME_1]")),
                        Step.VALIDATE to List(chunks) { "PASS" },
                    ),
                    TRUSTING,
                )
            val result = runPipeline(Document.fromText(text), engine, lexicon = LexiconFolder.files)
            // Every other word `w…` is no dictionary word (the residual check), so no PASS.
            assertEquals(Verdict.PASS, result.report.validatorVerdict)
            assertEquals(Status.NEEDS_REVIEW, result.report.status)
            assertEquals(1499, result.report.unexplained.size)
            assertEquals(text.replace("w1499", "[NAME_1]"), result.redactedText)
            assertEquals(
                listOf(chunks - 1),
                result.report.steps
                    .filter { it.step == Step.REDACT }
                    .map { it.chunk },
            )
            assertEquals(1 + chunks + 1 + chunks, engine.requests.size)
            for (request in engine.requests) {
                val shown = request.user.substringAfterLast("<document>\n").substringBefore("\n</document>")
                assertTrue(words(shown).size <= CHUNK_SIZE, "${request.step} call shows ${words(shown).size} words")
            }
        }
}
