package dev.redacto.core.pipeline

import dev.redacto.core.Detection
import dev.redacto.core.Source
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** The text-mode answer check while the answer streams: mirrors tests/pipeline/test_redact.py. */
class RedactAnswerTest {
    private val original = "Mrs. Chen (MRN 4471829) called 408-555-1234 about inquire@blucurrent. mail."
    private val detections =
        listOf(
            Detection(label = "NAME", source = Source.DETECT, round = 1, value = "Mrs. Chen"),
            Detection(label = "MRN", source = Source.DETECT, round = 1, value = "4471829"),
            Detection(label = "EMAIL", source = Source.DETECT, round = 1, value = "inquire@ucal.com"),
        )

    @Test
    fun `no prefix of an accepted answer is stopped`() {
        val faithful =
            listOf(
                "[NAME_1] (MRN [MRN_1]) called 408-555-1234 about [EMAIL_1].",
                "\n  [NAME_1] (MRN 4471829) called 408-555-1234 about inquire@blucurrent. mail.\n",
                original,
                "[PERSON_7] (MRN [MRN_1]) called 408-555-1234 about inquire@blucurrent. mail.",
            )
        for (answer in faithful) {
            assertNotNull(alignAnswer(original, answer, detections), answer)
            for (end in 0..answer.length) {
                val prefix = answer.substring(0, end)
                assertTrue(answerMayAlign(original, prefix), "stopped at ${prefix.length}: '$prefix'")
            }
        }
    }

    @Test
    fun `a rewrite is stopped where it departs from the original`() {
        val rewrites =
            listOf(
                "Here is the redacted text: [NAME_1] (MRN [MRN_1]) called" to "Here",
                "[NAME_1] (MRN [MRN_1]) phoned 408-555-1234 about [EMAIL_1]." to "phoned",
                "[NAME_1] (MRN [MRN_1]) called 408-555-1234, about [EMAIL_1]." to ", about",
                "[NAME_1][MRN_1] called 408-555-1234 about [EMAIL_1]." to "[MRN_1]",
                "Mrs. Chen (MRN 4471829) called 408-555-1234.\nThe patient" to "\nThe",
            )
        for ((answer, departsAt) in rewrites) {
            val cut = answer.indexOf(departsAt) + departsAt.length
            assertFalse(answerMayAlign(original, answer.substring(0, cut)), answer)
            assertNull(alignAnswer(original, answer, detections), answer)
        }
    }
}
