package dev.redacto.core.ner

import dev.redacto.core.Vectors
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import java.io.File
import java.security.MessageDigest

/**
 * The WordPiece tokenizer on a small hand-written `tokenizer.json` (every step visible: clean,
 * CJK spacing, accents, lower case, punctuation, `##` pieces, unknown words, added tokens,
 * offsets in code points), and the real file's digest against the NER manifest's pin.
 * NerVectorTest checks the real tokenizer on every vector; the whole of Unicode was compared
 * with Python's `tokenizers` when NerUnicode.kt was written
 * (devtools/generated/ner_unicode_tables.py).
 */
class NerTokenizerTest {
    private val vocab =
        listOf(
            "[PAD]",
            "[UNK]",
            "[CLS]",
            "[SEP]",
            "jean",
            "-",
            "baptiste",
            "mor",
            "##el",
            ",",
            "élo",
            "e",
            "##lo",
            "##die",
            "日",
            "本",
            "$",
            "x",
            "ab",
        )

    private val tokenizer =
        WordPieceTokenizer.fromJson(
            """
            {"version": "1.0", "added_tokens": [
              {"id": 1, "content": "[UNK]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true},
              {"id": 2, "content": "[CLS]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true},
              {"id": 3, "content": "[SEP]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true}],
             "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": null, "lowercase": true},
             "pre_tokenizer": {"type": "BertPreTokenizer"},
             "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 8,
               "vocab": {${vocab.mapIndexed { i, token -> "\"$token\": $i" }.joinToString()}}}}
            """.trimIndent(),
        )

    private fun ids(text: String): List<Pair<String, IntRange>> =
        tokenizer.tokenize(text).tokens.map {
            vocab[it.id] to
                (it.start until it.end)
        }

    @Test
    fun `words are lower-cased, stripped of accents and split on punctuation and into pieces`() {
        assertEquals(
            listOf("jean" to 0..3, "-" to 4..4, "baptiste" to 5..12, "mor" to 14..16, "##el" to 17..18, "," to 19..19),
            ids("Jean-Baptiste MOREL,"),
        )
        assertEquals(listOf(0, 1, 2, 3, 3, 4), tokenizer.tokenize("Jean-Baptiste MOREL,").wordIds)
    }

    @Test
    fun `accents go even when decomposed, and offsets count code points of the original`() {
        // "Élodie" precomposed and as E + U+0301: both spell e ##lo ##die, over the original's characters.
        assertEquals(listOf("e" to 0..0, "##lo" to 1..2, "##die" to 3..5), ids("Élodie"))
        assertEquals(listOf("e" to 0..0, "##lo" to 2..3, "##die" to 4..6), ids("E\u0301lodie"), "the stripped mark belongs to no token")
        assertEquals(listOf("[UNK]" to 0..0, "x" to 2..2), ids("\uD83D\uDE00 x"), "an emoji is one code point")
    }

    @Test
    fun `controls and zero-width characters vanish, ideographs are words of their own`() {
        assertEquals(listOf("ab" to 0..2), ids("a\u200Bb"))
        assertEquals(listOf("日" to 0..0, "本" to 1..1), ids("日本"))
        assertEquals(listOf("$" to 0..0, "x" to 1..1), ids("\$x"), "ASCII symbols split like punctuation")
    }

    @Test
    fun `a word that cannot be spelled, or is too long, is one unknown token`() {
        assertEquals(listOf("[UNK]" to 0..4, "x" to 6..6), ids("Zorro x"))
        assertEquals(listOf("[UNK]" to 0..8), ids("xxxxxxxxx"))
    }

    @Test
    fun `added tokens are matched in the raw text before normalizing`() {
        assertEquals(listOf("x" to 0..0, "[CLS]" to 1..5, "x" to 6..6), ids("x[CLS]x"))
        assertEquals(listOf("[UNK]" to 0..0, "[UNK]" to 1..3, "[UNK]" to 4..4), ids("[cls]"), "matched as written, case and all")
        assertEquals(2, tokenizer.clsId)
        assertEquals(3, tokenizer.sepId)
    }

    @Test
    fun `another normalizer or model is refused rather than read differently`() {
        assertThrows(IllegalArgumentException::class.java) {
            WordPieceTokenizer.fromJson(
                """{"normalizer": {"type": "NFKC"}, "pre_tokenizer": {"type": "BertPreTokenizer"}, "model": {"type": "WordPiece"}}""",
            )
        }
    }

    @Test
    fun `the installed tokenizer json is the one the NER manifest pins`() {
        val dir = RampartFiles.dir
        assumeTrue(dir != null, RampartFiles.ABSENT)
        val manifest = File(Vectors.root, "../../models/ner/rampart.toml").readText()
        val pinned = Regex("""tokenizer = \{ path = "tokenizer.json", sha256 = "([0-9a-f]{64})" }""").find(manifest)?.groupValues?.get(1)
        val digest =
            MessageDigest
                .getInstance(
                    "SHA-256",
                ).digest(File(dir, "tokenizer.json").readBytes())
                .joinToString("") { "%02x".format(it) }
        assertEquals(pinned, digest)
    }
}
