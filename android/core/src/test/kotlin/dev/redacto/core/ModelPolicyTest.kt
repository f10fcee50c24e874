package dev.redacto.core

import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * [runPipeline] applies the model's manifest itself and runs the rules by default, as Python's
 * `run_pipeline` does (tests/pipeline/test_policy.py holds the same cases).
 */
class ModelPolicyTest {
    private val page =
        Document.fromElements(
            listOf("Patient", "Jane", "Smith", "compound", "fracture").mapIndexed { i, word ->
                Element(i, word, Box(10.0 * i, 0.0, 10.0 * i + 8, 10.0))
            },
        )

    /** Finds the name in the reading its manifest asks for (redacto-270m reads the page as
     *  text), and its validator then says PASS. */
    private fun passingEngine(uri: String): ScriptedEngine =
        ScriptedEngine(
            mapOf(
                Step.CLASSIFY to listOf("CATEGORY: Medical"),
                Step.DETECT to listOf(if ("redacto-270m" in uri) "NAME: Jane Smith" else "1:NAME\n2:NAME"),
                Step.VALIDATE to listOf("PASS"),
            ),
            ModelIdentity(uri = uri, name = uri.substringAfterLast('/')),
        )

    @Test
    fun `the api cannot pass a run whose model manifest distrusts its validator`(): Unit =
        runBlocking {
            val report = runPipeline(page, passingEngine("litertlm:/sdcard/redacto-270m-int8.litertlm")).report
            assertEquals(Verdict.PASS, report.validatorVerdict)
            assertEquals(Status.NEEDS_REVIEW, report.status)
            assertEquals(listOf(ReviewReason.PASS_NOT_TRUSTED), report.reviewReasons)
        }

    @Test
    fun `a caller can be stricter than the manifest, never looser`(): Unit =
        runBlocking {
            val trusting = PipelineOptions(trustValidatorPass = true)
            val distrusting = PipelineOptions(trustValidatorPass = false)
            val untrusted = "litertlm:redacto-270m-int4.litertlm"
            val trusted = "litertlm:/sdcard/gemma-3-270m-int8.litertlm"
            assertEquals(Status.NEEDS_REVIEW, runPipeline(page, passingEngine(untrusted), options = trusting).report.status)
            assertEquals(Status.NEEDS_REVIEW, runPipeline(page, passingEngine(trusted), options = distrusting).report.status)
            assertEquals(Status.PASS, runPipeline(page, passingEngine(trusted), options = trusting).report.status)
            assertEquals(Status.PASS, runPipeline(page, passingEngine("scripted:x.json")).report.status)
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
    fun `the manifest's image reading and redact call reach the run, a caller's own choice is kept`(): Unit =
        runBlocking {
            fun engine(detect: String) =
                ScriptedEngine(
                    mapOf(Step.CLASSIFY to listOf("CATEGORY: Medical"), Step.DETECT to listOf(detect), Step.VALIDATE to listOf("PASS")),
                    ModelIdentity(uri = "litertlm:/sdcard/redacto-270m-int8.litertlm", name = "redacto-270m-int8.litertlm"),
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
                    mapOf(Step.CLASSIFY to listOf("CATEGORY: Medical"), Step.DETECT to listOf("NAME: Tom"), Step.VALIDATE to listOf("PASS")),
                    ModelIdentity(uri = "litertlm:redacto-270m-int8.litertlm", name = "redacto-270m-int8.litertlm"),
                )
            val result = runPipeline(text, noRedactCall)
            assertEquals("Seen with her son [NAME_1].", result.redactedText)
            assertTrue(noRedactCall.requests.none { it.step == Step.REDACT })
        }
}
