package dev.redacto.core.text

import dev.redacto.core.SharedVectors
import dev.redacto.core.pipeline.TextItem
import dev.redacto.core.pipeline.rejectedAs
import dev.redacto.core.pipeline.trimmedItem
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.TestFactory

/**
 * [NotIdentifiers] and the detect/validate decision on one `LABEL: value` line against
 * Python's own answers (tests/vectors/not_identifiers, written by
 * `devtools/generated/shared_vectors.py` from `redacto.not_identifiers` and
 * `redacto.pipeline.detections`).
 */
class NotIdentifiersVectorTest {
    @TestFactory
    fun `not identifiers`(): List<DynamicTest> =
        SharedVectors.tests("not_identifiers/not_identifiers.json", { "${it.string("label")}: ${it.string("value")}" }) { case ->
            case.string("description")
            val label = case.string("label")
            val value = case.string("value")
            val expected =
                listOf(
                    case.bool("time_of_day"),
                    case.bool("amount"),
                    case.bool("identifies_no_one"),
                    case.string("without_openers"),
                    case.stringOrNull("rejected_as"),
                )
            val actual =
                listOf(
                    NotIdentifiers.isTimeOfDay(value),
                    NotIdentifiers.isAmountValue(value),
                    NotIdentifiers.identifiesNoOne(value),
                    NotIdentifiers.withoutOpeners(label, value),
                    rejectedAs(trimmedItem(TextItem(label, value)))?.wire,
                )
            assertEquals(expected, actual)
        }
}
