package dev.redacto.core.rules

import dev.redacto.core.Category
import dev.redacto.core.Detection
import dev.redacto.core.Document

/** The rule safety net: checksum-validated hits that are unioned with the model's. */
fun interface RuleDetector {
    fun find(
        document: Document,
        category: Category,
    ): List<Detection>

    companion object {
        /** No rules at all (what `PipelineOptions(rules = false)` amounts to). */
        val NONE: RuleDetector = RuleDetector { _, _ -> emptyList() }
    }
}
