package dev.redacto.core.engines

import dev.redacto.core.Category
import dev.redacto.core.ModelIdentity
import dev.redacto.core.Step
import dev.redacto.core.pipeline.Phase
import dev.redacto.core.pipeline.ProgressEvent
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.flowOn
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

class ScriptedEngineTest {
    private fun request(step: Step) = ChatRequest(step = step, system = "s", user = "u")

    @Test
    fun `replies are consumed per step in call order and stream line by line`(): Unit =
        runBlocking {
            val engine = ScriptedEngine(mapOf(Step.DETECT to listOf("1:NAME\n2:DATE", "NONE"), Step.VALIDATE to listOf("PASS")))
            assertEquals(listOf("1:NAME\n", "2:DATE"), engine.stream(request(Step.DETECT)).toList())
            assertEquals("PASS", engine.complete(request(Step.VALIDATE)).text)
            assertEquals(1, engine.remaining(Step.DETECT))
            assertEquals(listOf(Step.DETECT, Step.VALIDATE), engine.requests.map { it.step })
        }

    @Test
    fun `running out is an error`(): Unit =
        runBlocking {
            val engine = ScriptedEngine(mapOf(Step.CLASSIFY to listOf("CATEGORY: General")))
            engine.complete(request(Step.CLASSIFY))
            assertThrows(EngineException::class.java) { runBlocking { engine.complete(request(Step.CLASSIFY)) } }
        }

    @Test
    fun `a stop ends the reply at that piece`(): Unit =
        runBlocking {
            val engine = ScriptedEngine(mapOf(Step.DETECT to listOf("1:NAME\n2:NAME\n4:DATE", "1:NAME")))
            val pieces = mutableListOf<String>()
            val reply =
                engine.complete(request(Step.DETECT)) { piece ->
                    pieces.add(piece)
                    if (pieces.size == 2) Decoding.STOP else Decoding.CONTINUE
                }
            assertEquals("1:NAME\n2:NAME\n", reply.text)
            assertTrue(reply.stats.stopped)
            val last = engine.complete(request(Step.DETECT)) { Decoding.STOP }
            assertEquals("1:NAME", last.text)
            assertFalse(last.stats.stopped) // it had ended anyway
        }

    @Test
    fun `a stop cancels the engine's generation before complete returns`(): Unit =
        runBlocking {
            // Shaped like the app's LiteRT-LM engine: generation on another dispatcher, a
            // cancel hook that must run, nothing generated past the stop reaching the reply.
            val engine = CountingEngine()
            val reply = engine.complete(request(Step.DETECT)) { piece -> if (piece == "2:NAME\n") Decoding.STOP else Decoding.CONTINUE }
            assertEquals("1:NAME\n2:NAME\n", reply.text)
            assertTrue(reply.stats.stopped)
            assertTrue(engine.cancelled, "the generation was not cancelled")
            assertTrue(engine.generated < CountingEngine.PIECES, "generated ${engine.generated} of ${CountingEngine.PIECES}")
            val whole = engine.complete(request(Step.DETECT))
            assertEquals(CountingEngine.PIECES, whole.text.count { it == '\n' })
            assertFalse(whole.stats.stopped)
        }

    /** An engine that generates many lines slowly on the IO dispatcher and records a cancel. */
    private class CountingEngine : LlmEngine {
        override val identity = ModelIdentity(uri = "counting:", name = "counting")

        @Volatile var generated = 0

        @Volatile var cancelled = false

        override fun stream(request: ChatRequest): Flow<String> =
            flow {
                cancelled = false
                generated = 0
                try {
                    for (number in 1..PIECES) {
                        generated = number
                        emit("$number:NAME\n")
                        delay(1)
                    }
                } catch (stop: CancellationException) {
                    cancelled = true
                    throw stop
                }
            }.flowOn(Dispatchers.IO)

        companion object {
            const val PIECES = 200
        }
    }

    @Test
    fun `progress lines read like the app's`() {
        val event = ProgressEvent(step = Step.DETECT, phase = Phase.PROGRESS, category = Category.MEDICAL, found = 7, chunk = 1, chunks = 2)
        assertEquals("Step 2/4: Detecting Medical identifiers (part 2/2)… 7 found", event.describe())
    }
}
