package dev.redacto.core.text

import java.text.Normalizer

/** Comma-separated words, case-folded; a line starting with `#` is a comment. */
internal fun wordList(text: String): Set<String> =
    text
        .lines()
        .filterNot { it.trim().startsWith("#") }
        .joinToString(" ")
        .split(",")
        .map { PyText.casefold(it.trim()) }
        .filter { it.isNotEmpty() }
        .toSet()

/**
 * Words no detector may name a NAME on their own: pronouns, function words, greetings and
 * openers of English and French (FINDINGS 3: `My`, `I`, `The` were redacted as names). Mirrors
 * `redacto.text.not_names`: one list for every tier.
 */
object NotNames {
    private const val NAME_LABEL = "NAME"

    /** `not_names.txt`, case-folded. */
    val WORDS: Set<String> =
        wordList(
            """
            # English: pronouns and possessives
            i, me, my, mine, myself, you, your, yours, yourself, he,
            him, his, himself, she, her, hers, herself, it, its, itself,
            we, us, our, ours, they, them, their, theirs, one,
            # English: determiners, conjunctions, prepositions, sentence openers
            a, an, the, this, that, these, those, and, or, but,
            nor, so, yet, if, then, than, as, at, by, for,
            from, in, into, of, on, onto, to, with, without, about,
            after, before, dear, hello, hi, hey, thanks, thank, please, yes,
            no, not, ok, okay, there, here, where, when, what, which,
            who, whom, whose, why, how, all, any, some, each, every,
            # English: a pronoun with its verb, written as one word
            i'm, i'll, i'd, i've, you're, you'll, you've, we're, we'll, it's,
            that's, there's, let's,
            # English: greetings, closings and imperatives that open a message
            kind, regards, best, cheers, help, call, write, send, ask, tell,
            sign, order,
            # English: auxiliaries and modal verbs that open questions
            am, is, are, was, were, be, been, do, does, did,
            have, has, had, can, could, shall, should, would, must, might,
            let,
            # French: pronouns and possessives
            je, j, moi, tu, toi, il, elle, on, nous, vous,
            ils, elles, lui, leur, leurs, mon, ma, mes, ton, ta,
            tes, son, sa, ses, notre, nos, votre, vos,
            # French: determiners, conjunctions, prepositions, sentence openers
            le, la, les, l, un, une, des, du, de, d,
            au, aux, ce, cet, cette, ces, et, ou, mais, donc,
            car, ni, si, que, qui, quoi, quand, comment, pourquoi, dans,
            avec, sans, pour, par, sur, chez, bonjour, bonsoir, salut, coucou,
            cordialement, bises, merci, madame, monsieur, oui, non, voici, voilà, est,
            sont, peux, peut, pouvez,
            """,
        )

    /**
     * True when [value], named [label], is a lone word that is never a NAME (`My`, `Je`, `L'`):
     * its letters and digits trimmed of anything else at both ends, NFC, case-folded. Anything
     * but a NAME, or a value of more than one word, is false.
     */
    fun isNotAName(
        label: String,
        value: String?,
    ): Boolean {
        if (label != NAME_LABEL || value == null) return false
        val points = value.codePoints().toArray()
        var start = 0
        var end = points.size
        while (start < end && !PyText.isAlnum(points[start])) start++
        while (end > start && !PyText.isAlnum(points[end - 1])) end--
        val core = PyText.casefold(Normalizer.normalize(String(points, start, end - start), Normalizer.Form.NFC))
        if (core.isEmpty() || core.codePoints().anyMatch { PyText.isSpace(it) }) return false
        return core in WORDS
    }
}
