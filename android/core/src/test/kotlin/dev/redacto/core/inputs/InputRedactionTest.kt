package dev.redacto.core.inputs

import dev.redacto.core.Box
import dev.redacto.core.Category
import dev.redacto.core.Element
import dev.redacto.core.Mode
import dev.redacto.core.RunReport
import dev.redacto.core.Status
import dev.redacto.core.Step
import dev.redacto.core.TRUSTING
import dev.redacto.core.Verdict
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.imaging.coverInk
import dev.redacto.core.lexicon.LexiconFolder
import dev.redacto.core.ocr.FakePpOcrModels
import dev.redacto.core.ocr.PpOcrReader
import dev.redacto.core.ocr.RgbImage
import dev.redacto.core.ocr.fakePage
import dev.redacto.core.pipeline.LiveBoxes
import dev.redacto.core.pipeline.PipelineResult
import dev.redacto.core.pipeline.PixelBounds
import dev.redacto.core.pipeline.pixelBounds
import dev.redacto.core.rules.RuleDetector
import dev.redacto.core.rules.Rules
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** A read photo redacted in memory: what is burned, in which pixels, and what the report says. */
class InputRedactionTest {
    private val classified = "DOCUMENT_TYPE: Patient record\nCATEGORY: Medical"

    /** Words with boxes off whole pixels, on a 100×20 photo. */
    private val photo =
        ImageInput.withWords(
            listOf(
                Element(0, "Patient", Box(1.5, 2.2, 30.0, 14.0)),
                Element(1, "Jane", Box(32.4, 2.6, 50.2, 14.1)),
                Element(2, "jane@example.com", Box(52.0, 2.0, 99.5, 14.0)),
            ),
            paper(100, 20),
        )

    /** "Patient Jane" on a 300×30 photo; the detector names Jane, the validator says PASS. */
    private val patientJane = listOf(Element(0, "Patient", Box(5.0, 10.0, 40.0, 20.0)), Element(1, "Jane", Box(50.0, 10.0, 80.0, 20.0)))
    private val namesJane = mapOf(Step.CLASSIFY to listOf(classified), Step.DETECT to listOf("1:NAME\n"), Step.VALIDATE to listOf("PASS"))

    @Test
    fun `a run burns its boxes in whole pixels of the full-size photo that OCR read a smaller copy of`(): Unit =
        runBlocking {
            // OCR reads the 400×160 working copy of an 800×320 photo.
            val reader = PpOcrReader(FakePpOcrModels())
            val input = ImageInput.read(fakePage(), paper(800, 320), reader)
            val engine =
                ScriptedEngine(
                    mapOf(
                        Step.CLASSIFY to listOf(classified),
                        Step.DETECT to listOf("1:NAME\n3:MRN\n"),
                        Step.VALIDATE to listOf("PASS"),
                    ),
                    TRUSTING,
                )

            val redaction = redact(input, engine, rules = RuleDetector.NONE, lexicon = LexiconFolder.files)

            assertEquals(Verdict.PASS, redaction.report.validatorVerdict)
            // `MRN`, a word no dictionary knows, names a field (Reason.LABEL): nothing is left to check.
            assertEquals(Status.PASS, redaction.report.status)
            assertEquals(emptyList<String>(), redaction.report.unexplained.map { it.value })
            assertEquals(listOf("Jane", "12345"), listOf(1, 3).map { input.document.elements[it].text })
            val working = PpOcrReader(FakePpOcrModels()).read(fakePage())
            val photoBoxes = listOf(1, 3).map { checkNotNull(working[it].box).let { b -> Box(b.x0 * 2, b.y0 * 2, b.x1 * 2, b.y1 * 2) } }
            assertEquals(photoBoxes, redaction.boxes)
            assertEquals(photoBoxes.map { pixelBounds(it, 800, 320) }, redaction.burn)
            assertTrue(redaction.burn.any { it.right > 400 }, "the MRN lies beyond the working copy's width")
            assertEquals(reader.name, redaction.report.ocr)
            assertEquals(800 to 320, input.document.imageSize)
        }

    @Test
    fun `a run that needs review still burns every box its detections map to, rounded outward`(): Unit =
        runBlocking {
            val engine =
                ScriptedEngine(
                    mapOf(
                        Step.CLASSIFY to listOf(classified),
                        Step.DETECT to listOf("1:NAME\n"),
                        Step.VALIDATE to listOf("FAIL\n"),
                    ),
                )

            val redaction = redact(photo, engine)

            assertEquals(Status.NEEDS_REVIEW, redaction.report.status)
            assertEquals(
                setOf(1, 2),
                redaction.report.detections
                    .map { it.index }
                    .toSet(),
            )
            assertEquals(setOf(PixelBounds(32, 2, 51, 15), PixelBounds(52, 2, 100, 14)), redaction.burn.toSet())
            assertEquals(redaction.boxes.size, redaction.burn.size)
            assertNull(redaction.report.ocr, "words read elsewhere name no OCR")
        }

    @Test
    fun `an ERROR run burns nothing, whatever was drawn while it ran`(): Unit =
        runBlocking {
            // The e-mail rule fires, then the detector has no answer: the engine fails.
            val engine = ScriptedEngine(mapOf(Step.CLASSIFY to listOf(classified)))
            val live = LiveBoxes(photo.document)

            val redaction = redact(photo, engine, rules = live.rules(Rules.DETECTOR), onEvent = { live.onEvent(it) })

            assertEquals(Status.ERROR, redaction.report.status)
            assertTrue("no reply left" in redaction.report.error.orEmpty(), redaction.report.error)
            assertEquals(listOf(photo.document.elements[2].box), live.boxes)
            assertEquals(emptyList<Box>(), redaction.boxes)
            assertEquals(emptyList<PixelBounds>(), redaction.burn)
        }

    @Test
    fun `an ERROR result claims no redaction even when it holds boxes`() {
        val report =
            RunReport(status = Status.ERROR, mode = Mode.IMAGE, category = Category.GENERAL, model = ScriptedEngine(emptyMap()).identity)
        val box = checkNotNull(photo.document.elements[1].box)

        val redaction = finish(photo, PipelineResult(report, redactedText = "Patient [NAME_1]", boxes = listOf(box)))

        assertEquals(emptyList<PixelBounds>(), redaction.burn)
        assertEquals(Status.ERROR, redaction.report.status)
    }

    @Test
    fun `a box that cuts a word is burned over the rest of the word, and the report keeps the box`(): Unit =
        runBlocking {
            // "Jane" is ink in columns 50..95, its box ends at 80: the box cuts it.
            val photo = inked(300, 30, 50..95)
            val input = ImageInput.withWords(patientJane, photo)
            val engine = ScriptedEngine(namesJane, TRUSTING)

            val redaction = redact(input, engine, rules = RuleDetector.NONE, lexicon = LexiconFolder.files)

            assertEquals(Status.PASS, redaction.report.status)
            assertEquals(listOf(Box(50.0, 10.0, 80.0, 20.0)), redaction.boxes)
            // Past the last ink column (95) by the rim column, as Python's cover_ink widens it.
            assertEquals(listOf(PixelBounds(50, 10, 97, 20)), redaction.burn)
            assertEquals(coverInk(photo, redaction.boxes).boxes.map { pixelBounds(it, 300, 30) }, redaction.burn)
        }

    @Test
    fun `a box that cuts ink running on past any word ends the run ERROR with nothing to burn`(): Unit =
        runBlocking {
            // A rule through the words from column 50 to 290: 12 box heights (120 px) do not reach its end.
            val photo = inked(300, 30, 50..290)
            val input = ImageInput.withWords(patientJane, photo)
            val engine = ScriptedEngine(namesJane)

            val redaction = redact(input, engine, rules = RuleDetector.NONE)

            assertEquals(Status.ERROR, redaction.report.status)
            assertEquals(emptyList<PixelBounds>(), redaction.burn)
            assertEquals(
                "1 box(es) cut ink that runs on past where a word could end, so a part of a value could stay readable; no image was written",
                redaction.report.error,
            )
            // As in Python, the run's record stays: its boxes, its text and why it needed review.
            assertEquals(listOf(Box(50.0, 10.0, 80.0, 20.0)), redaction.boxes)
            assertEquals("Patient [NAME_1]", redaction.redactedText)
            assertTrue(redaction.report.reviewReasons.isNotEmpty(), "the untrusted PASS's review reason is kept")
        }

    @Test
    fun `words read elsewhere are numbered in order and must lie inside the photo`() {
        val words = listOf(Element(7, "MRN", Box(0.0, 0.0, 10.0, 5.0)), Element(3, "4471-22", Box(12.0, 0.0, 40.0, 5.0)))
        val input = ImageInput.withWords(words, paper(40, 5))
        assertEquals(listOf(0, 1), input.document.elements.map { it.index })
        assertEquals(Mode.IMAGE, input.document.mode)

        val outside = words + Element(2, "Ward", Box(38.0, 0.0, 41.0, 5.0))
        val error = assertThrows(IllegalArgumentException::class.java) { ImageInput.withWords(outside, paper(40, 5)) }
        assertEquals("element 2: box lies outside the image", error.message)
        assertThrows(IllegalArgumentException::class.java) { ImageInput.withWords(listOf(Element(0, "Ward")), paper(40, 5)) }
    }

    /** A white [width]×[height] photo. */
    private fun paper(
        width: Int,
        height: Int,
    ): RgbImage = RgbImage(width, height, IntArray(width * height) { WHITE })

    /** A white photo with black ink in [columns] of rows 12..18 (a word's glyphs, or a rule). */
    private fun inked(
        width: Int,
        height: Int,
        columns: IntRange,
    ): RgbImage {
        val photo = paper(width, height)
        for (y in 12..18) for (x in columns) photo.argb[y * width + x] = BLACK
        return photo
    }

    private companion object {
        const val WHITE = -1
        const val BLACK = 0xff shl 24
    }
}
