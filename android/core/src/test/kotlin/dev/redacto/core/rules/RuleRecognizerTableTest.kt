package dev.redacto.core.rules

import dev.redacto.core.Category
import dev.redacto.core.Document
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource

/**
 * Recognizers against a table of texts, as tests/rules/test_rule_recognizers.py runs them in
 * Python: the General rule set on plain text, so a row also fails when another recognizer
 * takes the match. These rows are the classes added for the outside suite's last misses
 * and the near misses beside them; the golden vectors cover the rest.
 */
class RuleRecognizerTableTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
        delimiter = '|',
        value = [
            // A Japanese mobile (or 050 IP phone) on sight; a country before "number" names a phone.
            "phone | My Japanese number is 090-1234-5678 | 090-1234-5678",
            "phone | 080 1234 5678 | 080 1234 5678",
            "phone | 050-1234-5678 | 050-1234-5678",
            "phone | 040-1234-5678 | ''",
            "phone | 090-1234 5678 | ''",
            "phone | 12 090-1234-5678 | ''",
            "phone | My CN number is 13812345678 | 13812345678",
            "phone | My UK number is 020 7946 0958 | 020 7946 0958",
            "phone | Order number 13812345678 | ''",
            // An area code and seven digits, next to a phone word.
            "phone | my phone number is 425 8829090 | 425 8829090",
            "phone | Tel (425) 8829090 | (425) 8829090",
            "phone | Ref 425 8829090 | ''",
            "phone | phone 125 8829090 | ''",
            // A month and two digits: the day.
            "date | Today is May-21 | May-21",
            "date | seen Sept-05 | Sept-05",
            "date | May-21-2020 | May-21-2020",
            "date | Feb-30 | ''",
            "date | May-210 | ''",
            // Dashed 4-4-1 from a Federal Reserve routing block, with the ABA checksum.
            "routing_number | 3222-7162-7 | 3222-7162-7",
            "routing_number | 0711-0130-7 | 0711-0130-7",
            "routing_number | 3222-7162-8 | ''",
            "routing_number | 4000-0000-8 | ''",
            "routing_number | Routing 4000-0000-8 | 4000-0000-8",
            "routing_number | 3222 7162 7 | ''",
        ],
    )
    fun `recognizer table`(
        recognizer: String,
        text: String,
        values: String,
    ) {
        val matches = Rules.findRuleMatches(Document.fromText(text), Category.GENERAL)
        val expected = if (values.isEmpty()) emptyList() else values.split(";")
        assertEquals(expected, matches.map { it.value })
        assertEquals(emptyList<String>(), matches.map { it.recognizer }.filter { it != recognizer })
    }
}
