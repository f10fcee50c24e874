package dev.redacto.core.pipeline

import dev.redacto.core.Box
import dev.redacto.core.Category
import dev.redacto.core.Detection
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.Mode
import dev.redacto.core.Status
import dev.redacto.core.Step
import dev.redacto.core.TRUSTING
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.lexicon.LexiconFolder
import dev.redacto.core.modelfile.ImageReading
import dev.redacto.core.rules.RuleDetector
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** Step 1 and the category the user may give instead (mirrors tests/pipeline/test_run.py). */
class ClassifyTest {
    private val page =
        Document.fromElements(
            listOf("Plaintiff", "Jane", "Smith", "filed", "suit").mapIndexed { i, word ->
                Element(i, word, Box(10.0 * i, 0.0, 10.0 * i + 8, 10.0))
            },
        )

    /** The system prompt [step] renders for [category] (it does not depend on the document). */
    private fun systemPrompt(
        step: Step,
        category: Category,
    ): String {
        val template = PromptBook.BUILT_IN.template(step, Mode.IMAGE, category)
        return template.render(template.variables.associateWith { "" }).first
    }

    @Test
    fun `a category the user gives skips classify and drives detect, the rules and validate`(): Unit =
        runBlocking {
            val events = mutableListOf<ProgressEvent>()
            val ruleCategories = mutableListOf<Category>()
            val rules = RuleDetector { _, category -> emptyList<Detection>().also { ruleCategories.add(category) } }
            // No classify reply: a classify call would run the script dry and end the run in ERROR.
            val engine = ScriptedEngine(mapOf(Step.DETECT to listOf("1:NAME\n2:NAME"), Step.VALIDATE to listOf("PASS")), TRUSTING)
            val options = PipelineOptions(category = Category.LEGAL)
            val report =
                runPipeline(
                    page,
                    engine,
                    options = options,
                    rules = rules,
                    lexicon = LexiconFolder.files,
                ) { events.add(it) }.report

            assertEquals(listOf(Step.DETECT, Step.VALIDATE), engine.requests.map { it.step })
            assertEquals(systemPrompt(Step.DETECT, Category.LEGAL), engine.requests[0].system)
            assertEquals(systemPrompt(Step.VALIDATE, Category.LEGAL), engine.requests[1].system)
            // Detect's rules, then validate's second opinion reading the output: both under the given category.
            assertEquals(listOf(Category.LEGAL, Category.LEGAL), ruleCategories)
            assertEquals(Category.LEGAL, report.category)
            assertTrue(report.categoryGiven)
            assertFalse(report.classifyFallback)
            assertEquals("", report.documentType)
            assertEquals(Status.PASS, report.status)
            assertTrue(report.steps.none { it.step == Step.CLASSIFY })
            val classifyEvents = events.filter { it.step == Step.CLASSIFY }
            assertEquals(listOf(Phase.START, Phase.END), classifyEvents.map { it.phase })
            assertEquals("Step 1/4: Classifying document… Legal", classifyEvents.last().describe())
        }

    @Test
    fun `without a given category the model classifies and the report says so`(): Unit =
        runBlocking {
            val engine =
                ScriptedEngine(
                    mapOf(
                        Step.CLASSIFY to listOf("DOCUMENT_TYPE: Complaint\nCATEGORY: Legal"),
                        Step.DETECT to listOf("1:NAME\n2:NAME"),
                        Step.VALIDATE to listOf("PASS"),
                    ),
                )
            val report = runPipeline(page, engine, options = PipelineOptions(rules = false)).report

            assertEquals(listOf(Step.CLASSIFY, Step.DETECT, Step.VALIDATE), engine.requests.map { it.step })
            assertEquals(Category.LEGAL, report.category)
            assertEquals("Complaint", report.documentType)
            assertFalse(report.categoryGiven)
        }

    @Test
    fun `classify alone returns a given category without calling the model`(): Unit =
        runBlocking {
            val engine = ScriptedEngine(emptyMap())
            val context = StepContext(engine, PromptBook.BUILT_IN, PipelineOptions(category = Category.MEDICAL))
            val classification = classify(page, context)

            assertEquals(Classification(Category.MEDICAL, "", fallback = false, given = true), classification)
            assertTrue(engine.requests.isEmpty())
            assertTrue(context.traces.isEmpty())
        }

    @Test
    fun `a page read as text is shown as its lines to every step`(): Unit =
        runBlocking {
            val twoLines =
                Document.fromElements(
                    listOf(
                        Element(0, "Patient:", Box(0.0, 0.0, 40.0, 10.0)),
                        Element(1, "Jane", Box(45.0, 0.0, 65.0, 10.0)),
                        Element(2, "Clinic", Box(0.0, 20.0, 30.0, 30.0)),
                    ),
                )
            val engine =
                ScriptedEngine(
                    mapOf(
                        Step.CLASSIFY to listOf("DOCUMENT_TYPE: note\nCATEGORY: Medical"),
                        Step.DETECT to listOf("NAME: Jane"),
                        Step.VALIDATE to listOf("PASS"),
                    ),
                )
            val options = PipelineOptions(rules = false, imageReading = ImageReading.TEXT)
            val report = runPipeline(twoLines, engine, options = options).report
            assertEquals(listOf(1), report.detections.map { it.index })
            val (classify, detect, validate) = engine.requests
            val textPrompt = PromptBook.BUILT_IN.template(Step.DETECT, Mode.TEXT, Category.MEDICAL)
            assertEquals(textPrompt.render(textPrompt.variables.associateWith { "" }).first, detect.system)
            assertTrue("Patient: Jane\nClinic" in classify.user)
            assertTrue("Patient: Jane\nClinic" in detect.user)
            assertTrue("Patient: [NAME_1]\nClinic" in validate.user)
            assertTrue(engine.requests.none { "[0]" in it.user })
        }
}
