package dev.redacto.core.pipeline

import com.google.gson.JsonArray
import com.google.gson.JsonElement
import com.google.gson.JsonNull
import com.google.gson.JsonObject
import com.google.gson.JsonPrimitive
import dev.redacto.core.Box
import dev.redacto.core.Category
import dev.redacto.core.Detection
import dev.redacto.core.Document
import dev.redacto.core.Element
import dev.redacto.core.Fields
import dev.redacto.core.Mode
import dev.redacto.core.Step
import dev.redacto.core.Vectors
import dev.redacto.core.asArrayStrict
import dev.redacto.core.asBoolStrict
import dev.redacto.core.asDoubleStrict
import dev.redacto.core.asIntStrict
import dev.redacto.core.asObjectStrict
import dev.redacto.core.asStringStrict
import dev.redacto.core.engines.ScriptedEngine
import dev.redacto.core.lexicon.LexiconFolder
import dev.redacto.core.modelfile.ImageReading
import dev.redacto.core.modelfile.PipelineSettings
import dev.redacto.core.ner.NerDetector
import dev.redacto.core.ner.nerDetections
import dev.redacto.core.rules.Rules
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.TestFactory
import java.io.File
import java.util.concurrent.atomic.AtomicInteger

/**
 * Every golden vector in tests/vectors/pipeline runs through the Kotlin pipeline and is
 * checked field by field, exactly as tests/pipeline/pipeline_vectors.py checks Python's — and
 * stricter: a key this runner does not know fails the vector instead of being skipped, so a
 * vector changed for one language only cannot pass silently here.
 */
class PipelineVectorTest {
    @TestFactory
    fun `pipeline vectors`(): List<DynamicTest> =
        FILES.map { file ->
            DynamicTest.dynamicTest(file.nameWithoutExtension) {
                RAN.incrementAndGet()
                runVector(file)
            }
        }

    companion object {
        private val FILES: List<File> = Vectors.files("pipeline")
        private val RAN = AtomicInteger()
        private val TOP_KEYS =
            setOf(
                "name",
                "description",
                "mode",
                "text",
                "elements",
                "generated_elements",
                "replies",
                "rules",
                "strict",
                "language",
                "category",
                "chunk_size",
                "trust_validator_pass",
                "image_reading",
                "model_redact",
                "detectors",
                "ner",
                "expect",
            )

        @JvmStatic
        @AfterAll
        fun `every pipeline vector file ran`() {
            assertTrue(FILES.isNotEmpty(), "no pipeline vectors found under ${Vectors.root}")
            assertEquals(FILES.size, RAN.get(), "pipeline vectors run vs files")
        }
    }

    private fun runVector(file: File): Unit =
        runBlocking {
            val raw = Vectors.load(file)
            raw.onlyKeys(TOP_KEYS)
            assertEquals(file.nameWithoutExtension, raw.string("name"), "name must equal the file name")
            raw.string("description")
            // `trust_validator_pass` is the model's own setting: the script declares it as a built
            // file's sealed policy would (the caller's options leave it to the model).
            val declared =
                PipelineSettings(trustValidatorPass = if (raw.has("trust_validator_pass")) raw.bool("trust_validator_pass") else true)
            val engine = ScriptedEngine(replies(raw), declared, uri = "scripted:${file.nameWithoutExtension}")
            val options =
                PipelineOptions(
                    rules = if (raw.has("rules")) raw.bool("rules") else false,
                    category = if (raw.has("category")) category(raw.string("category")) else null,
                    chunkSize = if (raw.has("chunk_size")) raw.int("chunk_size") else CHUNK_SIZE,
                    imageReading =
                        if (raw.has("image_reading")) ImageReading.fromWire(raw.string("image_reading")) else ImageReading.INDEXED,
                    modelRedact = if (raw.has("model_redact")) raw.bool("model_redact") else true,
                    detectors =
                        if (raw.has("detectors")) {
                            Detector.parseList(raw.array("detectors").joinToString(",") { it.asStringStrict("detectors") })
                        } else {
                            Detector.LIBRARY
                        },
                    strict = if (raw.has("strict")) raw.bool("strict") else false,
                    language = raw.stringOrNull("language"),
                )
            val document = vectorDocument(raw)
            val ner = if (raw.has("ner")) TableNer(raw.obj("ner")) else null
            val result = runPipeline(document, engine, options = options, rules = Rules.DETECTOR, ner = ner, lexicon = LexiconFolder.files)
            val expect = raw.obj("expect")
            if (expect.has("page_text")) assertEquals(expect.string("page_text"), PageText.of(document.elements).text, "page_text")
            check(expect, result, engine)
        }

    private fun category(label: String): Category =
        checkNotNull(Category.fromLabel(label)) { "unknown category '$label'; one of ${Category.entries.map { it.label }}" }

    private fun replies(raw: Fields): Map<Step, List<String>> {
        if (!raw.has("replies")) return emptyMap()
        val replies = raw.obj("replies")
        return replies.keys().associate { key ->
            Step.fromWire(key) to replies.array(key).mapIndexed { i, reply -> reply.asStringStrict("replies.$key[$i]") }
        }
    }

    private fun vectorDocument(raw: Fields): Document {
        if (Mode.fromWire(raw.string("mode")) == Mode.TEXT) return Document.fromText(raw.string("text"))
        val entries: List<Pair<String, Box?>> =
            if (raw.has("generated_elements")) {
                val generated = raw.obj("generated_elements")
                generated.onlyKeys(setOf("count"))
                (0 until generated.int("count")).map { i -> "w$i" to Box(10.0 * i, 0.0, 10.0 * i + 8, 10.0) }
            } else {
                raw.array("elements").mapIndexed { i, element ->
                    val entry = Fields(element.asObjectStrict("elements[$i]"), "elements[$i]")
                    entry.onlyKeys(setOf("text", "box"))
                    val box = entry.rawOrNull("box")?.takeUnless { it.isJsonNull }?.asArrayStrict("elements[$i].box")
                    entry.string("text") to
                        box?.let { corners -> corners.map { it.asDoubleStrict("box") }.let { Box(it[0], it[1], it[2], it[3]) } }
                }
            }
        return Document.fromElements(entries.mapIndexed { index, (text, box) -> Element(index, text, box) })
    }

    private fun check(
        expect: Fields,
        result: PipelineResult,
        engine: ScriptedEngine,
    ) {
        val report = result.report
        for (step in Step.entries) assertEquals(0, engine.remaining(step), "${step.wire}: scripted replies left unused")
        if (expect.has("status")) assertEquals(expect.string("status"), report.status.name, "status")
        if (expect.has("category")) assertEquals(expect.string("category"), report.category.label, "category")
        if (expect.has("document_type")) assertEquals(expect.string("document_type"), report.documentType, "document_type")
        if (expect.has("classify_fallback")) assertEquals(expect.bool("classify_fallback"), report.classifyFallback, "classify_fallback")
        if (expect.has("category_given")) assertEquals(expect.bool("category_given"), report.categoryGiven, "category_given")
        if (expect.has("rounds")) assertEquals(expect.int("rounds"), report.rounds, "rounds")
        if (expect.has("count_shown")) assertEquals(expect.int("count_shown"), report.countShown, "count_shown")
        if (expect.has("redact_fallback")) assertEquals(expect.bool("redact_fallback"), report.redactFallback, "redact_fallback")
        if (expect.has("validator_missed")) {
            assertEquals(
                expect.array("validator_missed").map { it.asStringStrict("validator_missed") },
                report.validatorMissed,
                "validator_missed",
            )
        }
        if (expect.has("validator_verdict")) {
            assertEquals(expect.stringOrNull("validator_verdict"), report.validatorVerdict?.name, "validator_verdict")
        }
        if (expect.has("detections")) checkDetections("detections", expect.array("detections"), report.detections)
        if (expect.has("not_located")) checkDetections("not_located", expect.array("not_located"), report.notLocated)
        if (expect.has("boxes")) {
            val expected = expect.array("boxes").map { box -> box.asArrayStrict("boxes").map { it.asDoubleStrict("boxes") } }
            assertEquals(expected, report.boxes.map { it.asList() }, "boxes")
        }
        if (expect.has("placeholders")) {
            val elements = checkNotNull(result.redactedElements) { "placeholders expected but no redacted elements" }
            val placeholders = expect.obj("placeholders")
            val expected = placeholders.keys().associateWith { placeholders.string(it) }
            assertEquals(expected, expected.keys.associateWith { elements[it.toInt()].text }, "placeholders")
        }
        if (expect.has("redacted_text")) assertEquals(expect.stringOrNull("redacted_text"), result.redactedText, "redacted_text")
        if (expect.has(
                "parse_errors",
            )
        ) {
            assertEquals(expect.int("parse_errors"), report.parseErrors.size, "parse_errors: ${report.parseErrors}")
        }
        if (expect.has("parse_error_reasons")) {
            val expected = expect.array("parse_error_reasons").map { it.asStringStrict("parse_error_reasons") }
            assertEquals(expected, report.parseErrors.map { it.reason.wire }, "parse_error_reasons")
        }
        if (expect.has("review_reasons")) {
            val expected = expect.array("review_reasons").map { it.asStringStrict("review_reasons") }
            assertEquals(expected, report.reviewReasons.map { it.wire }, "review_reasons")
        }
        if (expect.has("step_chunks")) {
            val stepChunks = expect.obj("step_chunks")
            for (step in stepChunks.keys()) {
                val expected = stepChunks.array(step).map { if (it.isJsonNull) null else it.asIntStrict("step_chunks.$step") }
                assertEquals(expected, report.steps.filter { it.step.wire == step }.map { it.chunk }, "step_chunks.$step")
            }
        }
        if (expect.has("step_stopped")) {
            val stepStopped = expect.obj("step_stopped")
            for (step in stepStopped.keys()) {
                val expected = stepStopped.array(step).map { it.asBoolStrict("step_stopped.$step") }
                val calls = report.steps.filter { it.step == Step.fromWire(step) }
                assertEquals(expected, calls.map { it.stopped }, "step_stopped.$step")
            }
        }
        if (expect.has("step_count")) assertEquals(expect.int("step_count"), report.steps.size, "step_count")
        if (expect.has("validated_documents")) {
            val expected = expect.array("validated_documents").map { it.asStringStrict("validated_documents") }
            val seen = engine.requests.filter { it.step == Step.VALIDATE }.map { documentBlock(it.user) }
            assertEquals(expected, seen, "validated_documents")
        }
        if (expect.has("unexplained")) {
            val expected = expect.array("unexplained").map { it.asStringStrict("unexplained") }
            assertEquals(expected, report.unexplained.map { it.value }, "unexplained")
        }
        if (expect.has("unexplained_count")) assertEquals(expect.int("unexplained_count"), report.unexplained.size, "unexplained_count")
        expect.allRead()
        // Invariants every run keeps.
        if (report.mode == Mode.IMAGE) assertEquals(report.boxes.size, report.countShown, "count shown must equal boxes drawn")
        assertEquals(report.parseErrors.size, report.steps.sumOf { it.parseErrors }, "per-step parse error counts")
    }

    /** What a text-mode prompt's user message holds between `<document>` and `</document>`. */
    private fun documentBlock(user: String): String =
        user.substring(user.indexOf("<document>\n") + "<document>\n".length, user.lastIndexOf("\n</document>"))

    private fun checkDetections(
        key: String,
        expected: List<JsonElement>,
        actual: List<Detection>,
    ) {
        assertEquals(expected.size, actual.size, "$key: $actual")
        expected.zip(actual).forEachIndexed { i, (wanted, detection) ->
            val wantedObject = wanted.asObjectStrict("$key[$i]")
            val got = detectionJson(detection)
            for ((field, value) in wantedObject.entrySet()) {
                assertTrue(got.has(field), "$key[$i]: unknown detection field '$field'")
                assertTrue(sameJson(value, got.get(field)), "$key[$i].$field: expected $value, got ${got.get(field)} in $detection")
            }
        }
    }

    /** The detection as Python's `model_dump(mode="json")` writes it. */
    private fun detectionJson(detection: Detection): JsonObject =
        JsonObject().apply {
            addProperty("label", detection.label)
            addProperty("source", detection.source.wire)
            addProperty("round", detection.round)
            add("index", detection.index?.let { JsonPrimitive(it) } ?: JsonNull.INSTANCE)
            add("value", detection.value?.let { JsonPrimitive(it) } ?: JsonNull.INSTANCE)
            add(
                "span",
                detection.span?.let { span ->
                    JsonObject().apply {
                        addProperty("start", span.start)
                        addProperty("end", span.end)
                    }
                }
                    ?: JsonNull.INSTANCE,
            )
        }
}

/** JSON equality with numbers compared by value (1 == 1.0), as Python compares them. */
fun sameJson(
    a: JsonElement,
    b: JsonElement,
): Boolean =
    when {
        a.isJsonNull || b.isJsonNull -> {
            a.isJsonNull && b.isJsonNull
        }

        a.isJsonPrimitive && b.isJsonPrimitive -> {
            val x = a.asJsonPrimitive
            val y = b.asJsonPrimitive
            if (x.isNumber && y.isNumber) x.asBigDecimal.compareTo(y.asBigDecimal) == 0 else x == y
        }

        a.isJsonArray && b.isJsonArray -> {
            val x: JsonArray = a.asJsonArray
            val y: JsonArray = b.asJsonArray
            x.size() == y.size() && (0 until x.size()).all { sameJson(x[it], y[it]) }
        }

        a.isJsonObject && b.isJsonObject -> {
            a.asJsonObject.keySet() == b.asJsonObject.keySet() &&
                a.asJsonObject.keySet().all { sameJson(a.asJsonObject[it], b.asJsonObject[it]) }
        }

        else -> {
            false
        }
    }

/**
 * A NER tier that answers from a vector's table: for each exact text it may be asked about, the
 * spans `[start, end, label]` it reports (code points). Image mode asks about each page's lines,
 * as [NerTier] reads them. A text not in the table fails the vector: the table
 * pins every text the tier reads, the second opinion's masked outputs included.
 */
internal class TableNer(
    private val table: Fields,
) : NerDetector {
    private fun spans(text: String): List<Triple<Int, Int, String>> {
        check(table.has(text)) { "the NER tier read a text the vector does not list: '$text'" }
        return table.array(text).map { raw ->
            val entry = raw.asArrayStrict("ner")
            Triple(entry[0].asIntStrict("ner"), entry[1].asIntStrict("ner"), entry[2].asStringStrict("ner"))
        }
    }

    override fun find(
        document: Document,
        category: Category,
        allowedLabels: Collection<String>,
    ): List<Detection> = nerDetections(document, ::spans)
}
