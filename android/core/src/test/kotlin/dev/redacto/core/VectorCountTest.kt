package dev.redacto.core

import dev.redacto.core.lexicon.LexiconVectorTest
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File

/**
 * Every JSON file under tests/vectors/ is run by one of the vector suites (the generated sets
 * by name, [SharedVectors.FILES]; the residual check's, [LexiconVectorTest.FILES]): a vector dropped
 * in a folder this runner does not know would otherwise pass CI unnoticed.
 */
class VectorCountTest {
    @Test
    fun `every vector file belongs to a suite that runs it`() {
        val pipeline = Vectors.files("pipeline")
        val rules = Vectors.files("rules")
        val chunking = Vectors.files("chunking")
        val constraint = Vectors.files("constraint")
        val ocr = Vectors.files("ocr")
        val ner = Vectors.files("ner") // NerVectorTest
        val ink = Vectors.files("ink") // InkCoverVectorTest
        assertTrue(ink.isNotEmpty(), "no ink vectors")
        assertTrue(ner.isNotEmpty(), "no NER vectors")
        assertTrue(pipeline.isNotEmpty(), "no pipeline vectors")
        assertTrue(rules.isNotEmpty(), "no rule vectors")
        assertTrue(chunking.isNotEmpty(), "no chunking vectors")
        assertTrue(constraint.isNotEmpty(), "no constraint vectors")
        assertTrue(ocr.isNotEmpty(), "no OCR vectors")
        val shared = SharedVectors.FILES.map { File(Vectors.root, it) }
        shared.forEach { assertTrue(it.isFile, "missing generated vector set $it") }
        val lexicon = LexiconVectorTest.FILES.map { File(Vectors.root, it) }
        lexicon.forEach { assertTrue(it.isFile, "missing residual-check vectors $it") }
        assertEquals(
            Vectors.allJsonFiles().map { it.canonicalFile }.toSet(),
            (pipeline + rules + chunking + constraint + ocr + ner + ink + shared + lexicon)
                .map { it.canonicalFile }
                .toSet(),
        )
    }
}
