package dev.redacto.core.modelfile

import dev.redacto.core.Box
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.PolicyState
import dev.redacto.core.ReviewReason
import dev.redacto.core.Source
import dev.redacto.core.Status
import dev.redacto.core.Step
import dev.redacto.core.Verdict
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.lexicon.LexiconFolder
import dev.redacto.core.pipeline.PipelineOptions
import dev.redacto.core.pipeline.detect
import dev.redacto.core.pipeline.forModel
import dev.redacto.core.pipeline.runPipeline
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * [runPipeline] applies the settings the model itself carries ([LlmEngine.settings]) and runs
 * the rules by default, as Python's `run_pipeline` does (tests/pipeline/test_policy.py holds the
 * same cases). Nothing is read from a name: a model states its settings or gets none.
 */
class ModelPolicyTest {
    private val page =
        Document.fromElements(
            listOf("Patient", "Jane", "Smith", "compound", "fracture").mapIndexed { i, word ->
                Element(i, word, Box(10.0 * i, 0.0, 10.0 * i + 8, 10.0))
            },
        )

    /** What redacto-270m's sealed policy says: its validator was measured and is not trusted. */
    private val measuredUntrusted = PipelineSettings(trustValidatorPass = false, imageReading = ImageReading.TEXT, modelRedact = false)
    private val measuredTrusted = PipelineSettings(trustValidatorPass = true)

    /** Finds the name in the reading its [settings] ask for, and its validator then says PASS; null: it declares none. */
    private fun passingEngine(
        settings: PipelineSettings?,
        uri: String = "scripted:<memory>",
    ): ScriptedEngine =
        ScriptedEngine(
            mapOf(
                Step.CLASSIFY to listOf("CATEGORY: Medical"),
                Step.DETECT to listOf(if (settings?.imageReading == ImageReading.TEXT) "NAME: Jane Smith" else "1:NAME\n2:NAME"),
                Step.VALIDATE to listOf("PASS"),
            ),
            settings,
            uri,
        )

    @Test
    fun `the api cannot pass a run whose model distrusts its validator`(): Unit =
        runBlocking {
            val report = runPipeline(page, passingEngine(measuredUntrusted), lexicon = LexiconFolder.files).report
            assertEquals(Verdict.PASS, report.validatorVerdict)
            assertEquals(Status.NEEDS_REVIEW, report.status)
            assertEquals(listOf(ReviewReason.PASS_NOT_TRUSTED), report.reviewReasons)
        }

    @Test
    fun `a model with no policy cannot end PASS, and the report says why`(): Unit =
        runBlocking {
            val report = runPipeline(page, passingEngine(null), lexicon = LexiconFolder.files).report
            assertEquals(Verdict.PASS, report.validatorVerdict)
            assertEquals(Status.NEEDS_REVIEW, report.status)
            assertEquals(listOf(ReviewReason.MODEL_NOT_MEASURED), report.reviewReasons)
            assertEquals(PolicyState.ABSENT, report.model.policy)
        }

    @Test
    fun `a caller can be stricter than the model, never looser`(): Unit =
        runBlocking {
            val trusting = PipelineOptions(trustValidatorPass = true)
            val distrusting = PipelineOptions(trustValidatorPass = false)
            assertEquals(
                Status.NEEDS_REVIEW,
                runPipeline(page, passingEngine(measuredUntrusted), options = trusting, lexicon = LexiconFolder.files).report.status,
            )
            assertEquals(
                Status.NEEDS_REVIEW,
                runPipeline(page, passingEngine(measuredTrusted), options = distrusting, lexicon = LexiconFolder.files).report.status,
            )
            assertEquals(
                Status.PASS,
                runPipeline(page, passingEngine(measuredTrusted), options = trusting, lexicon = LexiconFolder.files).report.status,
            )
        }

    @Test
    fun `the uri and name an engine has decide nothing`(): Unit =
        runBlocking {
            // Named like a built file whose manifest trusts its validator: it declares nothing, so it is unknown.
            val report =
                runPipeline(
                    page,
                    passingEngine(null, uri = "litertlm:/anywhere/gemma-3-270m-int8.litertlm"),
                    lexicon = LexiconFolder.files,
                ).report
            assertEquals(Status.NEEDS_REVIEW, report.status)
            assertEquals(listOf(ReviewReason.MODEL_NOT_MEASURED), report.reviewReasons)
        }

    @Test
    fun `the fail-closed defaults trust no PASS, and the phone cannot keep a scored trust`() {
        assertEquals(false, PipelineSettings().trustValidatorPass)
        val scored = PipelineSettings(trustValidatorPass = true, validatorVerdict = ValidatorVerdict.SCORED, passMargin = 1.5)
        assertEquals(PipelineSettings(), phoneSettings(scored))
        val engine = ScriptedEngine(emptyMap(), scored)
        assertEquals(false, PipelineOptions().forModel(engine).trustValidatorPass, "forModel applies the phone's rule itself")
    }

    @Test
    fun `the default run uses the shipped rules, and rules false turns them off`(): Unit =
        runBlocking {
            val withEmail =
                Document.fromElements(
                    listOf("Write", "to", "jane.smith@example.com", "today").mapIndexed { i, word ->
                        Element(i, word, Box(10.0 * i, 0.0, 10.0 * i + 8, 10.0))
                    },
                )

            fun engine() =
                ScriptedEngine(
                    mapOf(Step.CLASSIFY to listOf("CATEGORY: General"), Step.DETECT to listOf("NONE"), Step.VALIDATE to listOf("PASS")),
                )
            val byDefault = runPipeline(withEmail, engine()).report
            assertTrue(byDefault.detections.any { it.source == Source.RULE && it.index == 2 }, "${byDefault.detections}")
            val off = runPipeline(withEmail, engine(), options = PipelineOptions(rules = false)).report
            assertTrue(off.detections.isEmpty())
        }

    @Test
    fun `the model's image reading and redact call reach the run, a caller's own choice is kept`(): Unit =
        runBlocking {
            fun engine(detect: String) =
                ScriptedEngine(
                    mapOf(Step.CLASSIFY to listOf("CATEGORY: Medical"), Step.DETECT to listOf(detect), Step.VALIDATE to listOf("PASS")),
                    measuredUntrusted,
                )
            val asText = engine("NAME: Jane Smith")
            assertEquals(listOf(1, 2), runPipeline(page, asText).report.detections.map { it.index })
            assertTrue(asText.requests.none { "[0] Patient" in it.user })
            val indexed = engine("1:NAME\n2:NAME")
            val chosen = runPipeline(page, indexed, options = PipelineOptions(imageReading = ImageReading.INDEXED)).report
            assertEquals(listOf(1, 2), chosen.detections.map { it.index })
            assertTrue("[0] Patient" in indexed.requests[1].user)
            val text = Document.fromText("Seen with her son Tom.")
            val noRedactCall =
                ScriptedEngine(
                    mapOf(
                        Step.CLASSIFY to listOf("CATEGORY: Medical"),
                        Step.DETECT to listOf("NAME: Tom"),
                        Step.VALIDATE to listOf("PASS"),
                    ),
                    measuredUntrusted,
                )
            val result = runPipeline(text, noRedactCall)
            assertEquals("Seen with her son [NAME_1].", result.redactedText)
            assertTrue(noRedactCall.requests.none { it.step == Step.REDACT })
        }
}
