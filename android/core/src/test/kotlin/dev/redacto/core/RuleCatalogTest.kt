package dev.redacto.core

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** Word lists in recognizers.yaml drive their validator; bad lists fail at load (as tests/rules/test_rule_catalog.py). */
class RuleCatalogTest {
    private val urlLists =
        mapOf(
            "profile_hosts" to "[Example.ORG]", // compared lower-cased, like the URL's host
            "non_profile_paths" to "[about]",
            "personal_segments" to "[staff]",
            "personal_query_keys" to "[who]",
        )

    /** A one-recognizer file: recognizer `a` with [validator] and, when given, [lists] (name to YAML value). */
    private fun recognizersYaml(
        validator: String = "personal_url",
        lists: Map<String, String>? = urlLists,
    ): String {
        val listLines = lists?.let { listOf("    lists:") + it.map { (name, value) -> "      $name: $value" } }.orEmpty()
        return (
            listOf("recognizers:", "  a:", "    label: ID", "    description: d", "    validator: $validator") +
                listLines +
                listOf("    patterns:", "      - name: p", "        regex: '[^ ]+'")
        ).joinToString("\n")
    }

    private val categoriesYaml =
        (listOf("categories:") + Category.entries.flatMap { listOf("  ${it.label}:", "    recognizers: [a]") }).joinToString("\n")

    private fun load(recognizersYaml: String): RuleCatalog = RuleCatalog.parse(recognizersYaml, categoriesYaml, setOf("ID"))

    @Test
    fun `personal_url judges by the lists in the yaml`() {
        val recognizer = load(recognizersYaml()).recognizers.getValue("a")
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
                recognizersYaml(lists = null) to "needs `lists:`",
                recognizersYaml(lists = urlLists + ("colours" to "[red]")) to "colours",
                recognizersYaml(lists = urlLists + ("personal_query_keys" to "")) to "personal_query_keys",
                recognizersYaml(lists = urlLists - "non_profile_paths") to "non_profile_paths",
                recognizersYaml(lists = urlLists + ("profile_hosts" to "[1]")) to "must list text",
                recognizersYaml(validator = "email") to "none of its validators reads word lists",
            )
        for ((yaml, message) in cases) {
            val error = assertThrows(RulesConfigException::class.java) { load(yaml) }
            assertTrue(message in error.message.orEmpty(), "expected '$message' in: ${error.message}")
        }
    }
}
