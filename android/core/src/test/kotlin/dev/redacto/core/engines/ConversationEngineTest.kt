package dev.redacto.core.engines

import dev.redacto.core.Step
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.map
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The stream handling of the phone's engine (no lost piece, drain then close, a budget in
 * tokens, no empty system turn), against a native-like fake.
 */
class ConversationEngineTest {
    private fun engineFor(
        runtime: FakeNativeRuntime,
        drainTimeoutMs: Long = ConversationEngine.DEFAULT_DRAIN_TIMEOUT_MS,
    ): LlmEngine = ConversationEngine(runtime, drainTimeoutMs, Dispatchers.IO)

    private fun request(
        maxOutputTokens: Int = 512,
        system: String = "system",
    ) = ChatRequest(step = Step.DETECT, system = system, user = "user", maxOutputTokens = maxOutputTokens)

    private fun pieces(count: Int) = (0 until count).map { "t$it " }

    private fun FakeConversation.assertDrainedThenClosed() {
        assertTrue(closed, "the conversation is closed")
        assertFalse(closedWhileRunning, "closed while the native decode was still running: $log")
        assertEquals(log.indexOf("close"), log.size - 1, "close comes last: $log")
    }

    @Test
    fun `a slow reader loses no piece`(): Unit =
        runBlocking {
            val runtime = FakeNativeRuntime(pieces(400))
            val reply =
                engineFor(runtime).complete(request()) {
                    Thread.sleep(1)
                    Decoding.CONTINUE
                }
            assertEquals(pieces(400).joinToString(""), reply.text)
            runtime.conversations.single().assertDrainedThenClosed()
        }

    @Test
    fun `a slow stream collector loses no piece`(): Unit =
        runBlocking {
            val runtime = FakeNativeRuntime(pieces(400))
            val seen = engineFor(runtime).stream(request()).map { delay(1).let { _ -> it } }.toList()
            assertEquals(pieces(400), seen)
        }

    @Test
    fun `a stop cancels, waits for the reply's end, then closes`(): Unit =
        runBlocking {
            val runtime = FakeNativeRuntime(pieces(300), pieceDelayMs = 1, afterCancel = 30)
            val reply = engineFor(runtime).complete(request()) { if (it == "t5 ") Decoding.STOP else Decoding.CONTINUE }
            assertEquals(pieces(6).joinToString(""), reply.text)
            assertTrue(reply.stats.stopped)
            val conversation = runtime.conversations.single()
            assertEquals(listOf("cancel", "end", "close"), conversation.log.toList())
            conversation.assertDrainedThenClosed()
        }

    @Test
    fun `a stream collector that stops reading drains before the close`(): Unit =
        runBlocking {
            val runtime = FakeNativeRuntime(pieces(300), pieceDelayMs = 1, afterCancel = 30)
            assertEquals("t0 ", engineFor(runtime).stream(request()).first())
            runtime.conversations.single().assertDrainedThenClosed()
        }

    @Test
    fun `the caller's cancellation drains before the close`(): Unit =
        runBlocking {
            val runtime = FakeNativeRuntime(pieces(5_000), pieceDelayMs = 1, afterCancel = 30)
            val job = launch(Dispatchers.Default) { engineFor(runtime).complete(request()) }
            while (runtime.conversations.isEmpty()) delay(1)
            delay(20)
            job.cancelAndJoin()
            runtime.conversations.single().assertDrainedThenClosed()
        }

    @Test
    fun `the budget counts tokens, not empty pieces`(): Unit =
        runBlocking {
            val script = pieces(20).flatMap { listOf("", it) }
            val runtime = FakeNativeRuntime(script, pieceDelayMs = 1)
            val reply = engineFor(runtime).complete(request(maxOutputTokens = 5))
            assertEquals(pieces(5).joinToString(""), reply.text)
            assertFalse(reply.stats.stopped, "a reply cut by its budget was not stopped by the caller")
            val conversation = runtime.conversations.single()
            assertEquals(5, conversation.spec.maxOutputTokens, "the runtime gets the budget in tokens")
            conversation.assertDrainedThenClosed()
        }

    @Test
    fun `empty pieces are never shown to the caller`(): Unit =
        runBlocking {
            val seen = mutableListOf<String>()
            engineFor(FakeNativeRuntime(listOf("", "a", "", "b", ""))).complete(request()) {
                seen.add(it)
                Decoding.CONTINUE
            }
            assertEquals(listOf("a", "b"), seen)
        }

    @Test
    fun `an empty system prompt opens no system turn`(): Unit =
        runBlocking {
            val runtime = FakeNativeRuntime(listOf("ok"))
            val engine = engineFor(runtime)
            engine.complete(request(system = ""))
            engine.complete(request(system = "be brief"))
            assertNull(runtime.conversations[0].spec.system)
            assertEquals("be brief", runtime.conversations[1].spec.system)
        }

    @Test
    fun `a runtime error fails the call, and the conversation is closed after it`(): Unit =
        runBlocking {
            val runtime = FakeNativeRuntime(pieces(50), failAfter = 3)
            val error = assertThrows(EngineException::class.java) { runBlocking { engineFor(runtime).complete(request()) } }
            assertTrue("native decode failed" in error.message.orEmpty(), error.message)
            runtime.conversations.single().assertDrainedThenClosed()
        }

    @Test
    fun `a runtime that does not stop is left open, never closed under its decode`(): Unit =
        runBlocking {
            val runtime = FakeNativeRuntime(pieces(100_000), pieceDelayMs = 1, afterCancel = Int.MAX_VALUE)
            val engine = engineFor(runtime, drainTimeoutMs = 100)
            val error = assertThrows(EngineException::class.java) { runBlocking { engine.complete(request()) { Decoding.STOP } } }
            assertTrue("did not stop" in error.message.orEmpty(), error.message)
            val conversation = runtime.conversations.single()
            assertFalse(conversation.closed)
            conversation.halt()
        }

    @Test
    fun `each call opens its own conversation`(): Unit =
        runBlocking {
            val runtime = FakeNativeRuntime(listOf("a\n", "b"))
            val engine = engineFor(runtime)
            assertEquals("a\nb", engine.complete(request()).text)
            assertEquals("a\nb", engine.complete(request()).text)
            assertEquals(2, runtime.conversations.size)
            runtime.conversations.forEach { it.assertDrainedThenClosed() }
        }
}
