package dev.redacto.core.ner

import com.google.gson.JsonElement
import dev.redacto.core.Category
import dev.redacto.core.Fields
import dev.redacto.core.Vectors
import dev.redacto.core.asArrayStrict
import dev.redacto.core.asDoubleStrict
import dev.redacto.core.asIntStrict
import dev.redacto.core.asObjectStrict
import dev.redacto.core.asStringStrict
import dev.redacto.core.prompts.PipelinePrompts
import dev.redacto.core.text.CodePointText
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory
import java.io.File
import java.util.concurrent.atomic.AtomicInteger
import kotlin.math.abs

/**
 * Every tests/vectors/ner case through the Kotlin tier: the stored model output, replayed by
 * [FakeNerModel] through [NerReader] and [NerTier.decide], must give the stored windows,
 * readings, word hits, joined spans and final spans exactly (probabilities within 0.002, as the
 * README says); and where Rampart's tokenizer.json is installed, [WordPieceTokenizer] must give
 * the stored token ids, offsets and words. tests/ner/test_ner_vectors.py checks the same in Python.
 */
class NerVectorTest {
    @TestFactory
    fun `ner vectors decode as Python decodes them`(): List<DynamicTest> =
        FILES.map { file ->
            DynamicTest.dynamicTest(file.nameWithoutExtension) {
                RAN.incrementAndGet()
                decodeVector(file)
            }
        }

    @TestFactory
    fun `ner vectors tokenize as Python's tokenizers does`(): List<DynamicTest> =
        FILES.map { file ->
            DynamicTest.dynamicTest(file.nameWithoutExtension) {
                val tokenizer = RampartFiles.tokenizer
                assumeTrue(tokenizer != null, RampartFiles.ABSENT)
                val vector = Vectors.load(file)
                val got = checkNotNull(tokenizer).tokenize(vector.string("text"))
                assertEquals(tokens(vector), got.tokens, "${file.name}: tokens [id, start, end]")
                assertEquals(ints(vector.array("word_ids")), got.wordIds, "${file.name}: word_ids")
                val settings = vector.obj("settings")
                assertEquals(settings.int("cls_id"), tokenizer.clsId)
                assertEquals(settings.int("sep_id"), tokenizer.sepId)
            }
        }

    @Test
    fun `the vectors hold English and French, long pages over one window, and Unicode cases`() {
        val names = FILES.map { it.nameWithoutExtension }
        assertTrue(names.size >= 50, "${names.size} NER vectors")
        assertTrue(listOf("en_", "fr_", "long_", "uni_").all { prefix -> names.any { it.startsWith(prefix) } })
        val multiWindow = FILES.count { Vectors.load(it).array("windows").size > 1 }
        assertTrue(multiWindow >= 2, "$multiWindow vectors read in more than one window")
    }

    companion object {
        private val FILES: List<File> = Vectors.files("ner")
        private val RAN = AtomicInteger()

        @JvmStatic
        @AfterAll
        fun `every ner vector file ran`() {
            assertTrue(FILES.isNotEmpty(), "no NER vectors found under ${Vectors.root}")
            assertEquals(FILES.size, RAN.get(), "ner vectors run vs files")
        }
    }

    private fun ints(array: List<JsonElement>): List<Int> = array.mapIndexed { i, it -> it.asIntStrict("[$i]") }

    private fun tokens(vector: Fields): List<NerToken> =
        vector.array("tokens").mapIndexed { i, raw ->
            val (id, start, end) = ints(raw.asArrayStrict("tokens[$i]"))
            NerToken(id, start, end)
        }

    private fun decodeVector(file: File) {
        val vector = Vectors.load(file)
        val where = file.name
        assertEquals(file.nameWithoutExtension, vector.string("name"))
        assertTrue(vector.string("description").isNotBlank())
        val category = Category.fromLabel(vector.string("category")) ?: throw AssertionError("$where: unknown category")
        val allowed = vector.array("allowed_labels").map { it.asStringStrict("$where.allowed_labels") }
        assertEquals(PipelinePrompts.categoryLabels(category), allowed, "$where: the category's labels")
        val text = vector.string("text")

        val settings = vector.obj("settings")
        assertEquals(NER_WINDOW_TOKENS, settings.int("window_tokens"))
        assertEquals(NER_OVERLAP_TOKENS, settings.int("overlap_tokens"))
        assertEquals(NER_THRESHOLD, settings.raw("threshold").asDoubleStrict("$where.threshold"))
        val labels = settings.array("labels").map { it.asStringStrict("$where.labels") }
        assertEquals(listOf("O") + NerLabels.ENTITIES.keys.flatMap { listOf("B-$it", "I-$it") }, labels, "$where: the model's labels")
        val clsId = settings.int("cls_id")
        val sepId = settings.int("sep_id")
        settings.allRead()

        val tokens = tokens(vector)
        val wordIds = ints(vector.array("word_ids"))
        val stored =
            vector.array("windows").mapIndexed { i, raw ->
                val window = Fields(raw.asObjectStrict("$where.windows[$i]"), "$where.windows[$i]")
                val best =
                    window.array("best").map { pair ->
                        pair.asJsonArray.let {
                            it[0].asIntStrict("best") to
                                it[1].asDoubleStrict("best")
                        }
                    }
                val logits =
                    window.rawOrNull("logits")?.asArrayStrict("logits")?.map { row ->
                        row.asArrayStrict("logits").map { it.asDoubleStrict("logit").toFloat() }.toFloatArray()
                    }
                StoredWindow(window.int("start"), window.int("end"), best, logits).also { window.allRead() }
            }
        val model = FakeNerModel(labels, stored, tokens.map { it.id }, clsId, sepId)
        val reader = NerReader(FakeNerTokenizer(Tokenized(tokens, wordIds), clsId, sepId), model)
        val reading = reader.read(text)
        assertEquals(stored.map { NerWindow(it.start, it.end) }, reading.windows.map { it.window }, "$where: windows")
        assertEquals(stored.size, model.calls, "$where: model calls")
        stored.filter { it.logits != null }.forEach { window ->
            window.logits!!.zip(window.best).forEach { (row, best) ->
                val (label, probability) = softmaxBest(row)
                assertEquals(best.first, label, "$where: softmax of stored logits")
                assertTrue(abs(probability - best.second) <= 2e-3, "$where: probability $probability vs ${best.second}")
            }
        }

        val expectedReadings =
            vector.array("readings").map { raw ->
                val row = raw.asArrayStrict("$where.readings")
                Triple(
                    row[0].asStringStrict("label"),
                    row[1].asDoubleStrict("probability"),
                    row[2].takeUnless { it.isJsonNull }?.asStringStrict("entity"),
                )
            }
        assertEquals(
            expectedReadings.map {
                it.first to it.third
            },
            reading.readings.map { it.label to it.entity(NER_THRESHOLD) },
            "$where: readings",
        )
        expectedReadings.zip(reading.readings).forEach { (expected, got) ->
            assertTrue(abs(expected.second - got.score) <= 2e-3, "$where: probability ${got.score} vs ${expected.second}")
        }

        val trace = NerTier.decide(text, reading, category, allowed)
        val points = CodePointText(text)
        assertEquals(
            vector.array("word_hits").map { it.asArrayStrict("word_hits").map(JsonElement::getAsString) },
            trace.words.map { listOf(it.start.toString(), it.end.toString(), it.label, it.entity) },
            "$where: word hits",
        )
        assertEquals(
            vector.array("joined").map { row ->
                row.asJsonArray.let { listOf(it[0].asInt, it[1].asInt, it[2].asString, it[3].asJsonArray.map(JsonElement::getAsString)) }
            },
            trace.joined.map { listOf(it.start, it.end, it.label, it.entities) },
            "$where: joined",
        )
        val spans =
            vector.array("spans").map { row ->
                row.asJsonArray.let { listOf(it[0].asInt, it[1].asInt, it[2].asString, it[3].asString) }
            }
        assertEquals(spans, trace.kept.map { listOf(it.start, it.end, it.label, points.slice(it.start, it.end)) }, "$where: spans")
        vector.allRead()
    }
}
