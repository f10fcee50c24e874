package dev.redacto.core

import org.junit.jupiter.api.DynamicTest
import java.io.File

/**
 * The generated vector sets (tests/vectors/{locator,normalise,not_identifiers,policy,text}, written by
 * `devtools/generated/shared_vectors.py` from the Python reference): one file is
 * `{"name", "description", "cases": [...]}`, one dynamic test per case. Every key of a case
 * must be read by the test, so an expectation added in Python cannot go unchecked here.
 */
object SharedVectors {
    /** The generated files, relative to tests/vectors/: VectorCountTest counts them. */
    val FILES =
        listOf(
            "locator/locate.json",
            "locator/mistakes.json",
            "normalise/normalise.json",
            "not_identifiers/not_identifiers.json",
            "policy/files.json",
            "policy/options.json",
            "text/characters.json",
            "text/strings.json",
            "text/strip_chars.json",
            "text/regex.json",
        )

    /** One test per case of [relative], named by [label]; [run] must read every key of its case. */
    fun tests(
        relative: String,
        label: (Fields) -> String,
        run: (Fields) -> Unit,
    ): List<DynamicTest> {
        check(relative in FILES) { "$relative is not a generated vector set" }
        val file = File(Vectors.root, relative)
        val set = Vectors.load(file)
        set.onlyKeys(setOf("name", "description", "cases"))
        check(set.string("name") == file.nameWithoutExtension) { "$relative: name is not the file's" }
        set.string("description")
        val cases = set.array("cases")
        check(cases.isNotEmpty()) { "$relative has no cases" }
        return cases.mapIndexed { i, element ->
            val case = Fields(element.asObjectStrict("$relative[$i]"), "$relative[$i]")
            val name = label(case)
            DynamicTest.dynamicTest("$relative[$i] $name") {
                run(case)
                case.allRead()
            }
        }
    }

    /** A list of `[start, end]` pairs (or longer int tuples) as lists of ints. */
    fun intLists(
        elements: List<com.google.gson.JsonElement>,
        where: String,
    ): List<List<Int>> = elements.map { pair -> pair.asArrayStrict(where).map { it.asIntStrict(where) } }

    fun strings(
        elements: List<com.google.gson.JsonElement>,
        where: String,
    ): List<String> = elements.map { it.asStringStrict(where) }
}
