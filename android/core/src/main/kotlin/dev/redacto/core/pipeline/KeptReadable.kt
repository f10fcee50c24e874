package dev.redacto.core.pipeline

import dev.redacto.core.Category
import dev.redacto.core.Document
import dev.redacto.core.Mode
import dev.redacto.core.Span
import dev.redacto.core.ner.NerLabels
import dev.redacto.core.rules.Rules
import dev.redacto.core.text.CodePointText
import dev.redacto.core.text.PyText

/**
 * What a category keeps readable whoever names it: the model's items meet the preserve rules
 * the rules and the NER tier already follow (tools/redacto/pipeline/kept_readable.py).
 *
 * Three readings of the page overrule the model: a rule match a preserve rule keeps
 * ([Rules.preservedSpans]: a toll-free number in a Financial page, an officer's badge, a
 * publication date), for any label; a company's name ([NerLabels.namesAnOrganisation]), for a
 * NAME; a name right after a capitalised title the category preserves ([NerLabels.titled]:
 * `Hon.`, `Det.`, `Council Member`), for a NAME. An item is kept readable only when every place
 * the locator puts it is; a value it cannot place stays (and fails closed as not located).
 */
class KeptReadable private constructor(
    val text: String,
    val category: Category,
    /** Image mode: each element's place in [text] (code points), for an `INDEX:LABEL` item. */
    private val elementSpans: Map<Int, Span>,
) {
    private val locator by lazy { Locator(text) }
    private val preserved by lazy { Rules.preservedSpans(text, category) }
    private val points by lazy { CodePointText(text) }

    /** Whether every place [item] names is one the category keeps readable. */
    fun keeps(item: ParsedLine): Boolean {
        val (label, spans) =
            when (item) {
                is IndexItem -> item.label to listOfNotNull(elementSpans[item.index])
                is TextItem -> item.label to locator.locate(item.value)?.spans.orEmpty()
                is LineRejected -> return false
            }
        return spans.isNotEmpty() && spans.all { keepsAt(label, it) }
    }

    private fun keepsAt(
        label: String,
        span: Span,
    ): Boolean {
        // The span without the punctuation around it (`1-833-216-3880.` is the number).
        var start = span.start
        var end = span.end
        while (start < end && !PyText.isAlnum(points[start])) start++
        while (end > start && !PyText.isAlnum(points[end - 1])) end--
        if (start >= end) return false
        if (preserved.any { it.start <= start && end <= it.end }) return true
        return label == "NAME" &&
            (NerLabels.namesAnOrganisation(text, start, end) || NerLabels.titled(text, start, end, category))
    }

    companion object {
        /** The document's text, or a page's text lines as detect and validate read them. */
        fun of(
            document: Document,
            category: Category,
        ): KeptReadable {
            if (document.mode == Mode.TEXT) return KeptReadable(document.text, category, emptyMap())
            val page = PageText.of(document.elements)
            return KeptReadable(page.text, category, page.elementSpans)
        }
    }
}
