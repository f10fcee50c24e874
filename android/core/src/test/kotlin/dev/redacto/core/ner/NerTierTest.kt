package dev.redacto.core.ner

import dev.redacto.core.Box
import dev.redacto.core.Category
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.RejectReason
import dev.redacto.core.ReviewReason
import dev.redacto.core.Source
import dev.redacto.core.Span
import dev.redacto.core.Status
import dev.redacto.core.Step
import dev.redacto.core.StepTrace
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.pipeline.Detector
import dev.redacto.core.pipeline.PipelineOptions
import dev.redacto.core.pipeline.runPipeline
import dev.redacto.core.pipeline.runs
import dev.redacto.core.prompts.PipelinePrompts
import dev.redacto.core.rules.RuleDetector
import dev.redacto.core.rules.RuleMatching
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The NER tier as the pipeline runs it, on a vector's replayed model output: detections in both
 * modes, unioned beside the rules and the model (never subtracted), tiers chosen per run, and
 * the not-a-name list applied to the model's items (Python's tests/pipeline/test_ner_tier.py).
 */
class NerTierTest {
    private val general = PipelinePrompts.categoryLabels(Category.GENERAL)

    // "Élodie Brun, 8 avenue Victor Hugo, 75016 Paris, tél. 01 45 67 89 10"
    private val contact = fakeNerTier("fr_contact")

    @Test
    fun `text mode gives one detection per span, source ner, spans in code points`() {
        val (text, tier) = contact
        val found = tier.find(Document.fromText(text), Category.GENERAL, general)
        assertEquals(
            listOf("NAME" to "Élodie Brun", "ADDRESS" to "8 avenue Victor Hugo, 75016 Paris", "PHONE" to "01 45 67 89 10"),
            found.map { it.label to it.value },
        )
        assertTrue(found.all { it.source == Source.NER && it.round == 1 })
        assertEquals(Span(0, 11), found.first().span)
    }

    @Test
    fun `image mode reads the page's words joined and marks every element a span touches`() {
        val (text, tier) = contact
        val document = Document.fromElements(text.split(" ").mapIndexed { i, word -> Element(i, word) })
        val found = tier.find(document, Category.GENERAL, general)
        assertEquals((0..7).toList() + (9..13).toList(), found.map { it.index })
        assertEquals(listOf("NAME", "NAME") + List(6) { "ADDRESS" } + List(5) { "PHONE" }, found.map { it.label })
        assertEquals("8 avenue Victor Hugo, 75016 Paris", found[2].value)
    }

    /** A photographed page: each line's words side by side, each line below the last. */
    private fun pageOfLines(vararg lines: String): List<Element> =
        lines
            .flatMapIndexed { row, line ->
                line.split(" ").mapIndexed { column, word ->
                    Element(0, word, Box(60.0 * column, 20.0 * row, 60.0 * column + 50, 20.0 * row + 12))
                }
            }.mapIndexed { index, element -> element.copy(index = index) }

    @Test
    fun `image mode reads a page as the lines of its text, so a role never vouches across a short line`() {
        // Python: test_a_page_is_read_as_its_lines_so_a_role_never_vouches_across_a_line_break.
        val lines = arrayOf("Statement taken by Officer", "Maria Lopez saw the grey van.")
        val read = mutableListOf<String>()
        val found =
            nerDetections(Document.fromElements(pageOfLines(*lines))) { text ->
                read.add(text)
                val start = text.indexOf("Maria")
                listOf(Triple(start, start + "Maria Lopez".length, "NAME"))
            }
        assertEquals(listOf(lines.joinToString("\n")), read)
        assertEquals(listOf(4, 5), found.map { it.index })
        val asText = lines.joinToString("\n")
        val start = asText.indexOf("Maria")
        assertFalse(NerLabels.hasRole(asText, start, start + 11, Category.TACTICAL, "NAME"))
        assertTrue(NerLabels.hasRole(lines.joinToString(" "), start, start + 11, Category.TACTICAL, "NAME"))
    }

    @Test
    fun `a line that wrapped at the page edge goes on, a short one breaks, words without boxes go on`() {
        // Python: test_a_line_that_wrapped_at_the_page_edge_… and test_a_page_is_joined_by_the_lines_….
        val wrapped = arrayOf("Police case opened by Det.", "Juan Cannon, badge 2868, arrived.")
        assertEquals(
            listOf(wrapped.joinToString(" ")),
            RuleMatching.joinByPage(pageOfLines(*wrapped), unwrapLines = true).map { it.text },
        )
        val short = arrayOf("INCIDENT LOG", "Statement taken by Officer", "Maria Lopez saw the grey van.")
        val page = pageOfLines(*short)
        assertEquals(listOf(short.joinToString("\n")), RuleMatching.joinByPage(page, unwrapLines = true).map { it.text })
        assertEquals(listOf(short.joinToString(" ")), RuleMatching.joinByPage(page).map { it.text })
        val unboxed = page.map { it.copy(box = null) }
        assertEquals(listOf(short.joinToString(" ")), RuleMatching.joinByPage(unboxed, unwrapLines = true).map { it.text })
    }

    @Test
    fun `a category that allows no label of an entity drops it`() {
        val (text, tier) = contact
        val found = tier.find(Document.fromText(text), Category.GENERAL, listOf("PHONE"))
        assertEquals(listOf("PHONE"), found.map { it.label })
    }

    @Test
    fun `a blank text is not read`() {
        val (_, tier) = contact
        assertEquals(emptyList<SpanHit>(), tier.findSpans(" \n ", Category.GENERAL, general))
    }

    @Test
    fun `detectors parse as the CLI writes them`() {
        assertEquals(Detector.ALL, Detector.parseList("model, ner,RULES"))
        assertThrows(IllegalArgumentException::class.java) { Detector.parseList("rules,spacy") }
        assertThrows(IllegalArgumentException::class.java) { Detector.parseList(" , ") }
        assertEquals(Detector.LIBRARY, PipelineOptions().detectors)
        assertFalse(PipelineOptions(rules = false, detectors = Detector.ALL).runs(Detector.RULES))
    }

    @Test
    fun `asking for the NER tier without one is refused`(): Unit =
        runBlocking {
            val engine = ScriptedEngine(emptyMap())
            assertThrows(IllegalArgumentException::class.java) {
                runBlocking { runPipeline(Document.fromText("x"), engine, options = PipelineOptions(detectors = Detector.ALL)) }
            }
        }

    @Test
    fun `all three tiers, each value kept by its first finder, rules then NER then the model`(): Unit =
        runBlocking {
            val (text, tier) = contact
            val engine =
                ScriptedEngine(
                    mapOf(
                        Step.CLASSIFY to listOf("DOCUMENT_TYPE: Contact\nCATEGORY: General"),
                        Step.DETECT to listOf("NAME: Élodie Brun\nNAME: Victor Hugo\n"),
                        Step.REDACT to listOf(""),
                        Step.VALIDATE to listOf("PASS"),
                    ),
                )
            val result = runPipeline(Document.fromText(text), engine, options = PipelineOptions(detectors = Detector.ALL), ner = tier)
            val report = result.report
            assertEquals(
                listOf(
                    Source.RULE to "01 45 67 89 10",
                    Source.NER to "Élodie Brun",
                    Source.NER to "8 avenue Victor Hugo, 75016 Paris",
                    Source.DETECT to "Victor Hugo",
                ),
                report.detections.map { it.source to it.value },
            )
            val redacted = checkNotNull(result.redactedText)
            assertFalse(redacted.contains("Élodie") || redacted.contains("75016"), redacted)
        }

    @Test
    fun `rules and NER without the model, no call, the given category, the hits redacted, NEEDS_REVIEW`(): Unit =
        runBlocking {
            val (text, tier) = contact
            val engine = ScriptedEngine(emptyMap())
            val options = PipelineOptions(detectors = setOf(Detector.RULES, Detector.NER), category = Category.LEGAL)
            val result = runPipeline(Document.fromText(text), engine, options = options, ner = tier)
            assertEquals(0, engine.requests.size)
            assertEquals(0, result.report.rounds)
            assertEquals(emptyList<StepTrace>(), result.report.steps)
            assertEquals(Status.NEEDS_REVIEW, result.report.status)
            assertEquals(listOf(ReviewReason.MODEL_OFF), result.report.reviewReasons)
            assertEquals(Category.LEGAL, result.report.category)
            assertTrue(result.report.categoryGiven)
            assertEquals(listOf(Source.RULE, Source.NER, Source.NER), result.report.detections.map { it.source })
            assertFalse(checkNotNull(result.redactedText).contains("Brun"))
        }

    @Test
    fun `the library default runs no NER tier, even with one given`(): Unit =
        runBlocking {
            val (text, _) = contact
            val engine = ScriptedEngine(emptyMap())
            val refuse = NerDetector { _, _, _ -> error("the NER tier ran") }
            val options = PipelineOptions(detectors = setOf(Detector.RULES), category = Category.GENERAL)
            val result = runPipeline(Document.fromText(text), engine, options = options, ner = refuse)
            assertEquals(listOf(Source.RULE), result.report.detections.map { it.source })
        }

    @Test
    fun `image mode without the model boxes every element the NER tier marks`(): Unit =
        runBlocking {
            val (text, tier) = contact
            val words = text.split(" ")
            val elements = words.mapIndexed { i, word -> Element(i, word, Box(i * 50.0, 0.0, i * 50.0 + 40, 20.0)) }
            val options = PipelineOptions(detectors = setOf(Detector.NER), category = Category.GENERAL)
            val result = runPipeline(Document.fromElements(elements), ScriptedEngine(emptyMap()), options = options, ner = tier)
            assertEquals((0..7).toList() + (9..13).toList(), result.report.detections.map { it.index })
            assertEquals(13, result.boxes.size)
            assertEquals(result.boxes.size, result.report.countShown)
        }

    @Test
    fun `a lone function word named a NAME by detect or validate is refused as not a name`(): Unit =
        runBlocking {
            val engine =
                ScriptedEngine(
                    mapOf(
                        Step.CLASSIFY to listOf("DOCUMENT_TYPE: Note\nCATEGORY: General"),
                        Step.DETECT to listOf("NAME: My\nNAME: Anna\n"),
                        Step.REDACT to listOf(""),
                        Step.VALIDATE to listOf("FAIL\nNAME: She\n"),
                    ),
                )
            val result =
                runPipeline(
                    Document.fromText("My friend Anna called. She was late."),
                    engine,
                    rules = RuleDetector.NONE,
                    options = PipelineOptions(maxRounds = 1),
                )
            assertEquals(listOf("Anna"), result.report.detections.map { it.value })
            assertEquals(
                listOf(Step.DETECT to "NAME: My", Step.VALIDATE to "NAME: She"),
                result.report.parseErrors
                    .filter { it.reason == RejectReason.NOT_A_NAME }
                    .map { it.step to it.line },
            )
        }

    @Test
    fun `image mode, an INDEX line naming a not-a-name word is refused`(): Unit =
        runBlocking {
            val document = Document.fromElements(listOf("My", "friend", "Anna").mapIndexed { i, word -> Element(i, word) })
            val engine =
                ScriptedEngine(
                    mapOf(
                        Step.CLASSIFY to listOf("DOCUMENT_TYPE: Note\nCATEGORY: General"),
                        Step.DETECT to listOf("0:NAME\n2:NAME\n"),
                        Step.VALIDATE to listOf("PASS"),
                    ),
                )
            val result = runPipeline(document, engine, rules = RuleDetector.NONE)
            assertEquals(listOf(2), result.report.detections.map { it.index })
            assertEquals(listOf(RejectReason.NOT_A_NAME), result.report.parseErrors.map { it.reason })
        }
}
