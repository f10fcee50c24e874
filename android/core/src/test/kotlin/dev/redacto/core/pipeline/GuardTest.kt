package dev.redacto.core.pipeline

import dev.redacto.core.Box
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.ModelIdentity
import dev.redacto.core.RejectReason
import dev.redacto.core.Status
import dev.redacto.core.Step
import dev.redacto.core.TRUSTING
import dev.redacto.core.Verdict
import dev.redacto.core.engines.ChatRequest
import dev.redacto.core.engines.Decoding
import dev.redacto.core.engines.LlmEngine
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.lexicon.LexiconFolder
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.asFlow
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** Replies that leave the step's format are stopped early, and nothing parsed before is lost. */
class GuardTest {
    private val echo = "[3] DOB:" // what a base model does: repeat the prompt's element list
    private val noRules = PipelineOptions(rules = false)

    /** A watch over a parser that drops the lines in [reasons] and uses all others, and what it read. */
    private fun watchOf(reasons: Map<String, RejectReason>): Pair<LineWatch, List<String>> {
        val rejected = mutableListOf<LineRejected>()
        val read = mutableListOf<String>()
        val watch =
            LineWatch({ line ->
                read.add(line)
                reasons[line]?.let { rejected.add(LineRejected(line, it)) }
            }, rejected)
        return watch to read
    }

    private fun LineWatch.feedLines(lines: List<String>): List<Decoding> = lines.map { feed("$it\n") }

    @Test
    fun `stops at the last allowed unusable line in a row`() {
        val (watch, read) = watchOf(mapOf(echo to RejectReason.JUNK))
        val said = watch.feedLines(List(MAX_WASTED_LINES + 3) { echo })
        assertEquals(MAX_WASTED_LINES - 1, said.indexOf(Decoding.STOP))
        assertEquals(MAX_WASTED_LINES, read.size)
    }

    @Test
    fun `a usable line or a wrong label resets the count and blank lines do not count`() {
        val (watch, _) = watchOf(mapOf(echo to RejectReason.JUNK, "5:COLOR" to RejectReason.UNKNOWN_LABEL))
        val lines =
            List(MAX_WASTED_LINES - 1) { echo } + "1:NAME" +
                List(MAX_WASTED_LINES - 1) { echo } + "5:COLOR" +
                List(MAX_WASTED_LINES - 1) { listOf(echo, "", "NONE", "") }.flatten()
        assertFalse(Decoding.STOP in watch.feedLines(lines))
    }

    @Test
    fun `repeating one line over and over counts as unusable`() {
        val (watch, _) = watchOf(mapOf("1:NAME" to RejectReason.DUPLICATE))
        assertEquals(Decoding.STOP, watch.feedLines(List(MAX_WASTED_LINES) { "1:NAME" }).last())
    }

    @Test
    fun `a line longer than any answer stops before it ends`() {
        val (watch, read) = watchOf(emptyMap())
        assertEquals(Decoding.CONTINUE, watch.feed("1:NAME\n" + "x".repeat(100)))
        val said = List(MAX_LINE_CHARS / 100) { watch.feed("y".repeat(100)) }
        assertEquals(Decoding.STOP, said.last())
        assertTrue(said.dropLast(1).all { it == Decoding.CONTINUE })
        watch.finish()
        assertEquals(listOf("1:NAME"), read)
    }

    @Test
    fun `line length counts code points, as Python does`() {
        val (watch, _) = watchOf(emptyMap())
        // 400 emoji are 800 UTF-16 units but exactly the limit, which is allowed.
        assertEquals(Decoding.CONTINUE, watch.feed("😀".repeat(MAX_LINE_CHARS)))
        assertEquals(Decoding.STOP, watch.feed("😀"))
    }

    @Test
    fun `lines after the stop in the same piece are not read`() {
        val (watch, read) = watchOf(mapOf(echo to RejectReason.JUNK))
        assertEquals(Decoding.STOP, watch.feed((List(MAX_WASTED_LINES) { echo } + listOf("2:NAME", "")).joinToString("\n")))
        assertEquals(List(MAX_WASTED_LINES) { echo }, read)
    }

    private fun page(): Document {
        val words = listOf("Patient", "Jane", "Smith", "DOB:", "03/15/78", "compound", "fracture")
        return Document.fromElements(words.mapIndexed { i, word -> Element(i, word, Box(10.0 * i, 0.0, 10.0 * i + 8, 10.0)) })
    }

    @Test
    fun `a detector that starts echoing keeps what it found and is stopped`(): Unit =
        runBlocking {
            val echoed = List(10) { listOf("Patient", "Jane") }.flatten()
            val echoLines = echoed.mapIndexed { i, word -> "[$i] $word" }.joinToString("\n")
            val engine =
                ScriptedEngine(
                    mapOf(
                        Step.CLASSIFY to listOf("CATEGORY: Medical"),
                        Step.DETECT to listOf("1:NAME\n2:NAME\n$echoLines\n4:DATE"),
                        Step.VALIDATE to listOf("PASS"),
                    ),
                    TRUSTING,
                )
            val report = runPipeline(page(), engine, options = noRules, lexicon = LexiconFolder.files).report
            assertEquals(listOf(1, 2), report.detections.mapNotNull { it.index }.sorted()) // 4 came after the stop
            val detect = report.steps.first { it.step == Step.DETECT }
            assertTrue(detect.stopped)
            assertEquals(MAX_WASTED_LINES, detect.parseErrors)
            // The independent validator still judges the output (PASS), and the birth date the stop
            // left readable is a word no reader explains (the residual check): no PASS.
            assertEquals(Verdict.PASS, report.validatorVerdict)
            assertEquals(Status.NEEDS_REVIEW, report.status)
            assertEquals(listOf("03/15/78"), report.unexplained.map { it.value })
        }

    @Test
    fun `a validator that passes then rambles is stopped and fails closed`(): Unit =
        runBlocking {
            val ramble = List(20) { "The document looks fine to me." }.joinToString("\n")
            val engine =
                ScriptedEngine(
                    mapOf(
                        Step.CLASSIFY to listOf("CATEGORY: Medical"),
                        Step.DETECT to listOf("1:NAME\n2:NAME\n4:DATE"),
                        Step.VALIDATE to listOf("PASS\n$ramble"),
                    ),
                )
            val report = runPipeline(page(), engine, options = noRules).report
            assertTrue(report.steps.first { it.step == Step.VALIDATE }.stopped)
            assertEquals(Status.NEEDS_REVIEW, report.status)
            assertEquals(0, engine.remaining(Step.VALIDATE))
        }

    /** Streams each scripted reply in pieces of [size] characters, as a model's tokens arrive. */
    private class PieceEngine(
        replies: Map<Step, List<String>>,
        private val size: Int,
    ) : LlmEngine {
        override val identity = ModelIdentity(uri = "pieces:", name = "pieces")
        private val queues = replies.mapValues { ArrayDeque(it.value) }

        override fun stream(request: ChatRequest): Flow<String> =
            queues
                .getValue(request.step)
                .removeFirst()
                .chunked(size)
                .asFlow()
    }

    @Test
    fun `a validator PASS followed by an over-long line never stands, whole or in pieces`(): Unit =
        runBlocking {
            val long = "Jane Smith is still readable here and " + "x".repeat(MAX_LINE_CHARS)
            for (reply in listOf("PASS\n$long", "PASS\n$long\n")) {
                val replies =
                    mapOf(
                        Step.CLASSIFY to listOf("CATEGORY: Medical"),
                        Step.DETECT to listOf("1:NAME"),
                        Step.VALIDATE to listOf(reply),
                    )
                val engines = listOf(ScriptedEngine(replies), PieceEngine(replies, 1), PieceEngine(replies, 7))
                for (engine in engines) {
                    val report = runPipeline(page(), engine, options = noRules).report
                    assertEquals(Status.NEEDS_REVIEW, report.status, "${engine.identity.name}: ${reply.length}")
                    assertEquals(Verdict.FAIL, report.validatorVerdict)
                }
            }
        }
}
