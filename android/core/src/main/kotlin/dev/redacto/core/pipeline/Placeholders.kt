package dev.redacto.core.pipeline

import dev.redacto.core.text.PyText

/*
 * `[LABEL_N]` placeholders: one number per distinct value per document.
 *
 * The same value gets the same placeholder everywhere, so a reader of the redacted output can
 * still tell that "[NAME_1] called [NAME_2]; [NAME_1] paid" involves two people. Values are
 * compared by their normalised form (letters and digits, case-folded), so "Smith," and
 * "SMITH" are one value. Mirrors `pipeline/placeholders.py`.
 */

/** The form two values are compared in; punctuation-only values compare as written. */
fun valueKey(value: String): String {
    val letters = skeleton(value)
    if (letters.isNotEmpty()) return letters
    return PyText.casefold(PyText.strip(value))
}

fun placeholder(
    label: String,
    number: Int,
): String = "[${label}_$number]"

/**
 * Hands out placeholders in the order values are first seen. The first label a value is
 * seen with is kept for it: one value, one placeholder, even if a later detection names it
 * differently.
 */
class PlaceholderBook {
    private val byValue = mutableMapOf<String, String>()
    private val nextNumber = mutableMapOf<String, Int>()

    /** The placeholder for [value], numbering it now if it is new. */
    fun assign(
        label: String,
        value: String,
    ): String {
        val key = valueKey(value)
        byValue[key]?.let { return it }
        val number = (nextNumber[label] ?: 0) + 1
        nextNumber[label] = number
        return placeholder(label, number).also { byValue[key] = it }
    }

    val size: Int get() = byValue.size
}
