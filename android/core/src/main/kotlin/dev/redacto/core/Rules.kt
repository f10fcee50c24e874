package dev.redacto.core

/** The rule safety net (placeholder until the recognizers are ported). */
object Rules {
    val DETECTOR: RuleDetector = RuleDetector { _, _ -> throw UnsupportedOperationException("rules not ported yet") }
}
