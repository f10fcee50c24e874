package dev.redacto.core.session

import dev.redacto.core.Status
import dev.redacto.core.Step
import dev.redacto.core.TRUSTING
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.imaging.PhotoPixels
import dev.redacto.core.lexicon.LexiconFolder
import dev.redacto.core.ocr.RgbImage
import dev.redacto.core.ocr.WHITE
import dev.redacto.core.ocr.fakePage
import dev.redacto.core.ocr.whitePage
import dev.redacto.core.pipeline.PixelBounds
import dev.redacto.core.rules.RuleDetector
import kotlinx.coroutines.CoroutineExceptionHandler
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import kotlinx.coroutines.job
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.IOException
import java.util.Collections
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit

/**
 * The app's view model without Android: [RedactScreen] on core's fakes (a scripted engine, the
 * fake OCR page `Patient Jane / MRN 12345 / Ward 7`, a NER tier that finds nothing) and a
 * platform whose pictures are plain pixel arrays. Each test drives the screen as the user does
 * and reads what the screen shows once every action has settled.
 */
class RedactScreenTest {
    private val classified = "DOCUMENT_TYPE: Patient record\nCATEGORY: Medical"
    private val namesJaneAndMrn =
        mapOf(
            Step.CLASSIFY to listOf(classified),
            Step.DETECT to listOf("1:NAME\n3:MRN\n"),
            Step.VALIDATE to listOf("PASS"),
        )
    private val uncaught: MutableList<Throwable> = Collections.synchronizedList(mutableListOf())
    private val scope =
        CoroutineScope(
            SupervisorJob() + Dispatchers.Default +
                CoroutineExceptionHandler {
                    _,
                    error,
                    ->
                    uncaught.add(error)
                },
        )

    @Test
    fun `the stored model shows at start, and a photo opens ready to redact`() {
        val platform = PaperPlatform(stored = MODEL)
        val screen = screen(platform, CountingRuntimes { ScriptedEngine(namesJaneAndMrn, TRUSTING) })
        settle()
        assertEquals(MODEL, screen.ui.value.model)
        assertEquals(ScreenState.START, screen.ui.value.stage)

        screen.onPhoto(PHOTO)
        settle()

        val ui = screen.ui.value
        assertSame(platform.photos.getValue(PHOTO), ui.photo)
        assertEquals(400 to 160, ui.preview?.width to ui.preview?.height)
        assertEquals("Ready: tap Redact.", ui.stage)
        assertEquals(MODEL, ui.model)
        assertFalse(ui.busy)
        assertNull(ui.error)
    }

    @Test
    fun `a PASS run burns exactly the report's boxes into a copy, which saves as a new file`() {
        val platform = PaperPlatform(stored = MODEL)
        val screen = screen(platform, CountingRuntimes { ScriptedEngine(namesJaneAndMrn, TRUSTING) })
        screen.redactPhoto()

        val ui = screen.ui.value
        assertEquals(Status.PASS, ui.status)
        assertEquals("Verified: nothing readable left.", ui.stage)
        assertEquals(2, ui.boxes.size)
        assertEquals("scripted", ui.backend)
        val redacted = checkNotNull(ui.redacted)
        assertEquals(platform.burned.single(), redacted)
        assertTrue(redacted.argb.count { it == BLACK } > 0, "the burned copy has black boxes")
        assertTrue(ui.photo!!.argb.all { it == WHITE }, "the photo itself is never drawn on")

        screen.save()
        settle()
        assertEquals("content://saved/0", screen.ui.value.saved)
        assertEquals("Saved to Pictures/Redacto.", screen.ui.value.stage)
        assertSame(redacted, platform.saved.single())
    }

    @Test
    fun `a run that needs review lists why and still burns its boxes`() {
        val screen = screen(PaperPlatform(stored = MODEL), CountingRuntimes { ScriptedEngine(namesJaneAndMrn) })
        screen.redactPhoto()

        val ui = screen.ui.value
        assertEquals(Status.NEEDS_REVIEW, ui.status)
        assertEquals("NEEDS REVIEW: not verified.", ui.stage)
        assertTrue(ui.review.any { "not been measured" in it }, ui.review.toString())
        assertEquals(2, ui.boxes.size)
        assertNotNull(ui.redacted)
    }

    @Test
    fun `a run that ends ERROR shows no boxes and offers nothing to save`() {
        val platform = PaperPlatform(stored = MODEL)
        val screen = screen(platform, CountingRuntimes { ScriptedEngine(mapOf(Step.CLASSIFY to listOf(classified))) })
        screen.redactPhoto()
        screen.save()
        settle()

        val ui = screen.ui.value
        assertEquals(Status.ERROR, ui.status)
        assertEquals("Not redacted.", ui.stage)
        assertTrue(ui.error!!.startsWith("Not redacted: "), ui.error)
        assertEquals(emptyList<Any>(), ui.boxes)
        assertNull(ui.redacted)
        assertNull(ui.saved)
        assertEquals(emptyList<RgbImage>(), platform.saved)
    }

    @Test
    fun `no memory for the burned copy claims nothing redacted`() {
        val platform = PaperPlatform(stored = MODEL, burnFails = OutOfMemoryError("no memory for the burned copy"))
        val screen = screen(platform, CountingRuntimes { ScriptedEngine(namesJaneAndMrn, TRUSTING) })
        screen.redactPhoto()

        val ui = screen.ui.value
        assertEquals("Not enough memory for this photo; try a smaller one. Nothing was redacted or saved.", ui.error)
        assertEquals(emptyList<Any>(), ui.boxes, "the boxes drawn during the run are taken back")
        assertNull(ui.status)
        assertNull(ui.redacted)
        assertFalse(ui.busy)
    }

    @Test
    fun `without a photo Redact does nothing, without a model it says so`() {
        val runtimes = CountingRuntimes { ScriptedEngine(namesJaneAndMrn, TRUSTING) }
        val screen = screen(PaperPlatform(stored = null), runtimes)
        settle()

        screen.redact()
        settle()
        assertNull(screen.ui.value.error)
        screen.opened(PHOTO)
        screen.redact()
        settle()

        assertEquals("Choose the model file first.", screen.ui.value.error)
        assertEquals(0, runtimes.ocrOpened + runtimes.enginesOpened)
    }

    @Test
    fun `while one action runs every other is ignored`() {
        val (platform, runtimes, screen, gate) = runHeldAtTheBurn()

        assertTrue(screen.ui.value.busy)
        screen.redact()
        screen.onPhoto(OTHER_PHOTO)
        screen.onModelPicked("other.litertlm")
        gate.countDown()
        settle()

        val ui = screen.ui.value
        assertEquals(listOf(MODEL), runtimes.opened)
        assertSame(platform.photos.getValue(PHOTO), ui.photo)
        assertEquals(MODEL, ui.model)
        assertEquals(Status.PASS, ui.status)
        assertFalse(ui.busy)
    }

    @Test
    fun `a failing platform call is shown, loses nothing and frees the screen`() {
        val platform = PaperPlatform(stored = MODEL)
        val screen = screen(platform, CountingRuntimes { ScriptedEngine(namesJaneAndMrn, TRUSTING) })
        screen.opened(PHOTO)

        screen.onPhoto("missing.jpg")
        settle()

        val ui = screen.ui.value
        assertEquals("cannot open missing.jpg", ui.error)
        assertSame(platform.photos.getValue(PHOTO), ui.photo, "the photo already open stays")
        assertFalse(ui.busy)
        screen.redact()
        settle()
        assertEquals(Status.PASS, screen.ui.value.status)
        assertNull(screen.ui.value.error, "the next action clears the last error")
    }

    @Test
    fun `a stored model that cannot be read is shown as an error, never thrown into the scope`() {
        val screen =
            screen(
                PaperPlatform(stored = MODEL, storedFails = IOException("model.litertlm: I/O error")),
                CountingRuntimes { error("never opened") },
            )
        settle()

        assertEquals("model.litertlm: I/O error", screen.ui.value.error)
        assertNull(screen.ui.value.model)
        assertEquals(emptyList<Throwable>(), uncaught)
    }

    @Test
    fun `picking a model closes the one open first, and the next run opens the new one`() {
        val twice = namesJaneAndMrn.mapValues { (_, replies) -> replies + replies }
        val runtimes = CountingRuntimes { ScriptedEngine(twice, TRUSTING) }
        val screen = screen(PaperPlatform(stored = MODEL), runtimes)
        screen.redactPhoto()

        screen.onModelPicked("other.litertlm")
        settle()
        assertEquals(listOf(MODEL), runtimes.closed)
        assertEquals("other.litertlm", screen.ui.value.model)
        assertNull(screen.ui.value.backend)
        assertEquals("Model ready.", screen.ui.value.stage)
        screen.onModelPicked("notes.txt")
        settle()
        assertEquals("notes.txt is not a model file", screen.ui.value.error)
        assertEquals("other.litertlm", screen.ui.value.model, "a refused file leaves the model as it was")
        screen.redact()
        settle()

        assertEquals(listOf(MODEL, "other.litertlm"), runtimes.opened)
        assertEquals(Status.PASS, screen.ui.value.status)
    }

    @Test
    fun `closing waits for the run under way, then closes every runtime once`() {
        val (_, runtimes, screen, gate) = runHeldAtTheBurn()

        scope.cancel()
        val closing = screen.close()
        Thread.sleep(200)
        assertEquals(emptyList<String>(), runtimes.closed, "nothing is closed under a running job")
        assertFalse(closing.isCompleted)
        gate.countDown()
        runBlocking { closing.join() }

        assertEquals(listOf(MODEL), runtimes.closed)
        assertEquals(1 to 1, runtimes.ocrClosed to runtimes.nerClosed)
    }

    private fun screen(
        platform: PaperPlatform,
        runtimes: CountingRuntimes,
    ): RedactScreen<RgbImage, String, String> =
        RedactScreen(platform, RedactSession(runtimes.runtimes, lexicon = LexiconFolder.files, rules = RuleDetector.NONE), scope)

    private fun RedactScreen<RgbImage, String, String>.opened(photo: String) {
        settle()
        onPhoto(photo)
        settle()
        assertNull(ui.value.error)
    }

    /** A screen, its platform and runtimes, and the gate that holds its run of [PHOTO] at the burn. */
    private data class HeldRun(
        val platform: PaperPlatform,
        val runtimes: CountingRuntimes,
        val screen: RedactScreen<RgbImage, String, String>,
        val gate: CountDownLatch,
    )

    /** Starts a PASS run of [PHOTO] and returns once it is held inside the burn. */
    private fun runHeldAtTheBurn(): HeldRun {
        val gate = CountDownLatch(1)
        val platform = PaperPlatform(stored = MODEL, burnGate = gate)
        val runtimes = CountingRuntimes { ScriptedEngine(namesJaneAndMrn, TRUSTING) }
        val screen = screen(platform, runtimes)
        screen.opened(PHOTO)
        screen.redact()
        assertTrue(platform.burning.await(30, TimeUnit.SECONDS), "the run reaches the burn")
        return HeldRun(platform, runtimes, screen, gate)
    }

    /** Opens [PHOTO], redacts it and waits for the run to end. */
    private fun RedactScreen<RgbImage, String, String>.redactPhoto() {
        opened(PHOTO)
        redact()
        settle()
    }

    /** Waits for every action launched so far, and those they launch, to end. */
    private fun settle() =
        runBlocking {
            while (true) {
                val running =
                    scope.coroutineContext.job.children
                        .toList()
                if (running.isEmpty()) break
                running.joinAll()
            }
        }

    /**
     * Pictures are pixel arrays; photos are white pages at twice the fake OCR page's size. A
     * model file is any name ending `.litertlm`. [burnGate] holds the burn until it opens.
     */
    private class PaperPlatform(
        val stored: String?,
        val storedFails: Throwable? = null,
        val burnFails: Throwable? = null,
        val burnGate: CountDownLatch? = null,
    ) : ScreenPlatform<RgbImage, String, String> {
        val photos = mapOf(PHOTO to whitePage(800, 320), OTHER_PHOTO to whitePage(800, 320))
        val burned: MutableList<RgbImage> = Collections.synchronizedList(mutableListOf())
        val saved: MutableList<RgbImage> = Collections.synchronizedList(mutableListOf())
        val burning = CountDownLatch(1)

        override val saveFolder: String = "Pictures/Redacto"

        override fun currentModel(): String? = storedFails?.let { throw it } ?: stored

        override fun importModel(from: String): String =
            if (from.endsWith(".litertlm")) from else throw IOException("$from is not a model file")

        override fun openPhoto(from: String): RgbImage = photos[from] ?: throw IOException("cannot open $from")

        override fun preview(photo: RgbImage): RgbImage = whitePage(photo.width / 2, photo.height / 2)

        override fun workingCopy(photo: RgbImage): RgbImage = fakePage()

        override fun pixels(photo: RgbImage): PhotoPixels = photo

        override fun burn(
            photo: RgbImage,
            bounds: List<PixelBounds>,
        ): RgbImage {
            burning.countDown()
            burnGate?.await(30, TimeUnit.SECONDS)
            burnFails?.let { throw it }
            val pixels = photo.argb.copyOf()
            for (box in bounds) for (y in box.top until box.bottom) for (x in box.left until box.right) pixels[y * photo.width + x] = BLACK
            return RgbImage(photo.width, photo.height, pixels).also { burned.add(it) }
        }

        override fun save(picture: RgbImage): String = "content://saved/${saved.size}".also { saved.add(picture) }
    }

    private companion object {
        const val MODEL = "redacto-270m.litertlm"
        const val PHOTO = "page.jpg"
        const val OTHER_PHOTO = "other.jpg"
        val BLACK = 0xff000000.toInt()
    }
}
