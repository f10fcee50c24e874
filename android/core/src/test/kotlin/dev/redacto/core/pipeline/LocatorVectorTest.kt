package dev.redacto.core.pipeline

import dev.redacto.core.Fields
import dev.redacto.core.SharedVectors
import dev.redacto.core.asObjectStrict
import dev.redacto.core.text.CodePointText
import dev.redacto.core.text.PyText
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.TestFactory

/**
 * The locator against the answers of Python's `redacto.pipeline.locator`: every level of
 * [Locator.locate] and [Locator.near], and every strategy of [locateMistake]
 * (tests/vectors/locator, tests/pipeline/test_shared_vectors.py).
 */
class LocatorVectorTest {
    @TestFactory
    fun `locate and near`(): List<DynamicTest> =
        SharedVectors.tests("locator/locate.json", { it.string("name") }) { case ->
            case.string("description")
            val text = case.string("text")
            val value = case.string("value")
            val locator = Locator(text)
            val located = locator.locate(value)
            val spans = located?.spans.orEmpty().map { listOf(it.start, it.end) }
            assertEquals(
                case.stringOrNull("method") to SharedVectors.intLists(case.array("spans"), "spans"),
                located?.method?.wire to spans,
                value,
            )
            val points = CodePointText(text)
            assertEquals(SharedVectors.strings(case.array("found"), "found"), spans.map { (start, end) -> points.slice(start, end) })
            assertEquals(case.bool("near"), locator.near(value), "near")
        }

    @TestFactory
    fun `mistakes, strategy by strategy`(): List<DynamicTest> =
        SharedVectors.tests("locator/mistakes.json", { it.string("name") }) { case ->
            case.string("description")
            val pages = SharedVectors.strings(case.array("pages"), "pages")
            val error = case.string("error")
            val context = case.string("context_before")
            val locators = pages.map { Locator(it) }
            val candidates = case.obj("candidates")
            for (method in candidates.keys()) {
                val expected = SharedVectors.intLists(candidates.array(method), method)
                val found =
                    locators.flatMapIndexed { page, locator ->
                        locator
                            .mistakeCandidates(
                                LocateMethod.fromWire(method),
                                PyText.strip(error),
                                context,
                            ).map { listOf(page, it.start, it.end) }
                    }
                assertEquals(expected, found, method)
            }
            candidates.allRead()
            val placed = locateMistake(locators, error, context)
            val expected = case.rawOrNull("placed")?.takeUnless { it.isJsonNull }
            if (expected == null) {
                assertNull(placed)
                return@tests
            }
            val want = Fields(expected.asObjectStrict("placed"), "placed")
            val (page, located) = placed ?: throw AssertionError("not placed; expected $expected")
            val span = located.spans.single()
            assertEquals(want.string("method"), located.method.wire)
            assertEquals(want.int("page"), page)
            assertEquals(SharedVectors.intLists(listOf(want.raw("span")), "span").single(), listOf(span.start, span.end))
            assertEquals(want.string("found"), CodePointText(pages[page]).slice(span.start, span.end))
            want.allRead()
        }
}
