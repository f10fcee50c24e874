package dev.redacto.core.pipeline

import dev.redacto.core.Box
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.ReviewReason
import dev.redacto.core.Source
import dev.redacto.core.Status
import dev.redacto.core.Step
import dev.redacto.core.UnexplainedWord
import dev.redacto.core.Verdict
import dev.redacto.core.WordKind
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.lexicon.LexiconFolder
import dev.redacto.core.modelfile.ImageReading
import dev.redacto.core.modelfile.PipelineSettings
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * The residual check inside a run ([ResidualCheck]): what the shared pipeline vectors cannot
 * show — a run without dictionaries, and where an image-mode word stands (element, box, page).
 */
class PipelineResidualTest {
    /** `Wiik` is missed by the model and by the validator; the dictionary does not know it. */
    private val page =
        Document.fromElements(
            listOf("Patient", "Jane", "Wiik", "compound", "fracture").mapIndexed { i, word ->
                Element(i, word, Box(10.0 * i, 0.0, 10.0 * i + 8, 10.0))
            },
        )

    private fun engine(): ScriptedEngine =
        ScriptedEngine(
            mapOf(
                Step.CLASSIFY to listOf("CATEGORY: Medical"),
                Step.DETECT to listOf("1:NAME"),
                Step.VALIDATE to listOf("PASS"),
            ),
            PipelineSettings(trustValidatorPass = true, imageReading = ImageReading.INDEXED),
        )

    private val options = PipelineOptions(rules = false)

    @Test
    fun `a run given no dictionaries never ends PASS`(): Unit =
        runBlocking {
            val report = runPipeline(page, engine(), options = options).report
            assertEquals(Verdict.PASS, report.validatorVerdict)
            assertEquals(Status.NEEDS_REVIEW, report.status)
            assertEquals(listOf(ReviewReason.NO_LEXICON), report.reviewReasons)
            assertEquals(null, report.language)
        }

    @Test
    fun `an unexplained word names its element, box and page, and strict redacts it`(): Unit =
        runBlocking {
            val report = runPipeline(page, engine(), options = options, lexicon = LexiconFolder.files).report
            assertEquals(Status.NEEDS_REVIEW, report.status)
            assertEquals(listOf(ReviewReason.UNEXPLAINED_WORDS), report.reviewReasons)
            assertEquals("en", report.language)
            assertEquals(
                listOf(UnexplainedWord("Wiik", WordKind.CAPITALISED, index = 2, box = Box(20.0, 0.0, 28.0, 10.0))),
                report.unexplained,
            )

            val strictEngine =
                ScriptedEngine(
                    mapOf(
                        Step.CLASSIFY to listOf("CATEGORY: Medical"),
                        Step.DETECT to listOf("1:NAME"),
                        Step.VALIDATE to listOf("PASS", "PASS"),
                    ),
                    PipelineSettings(trustValidatorPass = true, imageReading = ImageReading.INDEXED),
                )
            val strict = runPipeline(page, strictEngine, options = options.copy(strict = true), lexicon = LexiconFolder.files).report
            assertEquals(Status.PASS, strict.status)
            assertEquals(2, strict.rounds)
            assertEquals(listOf(Source.DETECT, Source.LEXICON), strict.detections.map { it.source })
            assertEquals(listOf(1, 2), strict.detections.map { it.index })
            assertEquals(2, strict.boxes.size)
        }
}
