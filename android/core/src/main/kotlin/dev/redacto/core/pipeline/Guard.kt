package dev.redacto.core.pipeline

import dev.redacto.core.RejectReason
import dev.redacto.core.engines.Decoding

/*
 * Stop a reply early once it has left the step's line format.
 *
 * A small model that loses the format rarely finds it again: it echoes the prompt or repeats
 * itself until the output budget runs out — tens of seconds per call on a phone's CPU, spent
 * on text the parsers drop. [LineWatch] reads the reply line by line exactly as the step's
 * parser does and stops decoding after [MAX_WASTED_LINES] unusable lines in a row
 * (unparseable or repeated), or at a line longer than any answer line can be. Everything
 * parsed before the stop is kept; the stop is recorded in the step's trace. A stopped reply
 * was not read whole, so a verdict read from it cannot stand (validate fails closed on it).
 * Mirrors `pipeline/guard.py`.
 */

/**
 * Unusable lines in a row before decoding stops. Measured (docs/pipeline.md): at 5 the base
 * 270M was stopped inside its echo of the prompt, before the document's own `Field: value`
 * lines that text-mode detect reads as items; at 12 smoke text recall was 52.9 % (38.5 % at 5).
 */
const val MAX_WASTED_LINES = 12

/**
 * The longest line an answer can need (in code points): an `INDEX:LABEL` line is under 40
 * characters and a text-mode `LABEL: value` line holds one identifier, not a paragraph.
 */
const val MAX_LINE_CHARS = 400

private val WASTED = setOf(RejectReason.JUNK, RejectReason.DUPLICATE)

/**
 * Lines in a row that repeat earlier ones before a constrained reply is stopped. Not 1: the
 * default sometimes says one line twice and then names what it had not; a loop repeats every
 * line from then on. Mirrors `guard.MAX_REPEATED_LINES`.
 */
const val MAX_REPEATED_LINES = 2

/**
 * Feeds each complete line to [onLine] and says when the reply is no longer worth it.
 *
 * [rejected] is the list the step's parser appends its dropped lines to; a line it drops as
 * junk or as a repeat counts as wasted, a line it uses (or rejects for a reason that shows
 * the format was followed, such as an unknown label) resets the count. Blank and `NONE`
 * lines count neither way.
 */
class LineWatch(
    private val onLine: (String) -> Unit,
    private val rejected: List<LineRejected>,
    private val maxWastedLines: Int = MAX_WASTED_LINES,
    /**
     * Stop once [MAX_REPEATED_LINES] lines in a row repeat earlier ones: a constrained reply
     * cannot leave the format, only loop through the page's values.
     */
    private val stopOnRepeat: Boolean = false,
) {
    private val said = mutableSetOf<String>()
    private var repeatsInARow = 0

    /** Unusable lines read since the last usable one. */
    var wastedInARow: Int = 0
        private set
    private var stop = false
    private var pendingChars = 0
    private val splitter = LineSplitter(::readLine)

    /** Reads one piece of the reply; [Decoding.STOP] once it is no longer an answer. */
    fun feed(piece: String): Decoding {
        splitter.feed(piece)
        val lastNewline = piece.lastIndexOf('\n')
        val unfinished = piece.codePointCount(lastNewline + 1, piece.length)
        pendingChars = if (lastNewline < 0) pendingChars + unfinished else unfinished
        if (pendingChars > MAX_LINE_CHARS) stop = true
        return if (stop) Decoding.STOP else Decoding.CONTINUE
    }

    /** Reads a last line that had no newline. */
    fun finish() {
        splitter.finish()
    }

    /**
     * Decoding was stopped: part of the reply (at least the line that tripped the stop, or
     * everything after it) was never read, even when the model had already ended.
     */
    val stopped: Boolean
        get() = stop

    private fun readLine(line: String) {
        if (stop) return // pieces can hold several lines; nothing after the stop is read
        val before = rejected.size
        onLine(line)
        if (isNothing(line)) return
        val dropped = rejected.subList(before, rejected.size)
        if (dropped.isNotEmpty() && dropped.all { it.reason in WASTED }) {
            wastedInARow += 1
            stop = wastedInARow >= maxWastedLines
        } else {
            wastedInARow = 0
        }
        if (stopOnRepeat) {
            // Python's " ".join(line.split()).
            val normal = line.split(WHITESPACE_RUN).filter { it.isNotEmpty() }.joinToString(" ")
            repeatsInARow = if (normal in said) repeatsInARow + 1 else 0
            stop = stop || repeatsInARow >= MAX_REPEATED_LINES
            said.add(normal)
        }
    }

    private companion object {
        val WHITESPACE_RUN = Regex("[\\s\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u001c-\u001f]+")
    }
}

/**
 * Turns a stream of text pieces into complete lines, acting on each as soon as it ends.
 * [LineWatch] reads every reply through one, so detect and validate act on each line (and
 * boxes are drawn) while the model is still talking.
 */
class LineSplitter(
    private val onLine: (String) -> Unit,
) {
    private val pending = StringBuilder()

    fun feed(piece: String) {
        var start = 0
        while (true) {
            val newline = piece.indexOf('\n', start)
            if (newline < 0) break
            pending.append(piece, start, newline)
            onLine(pending.toString())
            pending.setLength(0)
            start = newline + 1
        }
        pending.append(piece, start, piece.length)
    }

    /** Flushes a last line that had no newline. */
    fun finish() {
        if (pending.isNotEmpty()) {
            onLine(pending.toString())
            pending.setLength(0)
        }
    }
}
