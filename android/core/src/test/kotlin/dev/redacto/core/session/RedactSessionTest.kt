package dev.redacto.core.session

import dev.redacto.core.Status
import dev.redacto.core.Step
import dev.redacto.core.TRUSTING
import dev.redacto.core.engines.EngineException
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.lexicon.LexiconFolder
import dev.redacto.core.ocr.OcrException
import dev.redacto.core.ocr.fakePage
import dev.redacto.core.ocr.whitePage
import dev.redacto.core.pipeline.PixelBounds
import dev.redacto.core.rules.RuleDetector
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertInstanceOf
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.IOException

/**
 * The app's flow on core's fakes: the states a run goes through, what the screen is told at
 * each, and the runtimes opened once and closed once. The fake page reads
 * `Patient Jane / MRN 12345 / Ward 7` (elements 0–5).
 */
class RedactSessionTest {
    private val classified = "DOCUMENT_TYPE: Patient record\nCATEGORY: Medical"
    private val namesJaneAndMrn = mapOf(Step.CLASSIFY to listOf(classified), Step.DETECT to listOf("1:NAME\n3:MRN\n"), Step.VALIDATE to listOf("PASS"))

    @Test
    fun `a run reads, loads, redacts and ends PASS with exactly the report's boxes`(): Unit =
        runBlocking {
            val runtimes = CountingRuntimes { ScriptedEngine(namesJaneAndMrn, TRUSTING) }
            val seen = mutableListOf<RedactState>()

            val end = session(runtimes).redact(fakePage(), whitePage(800, 320), "model", seen::add)

            val done = assertInstanceOf(RedactState.Done::class.java, end)
            assertEquals(Status.PASS, done.status)
            assertEquals("Verified: nothing readable left.", done.stage)
            assertEquals(done.redaction.boxes, done.boxes)
            assertEquals(2, done.boxes.size)
            assertEquals(emptyList<String>(), done.review)
            assertEquals("scripted", done.backend)
            // Idle is never reported: a run starts by reading.
            assertEquals(RedactState.Reading, seen.first())
            assertEquals(listOf(RedactState.LoadingModel(), RedactState.LoadingModel("scripted")), seen.subList(1, 3))
            val redacting = seen.drop(3).dropLast(1)
            assertTrue(redacting.isNotEmpty() && redacting.all { it is RedactState.Redacting }, "$redacting")
            assertEquals(done.boxes.toSet(), (redacting.last() as RedactState.Redacting).boxes.toSet())
            assertTrue(redacting.any { it.stage.startsWith("Step 2/4") }, redacting.map { it.stage }.toString())
            assertEquals(done, seen.last())
        }

    @Test
    fun `a model that never measured its validator ends NEEDS_REVIEW with the reason to show`(): Unit =
        runBlocking {
            val end = session(CountingRuntimes { ScriptedEngine(namesJaneAndMrn) }).redact(fakePage(), whitePage(800, 320), "model")

            val done = assertInstanceOf(RedactState.Done::class.java, end)
            assertEquals(Status.NEEDS_REVIEW, done.status)
            assertEquals("NEEDS REVIEW: not verified.", done.stage)
            assertTrue(done.review.any { "not been measured" in it }, done.review.toString())
            assertEquals(2, done.redaction.burn.size, "a run that needs review still burns its boxes")
        }

    @Test
    fun `a run that ends ERROR fails NOT_REDACTED with nothing to burn`(): Unit =
        runBlocking {
            // The detector has no reply: the engine fails inside the run, the report says ERROR.
            val end = session(CountingRuntimes { ScriptedEngine(mapOf(Step.CLASSIFY to listOf(classified))) }).redact(fakePage(), whitePage(800, 320), "model")

            val failed = assertInstanceOf(RedactState.Failed::class.java, end)
            assertEquals(Failure.NOT_REDACTED, failed.failure)
            assertEquals("Not redacted.", failed.stage)
            assertTrue(failed.message.startsWith("Not redacted: ") && "no reply left" in failed.message, failed.message)
            assertEquals(emptyList<PixelBounds>(), checkNotNull(failed.redaction).burn)
        }

    @Test
    fun `a model that cannot load fails ENGINE, and the next run tries to load it again`(): Unit =
        runBlocking {
            var attempts = 0
            val runtimes =
                CountingRuntimes {
                    attempts++
                    if (attempts == 1) throw EngineException("could not load model on any backend (GPU: X; CPU: Y)")
                    ScriptedEngine(namesJaneAndMrn, TRUSTING)
                }
            val session = session(runtimes)

            val first = session.redact(fakePage(), whitePage(800, 320), "model")
            val second = session.redact(fakePage(), whitePage(800, 320), "model")

            val failed = assertInstanceOf(RedactState.Failed::class.java, first)
            assertEquals(Failure.ENGINE, failed.failure)
            assertEquals("The model could not run: could not load model on any backend (GPU: X; CPU: Y)", failed.message)
            assertNull(failed.redaction)
            assertEquals(Status.PASS, (second as RedactState.Done).status)
            assertEquals(1, runtimes.ocrOpened, "the OCR that opened for the first run is kept")
        }

    @Test
    fun `OCR that cannot open fails OCR before any model is loaded`(): Unit =
        runBlocking {
            val runtimes = CountingRuntimes(ocrFails = true) { ScriptedEngine(namesJaneAndMrn, TRUSTING) }
            val seen = mutableListOf<RedactState>()

            session(runtimes).redact(fakePage(), whitePage(800, 320), "model", seen::add)

            assertEquals(RedactState.Reading, seen.first())
            val failed = assertInstanceOf(RedactState.Failed::class.java, seen.last())
            assertEquals(Failure.OCR, failed.failure)
            assertEquals("OCR failed: could not load PP-OCRv6_det_small.onnx", failed.message)
            assertEquals(2, seen.size)
            assertEquals(0, runtimes.enginesOpened)
        }

    @Test
    fun `runtimes open once, the model again only for another choice, and each closes once`(): Unit =
        runBlocking {
            val twice = namesJaneAndMrn.mapValues { (_, replies) -> replies + replies }
            val runtimes = CountingRuntimes { ScriptedEngine(twice, TRUSTING) }
            val session = session(runtimes)

            repeat(2) { session.redact(fakePage(), whitePage(800, 320), "first") }
            assertEquals(listOf("first"), runtimes.opened)
            session.redact(fakePage(), whitePage(800, 320), "second")

            assertEquals(listOf("first", "second"), runtimes.opened)
            assertEquals(listOf("first"), runtimes.closed, "the first model is closed when the second is asked for")
            assertEquals(1, runtimes.ocrOpened)
            assertEquals(1, runtimes.nerOpened)
            session.close()
            assertEquals(listOf("first", "second"), runtimes.closed)
            assertEquals(1, runtimes.ocrClosed)
            assertEquals(1, runtimes.nerClosed)
            session.close()
            assertEquals(listOf("first", "second"), runtimes.closed, "closing twice closes nothing twice")
            assertEquals(1 to 1, runtimes.ocrClosed to runtimes.nerClosed)
        }

    @Test
    fun `closing the model before a new file is picked frees it, and the next run opens it again`(): Unit =
        runBlocking {
            val runtimes = CountingRuntimes { ScriptedEngine(namesJaneAndMrn, TRUSTING) }
            val session = session(runtimes)
            session.redact(fakePage(), whitePage(800, 320), "model")

            session.closeModel()
            session.redact(fakePage(), whitePage(800, 320), "model")

            assertEquals(listOf("model", "model"), runtimes.opened)
            assertEquals(listOf("model"), runtimes.closed)
        }

    @Test
    fun `each thrown error is the failure the screen names`() {
        val cases =
            listOf(
                OcrException("no models") to (Failure.OCR to "OCR failed: no models"),
                EngineException("busy") to (Failure.ENGINE to "The model could not run: busy"),
                IOException("could not load the NER model's tokenizer.json") to (Failure.FILE to "could not load the NER model's tokenizer.json"),
                IOException() to (Failure.FILE to "Could not read or write a file."),
                OutOfMemoryError() to
                    (Failure.MEMORY to "Not enough memory for this photo; try a smaller one. Nothing was redacted or saved."),
                UnsatisfiedLinkError("libonnxruntime.so") to
                    (Failure.NATIVE_LIBRARY to "A runtime library could not be loaded on this device (UnsatisfiedLinkError)."),
                IllegalStateException("x") to
                    (Failure.UNEXPECTED to "Something went wrong (IllegalStateException); nothing was redacted or saved."),
            )
        for ((error, expected) in cases) {
            val failed = Failure.of(error)
            assertEquals(expected, failed.failure to failed.message, error.toString())
            assertEquals("Not redacted.", failed.stage)
        }
    }

    @Test
    fun `a session that has not run is idle`() {
        assertEquals("Ready: tap Redact.", RedactState.Idle.stage)
        assertEquals("Loading the model…", RedactState.LoadingModel("GPU").stage)
    }

    private fun session(runtimes: CountingRuntimes): RedactSession<String> =
        RedactSession(runtimes.runtimes, lexicon = LexiconFolder.files, rules = RuleDetector.NONE)
}
