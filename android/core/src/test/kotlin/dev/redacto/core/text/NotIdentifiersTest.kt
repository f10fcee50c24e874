package dev.redacto.core.text

import dev.redacto.core.Box
import dev.redacto.core.Category
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.Fields
import dev.redacto.core.RejectReason
import dev.redacto.core.Source
import dev.redacto.core.Step
import dev.redacto.core.Vectors
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.modelfile.ImageReading
import dev.redacto.core.ner.NerLabels
import dev.redacto.core.pipeline.IndexItem
import dev.redacto.core.pipeline.LineRejected
import dev.redacto.core.pipeline.PipelineOptions
import dev.redacto.core.pipeline.PipelineResult
import dev.redacto.core.pipeline.TextItem
import dev.redacto.core.pipeline.rejectedAs
import dev.redacto.core.pipeline.runPipeline
import dev.redacto.core.pipeline.trimmedItem
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Test
import java.io.File

/**
 * Values that identify no one under any label, and the greetings cut from a NAME: the tables of
 * Python's tests/text/test_not_identifiers.py, the lists and patterns equal to Python's
 * (`tools/redacto/text/not_identifiers.py`, tests/vectors/text/regex.json), and detect and validate
 * through the pipeline with a scripted model (Python's tests/pipeline/test_detections.py).
 */
class NotIdentifiersTest {
    private val tools = File(Vectors.root, "../../tools/redacto")

    @Test
    fun `a time of day and nothing else`() {
        val times = listOf("11:15.", "7:45 pm", "9 am.", "14h30", "19 h", "9 A.M.")
        val others = listOf("10:61", "25:00", "2025", "3", "à 14h30")
        times.forEach { assertEquals(true, NotIdentifiers.isTimeOfDay(it), it) }
        others.forEach { assertEquals(false, NotIdentifiers.isTimeOfDay(it), it) }
    }

    @Test
    fun `an amount and nothing else, nine digits at most`() {
        val amounts = listOf("671 EUR", "€1339", "870,00 €", "\$80.84", "£1568", "USD 25", "1\u202f250,00\u00a0€", "EUR 123456789")
        val others = listOf("1065 EUR from X", "EUR 1234567890", "132,00", "EUR")
        amounts.forEach { assertEquals(true, NotIdentifiers.isAmountValue(it), it) }
        others.forEach { assertEquals(false, NotIdentifiers.isAmountValue(it), it) }
        assertEquals(false, NotIdentifiers.identifiesNoOne(null))
        assertEquals(false, NotIdentifiers.identifiesNoOne("Jane Smith"))
    }

    @Test
    fun `a greeting is cut from a name, and only from a name`() {
        val table =
            listOf(
                "Coucou Thérèse," to "Thérèse,",
                "Hi Gina" to "Gina",
                "Dear John Smith" to "John Smith",
                "Bonjour, Madame Dupont" to "Madame Dupont",
                "Hello dear Anna" to "Anna",
                "Mrs. Chen" to "Mrs. Chen",
                "De Sousa" to "De Sousa",
                "BRITTANY LE" to "BRITTANY LE",
                "Hi" to "Hi",
            )
        for ((value, trimmed) in table) assertEquals(trimmed, NotIdentifiers.withoutOpeners("NAME", value), value)
        assertEquals("Dear Street 5", NotIdentifiers.withoutOpeners("ADDRESS", "Dear Street 5"))
    }

    @Test
    fun `why a named item stands for nothing`() {
        assertEquals(RejectReason.NOT_AN_IDENTIFIER, rejectedAs(TextItem("ADDRESS", "11:15.")))
        assertEquals(RejectReason.NOT_AN_IDENTIFIER, rejectedAs(TextItem("ACCOUNT", "671 EUR")))
        assertEquals(RejectReason.NOT_A_NAME, rejectedAs(TextItem("NAME", "My")))
        assertEquals(null, rejectedAs(TextItem("NAME", "Thérèse")))
        assertEquals(RejectReason.NOT_AN_IDENTIFIER, rejectedAs(IndexItem(1, "SSN"), listOf("Tax:", "£1568")))
        assertEquals(null, rejectedAs(IndexItem(5, "DATE"), listOf("14h30")))
        assertEquals(null, rejectedAs(LineRejected("x", RejectReason.JUNK)))
        val item = TextItem("NAME", "Jane Smith")
        assertSame(item, trimmedItem(item))
        assertEquals(TextItem("NAME", "Thérèse"), trimmedItem(TextItem("NAME", "Coucou Thérèse")))
        assertEquals(IndexItem(0, "NAME"), trimmedItem(IndexItem(0, "NAME")))
    }

    @Test
    fun `the currencies and greetings are Python's, and the NER tier reads the same currencies`() {
        val source = File(tools, "text/not_identifiers.py").readText()
        fun pythonSet(name: String): Set<String> {
            val block = source.substringAfter("$name = frozenset(").substringBefore(")\n")
            return Regex("\"([^\"]*)\"").findAll(block).map { it.groupValues[1] }.toSet()
        }
        assertEquals(pythonSet("CURRENCIES"), NotIdentifiers.CURRENCIES)
        assertEquals(pythonSet("NAME_OPENERS"), NotIdentifiers.NAME_OPENERS)
        assertEquals(Regex("""MAX_AMOUNT_DIGITS = (\d+)""").find(source)?.groupValues?.get(1), "${NotIdentifiers.MAX_AMOUNT_DIGITS}")
        assertSame(NotIdentifiers.CURRENCIES, NerLabels.CURRENCIES)
    }

    @Test
    fun `the patterns are Python's, as tests vectors text regex json holds them`() {
        val cases = Vectors.load(File(Vectors.root, "text/regex.json")).array("cases").map { Fields(it.asJsonObject, "regex") }
        fun pattern(description: String) = cases.single { it.string("description") == description }.string("pattern")
        assertEquals(pattern("A time of day."), NotIdentifiers.TIME_SOURCE)
        assertEquals(pattern("An amount."), NotIdentifiers.AMOUNT_SOURCE)
    }

    @Test
    fun `every reject reason is Python's, in order`() {
        val report = File(tools, "report.py").readText()
        val block = report.substringAfter("class RejectReason(StrEnum):").substringBefore("\nclass ")
        val wires = Regex("""^ {4}[A-Z_]+ = "([^"]+)"""", RegexOption.MULTILINE).findAll(block).map { it.groupValues[1] }.toList()
        assertEquals(wires, RejectReason.entries.map { it.wire })
    }

    private val text = "Coucou Thérèse, the meeting is at 11:15. The fee is 671 EUR."
    private val detect = "ADDRESS: 11:15.\nACCOUNT: 671 EUR\nNAME: Coucou Thérèse"
    private val rejected = listOf("ADDRESS: 11:15." to RejectReason.NOT_AN_IDENTIFIER, "ACCOUNT: 671 EUR" to RejectReason.NOT_AN_IDENTIFIER)
    private val options = PipelineOptions(category = Category.FINANCIAL, modelRedact = false, maxRounds = 1)

    private fun page(): Document =
        Document.fromElements(text.split(" ").mapIndexed { i, word -> Element(i, word, Box(i * 10.0, 0.0, i * 10.0 + 8, 10.0)) })

    private fun run(
        document: Document,
        detectReply: String,
        validateReply: String,
        runOptions: PipelineOptions = options,
    ): PipelineResult =
        runBlocking {
            val engine = ScriptedEngine(mapOf(Step.DETECT to listOf(detectReply), Step.VALIDATE to listOf(validateReply)))
            runPipeline(document, engine, options = runOptions)
        }

    private fun PipelineResult.rejections() = report.parseErrors.map { it.line to it.reason }

    @Test
    fun `detect drops a time and an amount and cuts the greeting, text mode`() {
        val result = run(Document.fromText(text), detect, "PASS")
        assertEquals(listOf("NAME" to "Thérèse"), result.report.detections.map { it.label to it.value })
        assertEquals(rejected, result.rejections())
        assertEquals("Coucou [NAME_1], the meeting is at 11:15. The fee is 671 EUR.", result.redactedText)
    }

    @Test
    fun `validate drops a time and an amount and cuts the greeting, text mode`() {
        val result = run(Document.fromText(text), "NONE", "FAIL\n$detect")
        assertEquals(listOf(Triple("NAME", "Thérèse", Source.VALIDATE)), result.report.detections.map { Triple(it.label, it.value, it.source) })
        assertEquals(rejected, result.rejections())
        assertEquals(detect.lines(), result.report.validatorMissed)
    }

    @Test
    fun `a page read as text loses the greeting on its elements`() {
        val result = run(page(), detect, "PASS", options.copy(imageReading = ImageReading.TEXT))
        assertEquals(listOf(1 to "Thérèse"), result.report.detections.map { it.index to it.value })
        assertEquals(rejected, result.rejections())
        assertEquals(1, result.boxes.size)
    }

    @Test
    fun `an indexed element that is a whole time is dropped, a bare number stays`() {
        val result = run(page(), "6:ADDRESS\n10:ACCOUNT\n1:NAME", "PASS", options.copy(imageReading = ImageReading.INDEXED))
        assertEquals(listOf(10, 1), result.report.detections.map { it.index })
        assertEquals(listOf("6:ADDRESS" to RejectReason.NOT_AN_IDENTIFIER), result.rejections())
    }
}
