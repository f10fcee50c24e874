package dev.redacto.core.rules

import dev.redacto.core.text.PyText
import java.text.Normalizer
import java.util.regex.Pattern

/**
 * Text as the rules read it: Unicode tricks undone, every offset mapped back.
 *
 * The recognizers are written for ASCII; a card typed with no-break spaces or full-width
 * digits, an SSN with an en dash, an e-mail with a zero-width space inside would read as
 * something else and pass the safety net. The rules read a normalised copy and each hit is
 * mapped back onto the characters as written, the invisible ones inside it included:
 * clusters (a character with the combining marks and invisible characters after it) lose
 * their invisible characters (category Cf and [INVISIBLE]), go through NFKC, non-ASCII
 * whitespace becomes a space and every dash (Pd, U+2212) a hyphen-minus; then, between two
 * ASCII digits, a run of one to three ASCII whitespace characters holding a tab or a line
 * break becomes one space. Mirrors `redacto/rules/normalise.py` (its docstring gives the
 * reasons); tests/vectors/normalise holds the shared vectors. Offsets are UTF-16 units.
 */
object RuleNormalise {
    /** Invisible characters that are not format characters (Cf), dropped like them. */
    val INVISIBLE: Set<Int> =
        setOf(0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F) + (0xFE00..0xFE0F)

    private const val MINUS_SIGN = 0x2212

    // \x0B, not \v: java.util.regex reads \v as every vertical space, Python as \x0B alone.
    private val DIGIT_GAP: Pattern = Pattern.compile("[0-9](?=[ ]{0,2}[\\t\\n\\r\\f\\x0B])([ \\t\\n\\r\\f\\x0B]{1,3})(?=[0-9])")
    private const val CONTROL_SPACES = "\t\n\r\u000C\u000B"

    /** [text] as the rules read it, with the way back. */
    fun normalise(text: String): Normalised {
        val maps = mutableListOf<OffsetMap>()
        var read = text
        if (read.any { it.code >= 0x80 }) {
            foldCharacters(read)?.let { (folded, map) ->
                read = folded
                maps.add(map)
            }
        }
        foldDigitGaps(read)?.let { (folded, map) ->
            read = folded
            maps.add(map)
        }
        return Normalised(read, text, maps)
    }

    private fun isInvisible(codePoint: Int): Boolean = codePoint in INVISIBLE || Character.getType(codePoint) == Character.FORMAT.toInt()

    private fun attaches(codePoint: Int): Boolean {
        val type = Character.getType(codePoint)
        return type == Character.NON_SPACING_MARK.toInt() ||
            type == Character.COMBINING_SPACING_MARK.toInt() ||
            type == Character.ENCLOSING_MARK.toInt() ||
            isInvisible(codePoint)
    }

    /** What one cluster (a character and what attaches to it) reads as. */
    private fun foldCluster(cluster: String): String {
        val kept = StringBuilder()
        cluster.codePoints().forEach { if (!isInvisible(it)) kept.appendCodePoint(it) }
        val out = StringBuilder()
        Normalizer.normalize(kept, Normalizer.Form.NFKC).codePoints().forEach { point ->
            when {
                point < 0x80 -> out.appendCodePoint(point)
                PyText.isSpace(point) -> out.append(' ')
                point == MINUS_SIGN || Character.getType(point) == Character.DASH_PUNCTUATION.toInt() -> out.append('-')
                !isInvisible(point) -> out.appendCodePoint(point)
            }
        }
        return out.toString()
    }

    private fun foldCharacters(text: String): Pair<String, OffsetMap>? {
        val rewrite = Rewrite(text)
        var runStart = 0
        while (runStart < text.length) {
            if (text[runStart].code < 0x80) {
                runStart++
                continue
            }
            var end = runStart
            while (end < text.length && text[end].code >= 0x80) end++
            var position = runStart
            if (position > 0 && attaches(text.codePointAt(position))) position-- // a mark joins the ASCII letter before it
            while (position < end) {
                var after = position + Character.charCount(text.codePointAt(position))
                while (after < end && attaches(text.codePointAt(after))) after += Character.charCount(text.codePointAt(after))
                val cluster = text.substring(position, after)
                val read = foldCluster(cluster)
                if (read != cluster) rewrite.replace(position, after, read)
                position = after
            }
            runStart = end
        }
        return rewrite.finish()
    }

    private fun foldDigitGaps(text: String): Pair<String, OffsetMap>? {
        if (text.none { it in CONTROL_SPACES }) return null
        val matcher = DIGIT_GAP.matcher(text)
        if (!matcher.find()) return null
        val rewrite = Rewrite(text)
        do {
            val end = matcher.end(1)
            rewrite.replace(matcher.start(1), end, " ")
        } while (matcher.find(end))
        return rewrite.finish()
    }
}

/** A text as the rules read it ([text]), and the way back to the text as written ([source]). */
class Normalised internal constructor(
    val text: String,
    val source: String,
    internal val maps: List<OffsetMap>,
) {
    /** Whether [text] is [source] itself (no step changed anything). */
    val unchanged: Boolean get() = maps.isEmpty()

    /** The range of [source] the non-empty range [start, end) of [text] came from (UTF-16 units). */
    fun sourceSpan(
        start: Int,
        end: Int,
    ): Pair<Int, Int> {
        var from = start
        var to = end
        for (step in maps.asReversed()) {
            from = step.sourceStart(from)
            to = step.sourceEnd(to)
        }
        return from to to
    }
}

/** A source text rewritten range by range, left to right, and the map back to it. Mirrors Python's `Rewrite`. */
internal class Rewrite(
    private val source: String,
) {
    private val offsets = OffsetMap()
    private val out = StringBuilder()
    private var copied = 0
    private var replaced = false

    /** source[start, end) reads as [text] ("": dropped); ranges come in order, apart. */
    fun replace(
        start: Int,
        end: Int,
        text: String,
    ) {
        out.append(source, copied, start).append(text)
        offsets.keep(copied, start)
        offsets.replace(start, end, text.length)
        copied = end
        replaced = true
    }

    /** The rewritten text and its map; null when nothing was replaced. */
    fun finish(): Pair<String, OffsetMap>? {
        if (!replaced) return null
        out.append(source, copied, source.length)
        offsets.keep(copied, source.length)
        return out.toString() to offsets
    }
}

/**
 * Where each character of a derived text came from in its source: identity segments copy
 * source characters one for one, replaced segments came from a whole source range; dropped
 * characters have no segment. Mirrors Python's `OffsetMap`.
 */
internal class OffsetMap {
    private val starts = ArrayList<Int>()
    private val sourceStarts = ArrayList<Int>()
    private val sourceEnds = ArrayList<Int>()
    private val identity = ArrayList<Boolean>()
    private var length = 0

    fun keep(
        start: Int,
        end: Int,
    ) {
        if (end <= start) return
        if (identity.isNotEmpty() && identity.last() && sourceEnds.last() == start) {
            sourceEnds[sourceEnds.size - 1] = end
        } else {
            add(start, end, true)
        }
        length += end - start
    }

    fun replace(
        start: Int,
        end: Int,
        length: Int,
    ) {
        if (length == 0) return
        add(start, end, false)
        this.length += length
    }

    private fun add(
        start: Int,
        end: Int,
        isIdentity: Boolean,
    ) {
        starts.add(length)
        sourceStarts.add(start)
        sourceEnds.add(end)
        identity.add(isIdentity)
    }

    private fun segmentOf(position: Int): Int {
        var low = 0
        var high = starts.size
        while (low < high) {
            val middle = (low + high) ushr 1
            if (starts[middle] <= position) low = middle + 1 else high = middle
        }
        return low - 1
    }

    fun sourceStart(position: Int): Int {
        val segment = segmentOf(position)
        return if (identity[segment]) sourceStarts[segment] + position - starts[segment] else sourceStarts[segment]
    }

    fun sourceEnd(end: Int): Int {
        val segment = segmentOf(end - 1)
        return if (identity[segment]) sourceStarts[segment] + end - starts[segment] else sourceEnds[segment]
    }
}
