package dev.redacto.core.pipeline

import dev.redacto.core.Category
import dev.redacto.core.RejectReason
import dev.redacto.core.Verdict
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test

class ParsingTest {
    private val labels = setOf("NAME", "DATE", "PHONE")

    @Test
    fun `index lines - lenient forms accepted, junk and out-of-chunk rejected`() {
        val range = 0..9
        val table: List<Pair<String, IndexLine?>> =
            listOf(
                "1:NAME" to IndexItem(1, "NAME"),
                "  - [2]: name." to IndexItem(2, "NAME"),
                "**3:PHONE** (the caller)" to IndexItem(3, "PHONE"),
                "NONE" to null,
                "(none)." to null,
                "" to null,
                "1:SALARY" to LineRejected("1:SALARY", RejectReason.UNKNOWN_LABEL),
                "10:NAME" to LineRejected("10:NAME", RejectReason.OUT_OF_CHUNK),
                "Jane is a name" to LineRejected("Jane is a name", RejectReason.JUNK),
            )
        for ((line, expected) in table) assertEquals(expected, parseIndexLine(line, labels, range), line)
    }

    @Test
    fun `text lines - quotes stripped, placeholders and empty values rejected`() {
        val table: List<Pair<String, TextLine?>> =
            listOf(
                "NAME: Mrs. Chen" to TextItem("NAME", "Mrs. Chen"),
                "- phone: \"408-555-1234\"" to TextItem("PHONE", "408-555-1234"),
                "NAME: [NAME_1]" to LineRejected("NAME: [NAME_1]", RejectReason.PLACEHOLDER_VALUE),
                "NAME: ''" to LineRejected("NAME: ''", RejectReason.EMPTY_VALUE),
                "CITY: Boston" to LineRejected("CITY: Boston", RejectReason.UNKNOWN_LABEL),
                "None" to null,
            )
        for ((line, expected) in table) assertEquals(expected, parseTextLine(line, labels), line)
    }

    @Test
    fun `classify - spelling variants, unknown category and duplicates`() {
        val parse = parseClassify("Document type: Lab report\nCATEGORY: field-service.\nCATEGORY: Medical\nhello")
        assertEquals(Category.FIELD_SERVICE, parse.category)
        assertEquals("Lab report", parse.documentType)
        assertEquals(listOf(RejectReason.DUPLICATE, RejectReason.JUNK), parse.rejected.map { it.reason })
        assertNull(parseClassify("CATEGORY: Astronomy").category)
    }

    @Test
    fun `verdicts fail closed`() {
        fun verdictOf(vararg lines: String): Pair<Verdict, List<String?>> {
            val parse = VerdictParse()
            val items = lines.map { parse.feed(it) }
            return parse.final() to items
        }
        assertEquals(Verdict.PASS to listOf<String?>(null), verdictOf("PASS"))
        assertEquals(Verdict.FAIL to listOf("1:NAME"), verdictOf("FAIL: 1:NAME"))
        assertEquals(Verdict.FAIL to listOf(null, "2:NAME"), verdictOf("PASS", "2:NAME"))
        assertEquals(Verdict.FAIL to listOf("Looks fine"), verdictOf("Looks fine"))
    }
}
