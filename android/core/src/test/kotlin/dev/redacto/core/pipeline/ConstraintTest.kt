package dev.redacto.core.pipeline

import dev.redacto.core.Category
import dev.redacto.core.Document
import dev.redacto.core.Fields
import dev.redacto.core.Status
import dev.redacto.core.Step
import dev.redacto.core.Vectors
import dev.redacto.core.asObjectStrict
import dev.redacto.core.asStringStrict
import dev.redacto.core.engines.ChatRequest
import dev.redacto.core.engines.ConstraintUnsupportedException
import dev.redacto.core.engines.ConversationEngine
import dev.redacto.core.engines.ConversationSpec
import dev.redacto.core.engines.FakeNativeRuntime
import dev.redacto.core.engines.LlmEngine
import dev.redacto.core.engines.compileAnswerPattern
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.modelfile.ConstrainedDecoding
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory

/**
 * The reply pattern built from the page: the shared cases in tests/vectors/constraint (the
 * exact pattern Python builds, and answers it accepts or rejects in full), and its use in the
 * pipeline, as tests/pipeline/test_constrained_calls.py checks it in Python.
 */
class ConstraintTest {
    @TestFactory
    fun `answer pattern vectors`(): List<DynamicTest> =
        Vectors.files("constraint").flatMap { file ->
            val vector = Vectors.load(file)
            vector.string("name")
            vector.string("description")
            vector.array("cases").mapIndexed { i, element ->
                val case = Fields(element.asObjectStrict("cases[$i]"), "cases[$i]")
                case.onlyKeys(setOf("name", "description", "text", "labels", "shape", "pattern", "possible_labels", "accept", "reject"))
                DynamicTest.dynamicTest(case.string("name")) {
                    case.string("description")
                    val labels = case.array("labels").map { it.asStringStrict("labels") }
                    val shape = ReplyShape.entries.first { it.wire == case.string("shape") }
                    val built = answerPattern(case.string("text"), labels, shape)
                    assertEquals(case.string("pattern"), built.pattern)
                    assertEquals(case.array("possible_labels").map { it.asStringStrict("possible_labels") }, built.labels)
                    val pattern = compileAnswerPattern(built.pattern)
                    for (answer in case.array("accept").map { it.asStringStrict("accept") }) {
                        assertTrue(pattern.matcher(answer).matches(), "should accept: $answer")
                    }
                    for (answer in case.array("reject").map { it.asStringStrict("reject") }) {
                        assertFalse(pattern.matcher(answer).matches(), "should reject: $answer")
                    }
                }
            }
        }

    private val international =
        "Coucou Léa ! on se voit le 19 avril chez moi au avenue Jules Weiss, 13275 Bourgeois ? " +
            "Appelle-moi au +33 (0)2 38 64 96 20. Sinon le 3 octobre, ou en avril. Le chat dort rue. " +
            "Don't forget Peter's party on May-3!! and Sigvard\u2019s on Jul-31. The parcel was sent to " +
            "plac Kilińskiego 654, 67-583 Jawor on 12 März 2025, then to via Roma 5 (12 de mayo de " +
            "2024, 15-Mar-2024). See you in mid-May, or 3 maggio. walk the dog to Jawor."

    /** The table rows of tests/pipeline/test_constraint.py for the outside suite's international values. */
    @TestFactory
    fun `international values are writable, and their neighbours still refused`(): List<DynamicTest> {
        val pattern = compileAnswerPattern(answerPattern(international, listOf("NAME", "DATE", "PHONE", "ADDRESS"), ReplyShape.DETECT).pattern)
        val accepted =
            listOf(
                "DATE: 19 avril", "DATE: 3 octobre", "ADDRESS: avenue Jules Weiss, 13275 Bourgeois",
                "PHONE: +33 (0)2 38 64 96 20", "PHONE: +33 (0)2 38 64 96 20.", "NAME: Léa", "NAME: Peter",
                "NAME: Peter's", "NAME: Sigvard", "NAME: Sigvard\u2019s", "DATE: May-3", "DATE: Jul-31",
                "DATE: 15-Mar-2024", "DATE: 12 März 2025", "DATE: 12 de mayo de 2024", "DATE: 3 maggio",
                "ADDRESS: plac Kilińskiego 654, 67-583 Jawor", "ADDRESS: via Roma 5",
            )
        val rejected =
            listOf(
                "DATE: avril", "DATE: en avril", "DATE: 13275", "ADDRESS: moi au avenue Jules Weiss, 13275 Bourgeois",
                "ADDRESS: chat dort rue", "ADDRESS: avenue", "PHONE: +33 (0)2 38 64 96 20. Sinon le 3", "NAME: Appelle",
                "NAME: Peter party", "NAME: Peter'", "DATE: mid-May", "DATE: May", "ADDRESS: walk the dog to Jawor",
                "ADDRESS: dog to Jawor",
            )
        return accepted.map { answer ->
            DynamicTest.dynamicTest("accepts $answer") { assertTrue(pattern.matcher(answer).matches()) }
        } +
            rejected.map { answer ->
                DynamicTest.dynamicTest("rejects $answer") { assertFalse(pattern.matcher(answer).matches()) }
            }
    }

    private val text = "Patient Jane Smith, DOB 03/15/78, called from 408-555-1234 about the fracture."

    private fun run(
        setting: ConstrainedDecoding,
        engine: LlmEngine,
    ): PipelineResult =
        runBlocking {
            runPipeline(
                Document.fromText(text),
                engine,
                options = PipelineOptions(rules = false, category = Category.MEDICAL, modelRedact = false, constrainedDecoding = setting),
            )
        }

    @Test
    fun `the setting chooses the constrained steps and the trace says so`() {
        for ((setting, expected) in listOf(
            ConstrainedDecoding.OFF to listOf(false, false),
            ConstrainedDecoding.DETECT to listOf(true, false),
            ConstrainedDecoding.DETECT_VALIDATE to listOf(true, true),
        )) {
            val engine = ScriptedEngine(mapOf(Step.DETECT to listOf("NAME: Jane Smith\nPHONE: 408-555-1234"), Step.VALIDATE to listOf("PASS")))
            val result = run(setting, engine)
            assertEquals(expected, engine.requests.map { it.constraint != null }, setting.wire)
            assertEquals(expected, result.report.steps.map { it.constrained }, setting.wire)
            assertEquals(setOf("Jane Smith", "408-555-1234"), result.report.detections.map { it.value }.toSet())
        }
    }

    @Test
    fun `a reply the pattern forbids cannot be scripted, and a repeat stops the reply`() {
        val invented = run(ConstrainedDecoding.DETECT, ScriptedEngine(mapOf(Step.DETECT to listOf("NAME: Lisa"), Step.VALIDATE to listOf("PASS"))))
        assertEquals(Status.ERROR, invented.report.status)
        val looping = "NAME: Jane Smith\nPHONE: 408-555-1234\n".repeat(4)
        val result = run(ConstrainedDecoding.DETECT, ScriptedEngine(mapOf(Step.DETECT to listOf(looping), Step.VALIDATE to listOf("PASS"))))
        val detect = result.report.steps.first { it.step == Step.DETECT }
        assertTrue(detect.stopped && detect.constrained)
        assertEquals(2, result.report.detections.size)
    }

    @Test
    fun `an engine that cannot constrain runs unconstrained, and refuses a constraint`() {
        val scripted = ScriptedEngine(mapOf(Step.DETECT to listOf("NAME: Jane Smith"), Step.VALIDATE to listOf("PASS")))
        val plain =
            object : LlmEngine by scripted {
                override val supportsConstraints: Boolean get() = false
            }
        val result = run(ConstrainedDecoding.DETECT_VALIDATE, plain)
        assertTrue(scripted.requests.all { it.constraint == null })
        assertFalse(result.report.steps.any { it.constrained })
        val runtime = FakeNativeRuntime(listOf("NONE"))
        val engine = ConversationEngine(runtime)
        assertFalse(engine.supportsConstraints)
        assertThrows(ConstraintUnsupportedException::class.java) {
            runBlocking { engine.complete(ChatRequest(Step.DETECT, "", "x", constraint = "NONE")) }
        }
    }

    @Test
    fun `the conversation spec carries the pattern`() {
        assertNull(ConversationSpec.of(ChatRequest(Step.DETECT, "s", "u")).constraint)
        assertNotNull(ConversationSpec.of(ChatRequest(Step.DETECT, "s", "u", constraint = "NONE")).constraint)
    }
}
