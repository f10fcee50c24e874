package dev.redacto.core.pipeline

import dev.redacto.core.Box
import dev.redacto.core.Category
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.Mode
import dev.redacto.core.ModelIdentity
import dev.redacto.core.ReviewReason
import dev.redacto.core.RunReport
import dev.redacto.core.Status
import dev.redacto.core.Step
import dev.redacto.core.TRUSTING
import dev.redacto.core.UnexplainedWord
import dev.redacto.core.Verdict
import dev.redacto.core.WordKind
import dev.redacto.core.describeReasons
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.lexicon.LexiconFolder
import dev.redacto.core.rules.Rules
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/** Boxes appear as rules and detector lines arrive, and the count is always the boxes drawn. */
class LiveBoxesTest {
    private val words = listOf("Patient", "Jane", "Doe", "MRN", "4471-22", "email", "jane@example.com")
    private val document =
        Document.fromElements(
            words.mapIndexed { i, text -> Element(index = i, text = text, box = Box(10.0 * i, 0.0, 10.0 * i + 8, 12.0)) },
            imageSize = 100 to 20,
        )

    @Test
    fun `boxes stream in from rules, detector and validator and end as the burned boxes`(): Unit =
        runBlocking {
            val engine =
                ScriptedEngine(
                    mapOf(
                        Step.CLASSIFY to listOf("DOCUMENT_TYPE: Patient record\nCATEGORY: Medical"),
                        Step.DETECT to listOf("1:NAME\n"),
                        Step.VALIDATE to listOf("FAIL\n2:NAME\n", "PASS"),
                    ),
                    TRUSTING,
                )
            val live = LiveBoxes(document)
            val drawnAtEachStep = mutableListOf<Int>()
            val lines = mutableListOf<String>()
            val result =
                runPipeline(document, engine, rules = live.rules(Rules.DETECTOR), lexicon = LexiconFolder.files) { event ->
                    live.onEvent(event)
                    drawnAtEachStep.add(live.count)
                    lines.add(event.describe())
                }
            // The MRN and e-mail rules fire before the model answers; the detector's name, then the validator's follow.
            val box = { i: Int -> checkNotNull(document.elements[i].box) }
            assertEquals(setOf(box(4), box(6)), live.boxes.take(2).toSet())
            assertEquals(listOf(box(1), box(2)), live.boxes.drop(2))
            assertEquals(drawnAtEachStep.sorted(), drawnAtEachStep)
            assert("Step 2/4: Detecting Medical identifiers… 3 found" in lines) { lines }
            live.finish(result.boxes)
            assertEquals(Verdict.PASS, result.report.validatorVerdict)
            // What stays readable is explained (`MRN` names a field, Reason.LABEL): PASS.
            assertEquals(Status.PASS, result.report.status)
            assertEquals(emptyList<String>(), result.report.unexplained.map { it.value })
            assertEquals(result.boxes, live.boxes)
            assertEquals(result.report.countShown, live.count)
            assertEquals(4, live.count)
        }
}

class ReviewTextTest {
    @Test
    fun `burned pixels cover a box rounded outward and stay inside the image`() {
        assertEquals(PixelBounds(9, 0, 19, 13), pixelBounds(Box(9.5, -2.0, 18.2, 12.01), 100, 50))
        assertEquals(PixelBounds(90, 40, 100, 50), pixelBounds(Box(90.0, 40.0, 130.0, 70.0), 100, 50))
    }

    @Test
    fun `a review lists the validator's items with their words, then the reasons`() {
        val document = Document.fromElements(listOf(Element(0, "MRN"), Element(1, "4471-22")))
        val report =
            RunReport(
                status = Status.NEEDS_REVIEW,
                mode = Mode.IMAGE,
                category = Category.MEDICAL,
                validatorMissed = listOf("1:MRN", "9:NAME"),
                reviewReasons = listOf(ReviewReason.STILL_FAILING),
                model = ModelIdentity(uri = "scripted:", name = "scripted"),
            )
        assertEquals(listOf("1:MRN (4471-22)", "9:NAME", "validator still failing after the last round"), reviewItems(report, document))
    }

    @Test
    fun `a review lists the words no reader could explain first, and counts them in the reason`() {
        val document = Document.fromElements(listOf(Element(0, "Ask"), Element(1, "Wiik"), Element(2, "PSC")))
        val report =
            RunReport(
                status = Status.NEEDS_REVIEW,
                mode = Mode.IMAGE,
                category = Category.GENERAL,
                validatorMissed = listOf("0:NAME"),
                reviewReasons = listOf(ReviewReason.UNEXPLAINED_WORDS),
                unexplained =
                    listOf(
                        UnexplainedWord("Wiik", WordKind.CAPITALISED, index = 1),
                        UnexplainedWord("PSC", WordKind.CAPITALISED, index = 2),
                    ),
                model = ModelIdentity(uri = "scripted:", name = "scripted"),
            )
        assertEquals(
            listOf("to check: Wiik", "to check: PSC", "0:NAME (Ask)", "2 words no reader could explain"),
            reviewItems(report, document),
        )
        assertEquals(listOf("1 word no reader could explain"), describeReasons(report.copy(unexplained = report.unexplained.take(1))))
    }
}
