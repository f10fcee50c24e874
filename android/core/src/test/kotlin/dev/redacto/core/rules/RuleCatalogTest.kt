package dev.redacto.core.rules

import dev.redacto.core.Category
import dev.redacto.core.text.CodePointText
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** Word lists in recognizers.yaml drive their validator; bad lists fail at load (as tests/rules/test_rule_catalog.py). */
class RuleCatalogTest {
    private val urlLists: Map<String, Any?> =
        mapOf(
            "profile_hosts" to listOf("Example.ORG"), // compared lower-cased, like the URL's host
            "non_profile_paths" to listOf("about"),
            "personal_segments" to listOf("staff"),
            "personal_query_keys" to listOf("who"),
        )

    /** A one-recognizer file, as data: recognizer `a` with [validator] and, when given, [lists]. */
    private fun recognizersFile(
        validator: String = "personal_url",
        lists: Map<String, Any?>? = urlLists,
    ): Map<String, Any?> {
        val spec =
            mapOf(
                "label" to "ID",
                "description" to "d",
                "validator" to validator,
                "patterns" to listOf(mapOf("name" to "p", "regex" to "[^ ]+")),
            ) + (if (lists != null) mapOf("lists" to lists) else emptyMap())
        return mapOf("recognizers" to mapOf("a" to spec))
    }

    private val categoriesFile: Map<String, Any?> =
        mapOf("categories" to Category.entries.associate { it.label to mapOf("recognizers" to listOf("a")) })

    private fun load(recognizersFile: Map<String, Any?>): RuleCatalog = RuleCatalog.build(recognizersFile, categoriesFile, setOf("ID"))

    @Test
    fun `the compiled-in rule files load and name every category`() {
        assertEquals(Category.entries.toSet(), Rules.catalog.categories.keys)
    }

    @Test
    fun `personal_url judges by the lists in the yaml`() {
        val recognizer = load(recognizersFile()).recognizers.getValue("a")
        val validator = checkNotNull(recognizer.patterns[0].validator)
        for (url in listOf("https://example.org/jane", "x.test/Staff/bob", "https://x.test/page?WHO=1")) {
            assertEquals(url, validator(url), url)
        }
        for (url in listOf("https://example.org/about", "https://facebook.com/jane", "x.test/users/bob")) {
            assertNull(validator(url), url)
        }
    }

    @Test
    fun `bad word lists fail with a clear message`() {
        val cases =
            listOf(
                recognizersFile(lists = null) to "needs `lists:`",
                recognizersFile(lists = urlLists + ("colours" to listOf("red"))) to "colours",
                recognizersFile(lists = urlLists + ("personal_query_keys" to null)) to "personal_query_keys",
                recognizersFile(lists = urlLists - "non_profile_paths") to "non_profile_paths",
                recognizersFile(lists = urlLists + ("profile_hosts" to listOf(1L))) to "must list text",
                recognizersFile(validator = "email") to "none of its validators reads word lists",
            )
        for ((file, message) in cases) {
            val error = assertThrows(RulesConfigException::class.java) { load(file) }
            assertTrue(message in error.message.orEmpty(), "expected '$message' in: ${error.message}")
        }
    }

    @Test
    fun `a preserve rule keeps by digits or by context words, never both nor neither`() {
        val publication = Rules.catalog.categories.getValue(Category.JOURNALISM).preserve.single()
        assertEquals("date", publication.recognizer)
        assertTrue(listOf("run", "date") in publication.contextPhrases)
        val cases =
            listOf(
                mapOf("recognizer" to "a", "reason" to "r"),
                mapOf("recognizer" to "a", "digits" to "1", "context" to mapOf("words" to listOf("published")), "reason" to "r"),
            )
        for (rule in cases) {
            val categories =
                mapOf(
                    "categories" to
                        Category.entries.associate {
                            it.label to mapOf("recognizers" to listOf("a"), "preserve" to listOf(rule))
                        },
                )
            val error =
                assertThrows(RulesConfigException::class.java) { RuleCatalog.build(recognizersFile(), categories, setOf("ID")) }
            assertTrue("exactly one of" in error.message.orEmpty(), "expected 'exactly one of' in: ${error.message}")
        }
    }

    /** Python's `test_preserved_spans_are_the_matches_a_preserve_rule_keeps`, case for case. */
    @Test
    fun `preserved spans are the matches a preserve rule keeps`() {
        val table =
            listOf(
                Triple("Billing questions: 1-833-216-3880. Yours: 415-210-7727.", Category.FINANCIAL, listOf<String>("1-833-216-3880")),
                Triple("Run date stays 10 Jun 2025; met the source on 03 Jun 2025.", Category.JOURNALISM, listOf<String>("10 Jun 2025")),
                Triple("Det. Juan Cannon, badge 2868; visitor badge 425689", Category.TACTICAL, listOf<String>("2868")),
                Triple("Billing questions: 1-833-216-3880.", Category.GENERAL, listOf<String>()),
                Triple("Signed 03/15/2024 in Boston", Category.LEGAL, listOf<String>()),
            )
        for ((text, category, values) in table) {
            val points = CodePointText(text)
            assertEquals(values, Rules.preservedSpans(text, category).map { points.slice(it.start, it.end) }, text)
        }
    }
}
