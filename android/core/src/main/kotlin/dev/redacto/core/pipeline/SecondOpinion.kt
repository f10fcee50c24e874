package dev.redacto.core.pipeline

import dev.redacto.core.Category
import dev.redacto.core.Detection
import dev.redacto.core.Document
import dev.redacto.core.Source
import dev.redacto.core.Span
import dev.redacto.core.lexicon.LexiconWords
import dev.redacto.core.ner.isPunctuation
import dev.redacto.core.text.CodePointText
import dev.redacto.core.text.PyText

/*
 * Validate's second opinion: the rules and the NER tier read the redacted output again.
 *
 * The run's deterministic tiers (`options.detectors`) read each round's output, whatever the
 * LLM validator said; any value they find still readable fails the round, and the next round
 * redacts it like an item the validator named. They read the output with every redacted value
 * masked as [SECOND_OPINION_MASK] (an ellipsis: punctuation, so never a value itself, and
 * Rampart still reads `… Moreau` as a name, where a placeholder is read as text and `___`
 * hid the surname). Mirrors `pipeline/second_opinion.py`; docs/pipeline-validate.md, "The
 * second opinion".
 */

/** What every redacted value reads as to the second opinion: the mask the residual check's words are cut at. */
const val SECOND_OPINION_MASK = LexiconWords.MASK

/** One tier run on a document: the rules' or the NER tier's detections under a category. */
fun interface OutputReader {
    fun read(
        document: Document,
        category: Category,
    ): List<Detection>
}

/** The tiers that read the output again, each with the source its hits get; empty when the run has neither tier. */
class SecondOpinion(
    val readers: List<Pair<Source, OutputReader>> = emptyList(),
)

/**
 * The original text with each redacted span replaced by the mask, and where each kept run of
 * original code points sits in it (masked start, original start, length). Offsets are code points.
 */
class MaskedText private constructor(
    val text: String,
    private val kept: List<Triple<Int, Int, Int>>,
) {
    /**
     * The parts of the masked range [start, end) outside every mask, as spans of [original],
     * trimmed of whitespace and punctuation; parts with no letter or digit go.
     */
    fun readable(
        start: Int,
        end: Int,
        original: String,
    ): List<Span> {
        val points = CodePointText(original)
        return kept.mapNotNull { (maskedStart, originalStart, length) ->
            val lo = maxOf(start, maskedStart)
            val hi = minOf(end, maskedStart + length)
            if (lo >= hi) null else trimmed(points, originalStart + lo - maskedStart, originalStart + hi - maskedStart)
        }
    }

    /** Where the masked range [start, end) stands in the original, when it lies inside one kept run (no mask in it); null otherwise. */
    fun originalSpan(
        start: Int,
        end: Int,
    ): Span? =
        kept
            .firstOrNull { (maskedStart, _, length) ->
                maskedStart <= start && end <= maskedStart + length
            }?.let { (maskedStart, originalStart, _) ->
                Span(start + originalStart - maskedStart, end + originalStart - maskedStart)
            }

    companion object {
        /** Masks the disjoint [redacted] spans of [original] (any order). */
        fun of(
            original: String,
            redacted: List<Span>,
        ): MaskedText {
            val points = CodePointText(original)
            val parts = StringBuilder()
            val kept = mutableListOf<Triple<Int, Int, Int>>()
            var position = 0
            var length = 0
            val mask = SECOND_OPINION_MASK.codePointCount(0, SECOND_OPINION_MASK.length)
            for (span in redacted.sortedBy { it.start }) {
                if (span.start > position) {
                    kept.add(Triple(length, position, span.start - position))
                    parts.append(points.slice(position, span.start))
                    length += span.start - position
                }
                parts.append(SECOND_OPINION_MASK)
                length += mask
                position = maxOf(position, span.end)
            }
            if (position < points.length) {
                kept.add(Triple(length, position, points.length - position))
                parts.append(points.slice(position, points.length))
            }
            return MaskedText(parts.toString(), kept)
        }

        private fun trimmed(
            points: CodePointText,
            from: Int,
            to: Int,
        ): Span? {
            var start = from
            var end = to

            fun edge(codePoint: Int) = PyText.isSpace(codePoint) || isPunctuation(codePoint)
            while (start < end && edge(points[start])) start++
            while (end > start && edge(points[end - 1])) end--
            return if ((start until end).any { PyText.isAlnum(points[it]) }) Span(start, end) else null
        }
    }
}

/** The page with every redacted element's text replaced by the mask (same index, box, page). */
fun maskedElements(
    document: Document,
    redacted: Collection<Int>,
): Document {
    val hidden = redacted.toSet()
    return Document.fromElements(
        document.elements.map { if (it.index in hidden) it.copy(text = SECOND_OPINION_MASK) else it },
        document.imageSize,
    )
}

/** Text mode: what each tier finds readable in the masked output, as detections of the original (value and span). */
fun readTextOutput(
    original: String,
    redacted: List<Span>,
    category: Category,
    opinion: SecondOpinion,
    round: Int,
): List<Detection> {
    val masked = MaskedText.of(original, redacted)
    val shown = Document.fromText(masked.text)
    val points = CodePointText(original)
    return opinion.readers.flatMap { (source, reader) ->
        reader.read(shown, category).flatMap { hit ->
            val span = checkNotNull(hit.span) { "a text-mode tier gives spans" }
            masked.readable(span.start, span.end, original).map {
                Detection(label = hit.label, source = source, round = round, value = points.slice(it.start, it.end), span = it)
            }
        }
    }
}

/** Image mode: the elements each tier finds in the masked page that are not redacted yet, one detection per element. */
fun readPageOutput(
    document: Document,
    redacted: Collection<Int>,
    category: Category,
    opinion: SecondOpinion,
    round: Int,
): List<Detection> {
    val shown = maskedElements(document, redacted)
    val hidden = redacted.toSet()
    return opinion.readers.flatMap { (source, reader) ->
        val hits = reader.read(shown, category).filter { it.index != null && it.index !in hidden }
        // A hit's readable words are its value, so a page read as text shows one placeholder for them.
        val words = hits.groupBy({ it.value }, { document.elements[it.index!!].text })
        hits.map {
            Detection(
                label = it.label,
                source = source,
                round = round,
                index = it.index,
                value = words.getValue(it.value).joinToString(" "),
            )
        }
    }
}
