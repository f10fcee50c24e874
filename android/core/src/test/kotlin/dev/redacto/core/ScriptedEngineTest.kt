package dev.redacto.core

import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
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
    fun `progress lines read like the app's`() {
        val event = ProgressEvent(step = Step.DETECT, phase = Phase.PROGRESS, category = Category.MEDICAL, found = 7, chunk = 1, chunks = 2)
        assertEquals("Step 2/4: Detecting Medical identifiers (part 2/2)… 7 found", event.describe())
    }
}
