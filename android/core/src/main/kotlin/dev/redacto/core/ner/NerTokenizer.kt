package dev.redacto.core.ner

import dev.redacto.core.text.TinyJson
import java.text.Normalizer

/*
 * The NER model's tokenizer in pure Kotlin: Hugging Face `tokenizers`' BertNormalizer,
 * BertPreTokenizer and WordPiece, as Rampart's `tokenizer.json` configures them, so the phone
 * gives the model the very ids Python's `tokenizers` gives it (tests/vectors/ner holds them).
 * Offsets count code points of the original text, as Python's do.
 */

/** One WordPiece token: its vocabulary id and its [start, end) in the text's code points. */
data class NerToken(
    val id: Int,
    val start: Int,
    val end: Int,
)

/** A text as the model reads it: its tokens, and the tokenizer word each token belongs to. */
class Tokenized(
    val tokens: List<NerToken>,
    /** Per token, the pre-tokenizer's word (windows never open inside one, [planWindows]). */
    val wordIds: List<Int>,
)

/** Text to the token ids a token classifier reads, with the ids that wrap each window. */
interface NerTokenizer {
    val clsId: Int
    val sepId: Int

    /** The text's tokens without special tokens (`add_special_tokens=False`). */
    fun tokenize(text: String): Tokenized
}

/**
 * A `tokenizer.json` whose normalizer is `BertNormalizer`, pre-tokenizer `BertPreTokenizer` and
 * model `WordPiece` (what BERT-family classifiers ship), read the way the Rust `tokenizers`
 * library reads it. Anything else in the file is refused at load rather than read differently.
 */
class WordPieceTokenizer private constructor(
    private val vocab: Map<String, Int>,
    private val unkId: Int,
    private val prefix: String,
    private val maxInputCharsPerWord: Int,
    private val normalizer: BertNormalizer,
    /** Tokens matched in the raw text before normalizing (`[CLS]`, `[UNK]`…), by content. */
    private val addedTokens: Map<String, Int>,
) : NerTokenizer {
    override val clsId: Int = addedTokens["[CLS]"] ?: vocab["[CLS]"] ?: throw IllegalArgumentException("the tokenizer has no [CLS]")
    override val sepId: Int = addedTokens["[SEP]"] ?: vocab["[SEP]"] ?: throw IllegalArgumentException("the tokenizer has no [SEP]")

    private val addedContents: List<Pair<IntArray, Int>> = addedTokens.map { (content, id) -> content.codePoints().toArray() to id }
    private val addedFirsts: Set<Int> = addedContents.mapNotNull { it.first.firstOrNull() }.toSet()
    private val longestEntry: Int = vocab.keys.maxOf { it.removePrefix(prefix).codePointCount(0, it.removePrefix(prefix).length) }

    override fun tokenize(text: String): Tokenized {
        val codePoints = text.codePoints().toArray()
        val tokens = mutableListOf<NerToken>()
        val wordIds = mutableListOf<Int>()
        var word = 0
        var segmentStart = 0
        for ((start, end, id) in addedTokenMatches(codePoints) + Triple(codePoints.size, codePoints.size, -1)) {
            for (piece in preTokenize(normalizer.normalize(codePoints, segmentStart, start))) {
                wordPiece(piece).forEach {
                    tokens.add(it)
                    wordIds.add(word)
                }
                word++
            }
            if (id >= 0) {
                tokens.add(NerToken(id, start, end))
                wordIds.add(word++)
            }
            segmentStart = end
        }
        return Tokenized(tokens, wordIds)
    }

    /** Leftmost, then longest, occurrences of the added tokens in the raw text. */
    private fun addedTokenMatches(codePoints: IntArray): List<Triple<Int, Int, Int>> {
        if (addedTokens.isEmpty()) return emptyList()
        val matches = mutableListOf<Triple<Int, Int, Int>>()
        var position = 0
        while (position < codePoints.size) {
            if (codePoints[position] !in addedFirsts) {
                position++
                continue
            }
            val found =
                addedContents
                    .filter { (content, _) -> content.isNotEmpty() && regionMatches(codePoints, position, content) }
                    .maxByOrNull { it.first.size }
            if (found == null) {
                position++
            } else {
                matches.add(Triple(position, position + found.first.size, found.second))
                position += found.first.size
            }
        }
        return matches
    }

    private fun regionMatches(
        codePoints: IntArray,
        at: Int,
        content: IntArray,
    ): Boolean = at + content.size <= codePoints.size && content.indices.all { codePoints[at + it] == content[it] }

    /** BertPreTokenizer: split on whitespace (removed), then on punctuation (each its own word). */
    private fun preTokenize(normalized: List<NormalizedChar>): List<List<NormalizedChar>> {
        val words = mutableListOf<List<NormalizedChar>>()
        var current = mutableListOf<NormalizedChar>()
        for (char in normalized) {
            when {
                isRustWhitespace(char.codePoint) -> {
                    if (current.isNotEmpty()) words.add(current)
                    current = mutableListOf()
                }

                isBertPunctuation(char.codePoint) -> {
                    if (current.isNotEmpty()) words.add(current)
                    words.add(listOf(char))
                    current = mutableListOf()
                }

                else -> {
                    current.add(char)
                }
            }
        }
        if (current.isNotEmpty()) words.add(current)
        return words
    }

    /** WordPiece: longest vocabulary entry first, `##` on continuations; a word that cannot be
     *  spelled, or is longer than `max_input_chars_per_word`, is one unknown token. */
    private fun wordPiece(word: List<NormalizedChar>): List<NerToken> {
        val whole = listOf(NerToken(unkId, word.first().start, word.maxOf { it.end }))
        if (word.size > maxInputCharsPerWord) return whole
        val pieces = mutableListOf<NerToken>()
        var start = 0
        while (start < word.size) {
            // No entry is longer than the longest in the vocabulary: the same answer, sooner.
            var end = minOf(word.size, start + longestEntry)
            var found: Int? = null
            while (start < end) {
                val spelled = StringBuilder(if (start > 0) prefix else "")
                for (i in start until end) spelled.appendCodePoint(word[i].codePoint)
                found = vocab[spelled.toString()]
                if (found != null) break
                end--
            }
            if (found == null) return whole
            val chars = word.subList(start, end)
            pieces.add(NerToken(found, chars.minOf { it.start }, chars.maxOf { it.end }))
            start = end
        }
        return pieces
    }

    companion object {
        /** Reads a `tokenizer.json` (its text); refuses a configuration this class would not follow. */
        fun fromJson(json: String): WordPieceTokenizer {
            @Suppress("UNCHECKED_CAST")
            val root = TinyJson.parse(json) as Map<String, Any?>

            @Suppress("UNCHECKED_CAST")
            fun section(key: String): Map<String, Any?> =
                root[key] as? Map<String, Any?> ?: throw IllegalArgumentException("tokenizer.json has no $key")
            val normalizer = section("normalizer")
            val preTokenizer = section("pre_tokenizer")
            val model = section("model")
            require(normalizer["type"] == "BertNormalizer") { "unsupported normalizer ${normalizer["type"]}" }
            require(preTokenizer["type"] == "BertPreTokenizer") { "unsupported pre-tokenizer ${preTokenizer["type"]}" }
            require(model["type"] == "WordPiece") { "unsupported model ${model["type"]}" }

            @Suppress("UNCHECKED_CAST")
            val vocab = (model["vocab"] as Map<String, Any?>).mapValues { (it.value as Long).toInt() }
            val unk = model["unk_token"] as String
            val lowercase = normalizer["lowercase"] as Boolean
            val added =
                (root["added_tokens"] as? List<*>).orEmpty().associate { raw ->
                    val token = raw as Map<*, *>
                    val flags = listOf("single_word", "lstrip", "rstrip", "normalized")
                    require(flags.all { token[it] == false }) { "unsupported added token options in $token" }
                    token["content"] as String to (token["id"] as Long).toInt()
                }
            return WordPieceTokenizer(
                vocab = vocab,
                unkId = vocab[unk] ?: throw IllegalArgumentException("the unknown token $unk is not in the vocabulary"),
                prefix = model["continuing_subword_prefix"] as String,
                maxInputCharsPerWord = (model["max_input_chars_per_word"] as Long).toInt(),
                normalizer =
                    BertNormalizer(
                        cleanText = normalizer["clean_text"] as Boolean,
                        chineseChars = normalizer["handle_chinese_chars"] as Boolean,
                        // `tokenizers`: strip_accents null follows lowercase.
                        stripAccents = normalizer["strip_accents"] as Boolean? ?: lowercase,
                        lowercase = lowercase,
                    ),
                addedTokens = added,
            )
        }
    }
}

/** A character of the normalized text and the original code points [start, end) it came from. */
internal class NormalizedChar(
    val codePoint: Int,
    val start: Int,
    val end: Int,
)

/**
 * `tokenizers`' BertNormalizer, character by character, each output character remembering the
 * original character it came from: clean (drop NUL, U+FFFD and controls; whitespace becomes a
 * space), space out CJK ideographs, strip accents (NFD, drop Mn), lowercase.
 */
internal class BertNormalizer(
    private val cleanText: Boolean,
    private val chineseChars: Boolean,
    private val stripAccents: Boolean,
    private val lowercase: Boolean,
) {
    fun normalize(
        codePoints: IntArray,
        from: Int,
        until: Int,
    ): List<NormalizedChar> {
        val out = ArrayList<NormalizedChar>(until - from)
        for (position in from until until) {
            var codePoint = codePoints[position]
            if (cleanText) {
                if (codePoint == 0 || codePoint == 0xFFFD || isRustControl(codePoint)) continue
                if (isRustWhitespace(codePoint)) codePoint = ' '.code
            }
            if (codePoint < 0x80) {
                // ASCII has no accents and one lower case: the common case, without allocations.
                val lower = if (lowercase && codePoint in 'A'.code..'Z'.code) codePoint + 32 else codePoint
                out.add(NormalizedChar(lower, position, position + 1))
                continue
            }
            val chars = mapped[codePoint] ?: map(codePoint).also { if (mapped.size < MAPPED_MAX) mapped[codePoint] = it }
            for (char in chars) out.add(NormalizedChar(char, position, position + 1))
        }
        return out
    }

    /** What one character (not ASCII, not cleaned away) becomes; the same every time, so kept (a few thousand at most). */
    private val mapped = java.util.concurrent.ConcurrentHashMap<Int, IntArray>()

    private companion object {
        const val MAPPED_MAX = 4096
    }

    private fun map(codePoint: Int): IntArray {
        var chars = intArrayOf(codePoint)
        if (chineseChars && isChineseChar(codePoint)) chars = intArrayOf(' '.code, codePoint, ' '.code)
        if (stripAccents) {
            chars =
                chars
                    .flatMap {
                        Normalizer
                            .normalize(String(Character.toChars(it)), Normalizer.Form.NFD)
                            .codePoints()
                            .toArray()
                            .toList()
                    }.filterNot { NerUnicode.contains(NerUnicode.NONSPACING_MARK, it) }
                    .toIntArray()
        }
        if (lowercase) {
            // Rust's char::to_lowercase: the full mapping of one character, never contextual.
            chars =
                chars
                    .flatMap {
                        String(
                            Character.toChars(it),
                        ).lowercase(java.util.Locale.ROOT).codePoints().toArray().toList()
                    }.toIntArray()
        }
        return chars
    }
}

/** Rust's `char::is_whitespace` (Unicode White_Space), which BertNormalizer also applies to \t \n \r. */
internal fun isRustWhitespace(codePoint: Int): Boolean =
    when (codePoint) {
        in 0x09..0x0D, 0x20, 0x85, 0xA0, 0x1680, in 0x2000..0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000 -> true
        else -> false
    }

/** BertNormalizer's control test: Cc, Cf, Co in the tokenizer's own tables, except \t \n \r. */
private fun isRustControl(codePoint: Int): Boolean = NerUnicode.contains(NerUnicode.CONTROL, codePoint)

/** BertNormalizer's "Chinese character": the CJK Unified Ideograph blocks it lists. */
private fun isChineseChar(codePoint: Int): Boolean =
    codePoint in 0x4E00..0x9FFF || codePoint in 0x3400..0x4DBF || codePoint in 0x20000..0x2A6DF ||
        codePoint in 0x2A700..0x2B73F || codePoint in 0x2B740..0x2B81F || codePoint in 0x2B920..0x2CEAF ||
        codePoint in 0xF900..0xFAFF || codePoint in 0x2F800..0x2FA1F

/** BertPreTokenizer's punctuation: ASCII punctuation (`$`, `+` included) or P*, in the tokenizer's tables. */
private fun isBertPunctuation(codePoint: Int): Boolean = NerUnicode.contains(NerUnicode.PUNCTUATION, codePoint)
