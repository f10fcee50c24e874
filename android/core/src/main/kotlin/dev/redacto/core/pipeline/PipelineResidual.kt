package dev.redacto.core.pipeline

import dev.redacto.core.Category
import dev.redacto.core.Detection
import dev.redacto.core.Document
import dev.redacto.core.Source
import dev.redacto.core.UnexplainedWord
import dev.redacto.core.WordKind
import dev.redacto.core.lexicon.Lexicon
import dev.redacto.core.lexicon.LexiconFiles
import dev.redacto.core.lexicon.LexiconWords
import dev.redacto.core.lexicon.ResidualWords
import dev.redacto.core.text.CodePointText

/*
 * Validate's residual check: the words of each round's output that no reader explains.
 *
 * The rules, the NER tier and the model share blind spots, so their second reading of the
 * output ([SecondOpinion]) misses what they missed at detect. The residual check
 * ([ResidualWords], docs/lexicon.md) reads the same masked output with the document's
 * language's dictionary and the category's keep rules: every readable word must be a
 * dictionary word or kept for a stated reason. The rest is *unexplained*: a run whose output
 * holds any never ends PASS ([ReviewReason.UNEXPLAINED_WORDS], the words in
 * [RunReport.unexplained]), and under [PipelineOptions.strict] each becomes a detection
 * (source [Source.LEXICON]) that fails the round, so the next round redacts it.
 *
 * Text mode reads [MaskedText] (each redacted span `…`); image mode reads the page's lines
 * ([PageText]) with each redacted element `…`, and a word names the element it lies in.
 * Mirrors `pipeline/residual.py`.
 */

/** The residual check's inputs for one run: the pinned dictionaries and the language read in. */
class ResidualCheck(
    val lexicon: LexiconFiles,
    val language: String,
) {
    companion object {
        /** The check for [document]: in [given] (`en`, `fr`), else the language whose dictionary knows the most of its words. */
        fun of(
            document: Document,
            lexicon: LexiconFiles,
            given: String? = null,
        ): ResidualCheck {
            val language =
                given ?: Lexicon.languageOf(LexiconWords.words(document.plainText()), Lexicon.LANGUAGES.map { lexicon.load(it) })
            return ResidualCheck(lexicon, language)
        }

        /** The label a word redacted under `strict` gets; a word of letters is redacted as a NAME. */
        val LABELS: Map<WordKind, String> =
            mapOf(WordKind.EMAIL to "EMAIL", WordKind.URL to "ID", WordKind.DOMAIN to "ID", WordKind.DIGITS to "ID")
    }

    /** The words of this output no reader could explain, in reading order. */
    fun unexplainedWords(
        document: Document,
        redaction: Redaction,
        category: Category,
    ): List<UnexplainedWord> {
        fun decide(text: String) = ResidualWords.unexplained(ResidualWords.residualWords(text, category, language) { lexicon.load(it) })
        if (redaction is TextRedaction) {
            val masked = MaskedText.of(document.text, redaction.replacements.map { it.span })
            val points = CodePointText(document.text)
            return decide(masked.text).mapNotNull { decision ->
                masked.originalSpan(decision.word.start, decision.word.end)?.let { span ->
                    UnexplainedWord(value = points.slice(span.start, span.end), kind = checkNotNull(decision.kind), span = span)
                }
            }
        }
        val hidden = (redaction as ImageRedaction).shown.keys
        val page = PageText.of(maskedElements(document, hidden).elements)
        return decide(page.text).flatMap { decision ->
            page.indicesBetween(decision.word.start, decision.word.end).filter { it !in hidden }.map { index ->
                val element = document.elements[index]
                UnexplainedWord(
                    value = element.text,
                    kind = checkNotNull(decision.kind),
                    index = index,
                    box = element.box,
                    page = element.page,
                )
            }
        }
    }

    /** The words as detections to redact (`strict`), one per word (image mode: per element). */
    fun asDetections(
        words: List<UnexplainedWord>,
        round: Int,
    ): List<Detection> =
        words.map {
            Detection(
                label = LABELS[it.kind] ?: "NAME",
                source = Source.LEXICON,
                round = round,
                index = it.index,
                value = it.value,
                span = it.span,
            )
        }
}
