package dev.redacto.core

/** A YAML file used a construct outside the subset [MiniYaml] reads, or is malformed. */
class YamlException(
    message: String,
) : IllegalArgumentException(message)

/**
 * The YAML subset the rule files (the YAML files in `tools/redacto/rules/`) are written in, so the phone
 * reads the very same files as Python without a YAML library: block mappings and sequences,
 * flow sequences (`[a, b]`, may span lines), plain, 'single'- and "double"-quoted scalars,
 * folded (`>`, `>-`) and literal (`|`, `|-`) block scalars, `true`/`false`, integers, `#`
 * comments. Anything else (anchors, tags, flow mappings, tabs, duplicate keys) is refused
 * with the line number, never guessed.
 *
 * Values: mappings are `LinkedHashMap<String, Any?>` (file order kept), sequences `List<Any?>`,
 * scalars `String`, `Boolean`, `Long`, or null for an empty value.
 */
internal class MiniYaml private constructor(
    private val name: String,
    text: String,
) {
    private class Line(
        val number: Int,
        val indent: Int,
        val content: String,
    )

    private val lines: MutableList<Line> =
        text
            .split("\n")
            .mapIndexedNotNull { i, raw ->
                val line = raw.removeSuffix("\r")
                if ('\t' in line.takeWhile { it == ' ' || it == '\t' }) throw YamlException("$name:${i + 1}: tab indentation")
                val stripped = stripComment(line).trimEnd()
                if (stripped.isBlank()) null else Line(i + 1, stripped.length - stripped.trimStart().length, stripped.trimStart())
            }.toMutableList()
    private val rawLines = text.split("\n").map { it.removeSuffix("\r") }
    private var at = 0

    private fun fail(
        line: Line?,
        message: String,
    ): Nothing = throw YamlException("$name:${line?.number ?: "end"}: $message")

    private fun parseDocument(): Any? {
        if (lines.isEmpty()) return null
        if (lines[0].content.startsWith("---")) fail(lines[0], "document markers are not supported")
        val value = parseBlock(lines[0].indent)
        if (at < lines.size) fail(lines[at], "unexpected indentation")
        return value
    }

    private fun parseBlock(indent: Int): Any? {
        val first = lines[at]
        return if (first.content == "-" || first.content.startsWith("- ")) parseSequence(indent) else parseMapping(indent)
    }

    private fun parseSequence(indent: Int): List<Any?> {
        val items = mutableListOf<Any?>()
        while (at < lines.size && lines[at].indent == indent && (lines[at].content == "-" || lines[at].content.startsWith("- "))) {
            val line = lines[at]
            val rest = line.content.removePrefix("-").trimStart()
            if (rest.isEmpty()) {
                at++
                items.add(if (at < lines.size && lines[at].indent > indent) parseBlock(lines[at].indent) else null)
            } else if (keyOf(rest) != null) {
                // "- key: value" opens a mapping whose keys sit at the column after "- ".
                val column = indent + (line.content.length - rest.length)
                lines[at] = Line(line.number, column, rest)
                items.add(parseMapping(column))
            } else {
                at++
                items.add(scalarOrFlow(rest, line, indent))
            }
        }
        return items
    }

    private fun parseMapping(indent: Int): Map<String, Any?> {
        val map = LinkedHashMap<String, Any?>()
        while (at < lines.size && lines[at].indent == indent) {
            val line = lines[at]
            if (line.content.startsWith("- ")) fail(line, "a sequence item where a mapping key was expected")
            val (key, rest) = keyOf(line.content) ?: fail(line, "expected 'key: value'")
            if (key in map) fail(line, "duplicate key '$key'")
            at++
            map[key] =
                when {
                    rest.isEmpty() -> if (at < lines.size && lines[at].indent > indent) parseBlock(lines[at].indent) else null
                    rest.startsWith(">") || rest.startsWith("|") -> blockScalar(rest, line, indent)
                    else -> scalarOrFlow(rest, line, indent)
                }
        }
        if (at < lines.size && lines[at].indent > indent) fail(lines[at], "unexpected indentation")
        return map
    }

    /** A flow sequence may continue on following lines until its brackets balance. */
    private fun scalarOrFlow(
        text: String,
        line: Line,
        indent: Int,
    ): Any? {
        if (!text.startsWith("[")) return scalar(text, line)
        var flow = text
        while (!balanced(flow)) {
            if (at >= lines.size || lines[at].indent <= indent) fail(line, "unterminated flow sequence")
            flow += " " + lines[at].content
            at++
        }
        return flowSequence(flow, line)
    }

    private fun balanced(flow: String): Boolean {
        var depth = 0
        outsideQuotes(flow) { _, char ->
            if (char == '[') depth++
            if (char == ']') depth--
            false
        }
        return depth == 0
    }

    private fun flowSequence(
        flow: String,
        line: Line,
    ): List<Any?> {
        val trimmed = flow.trim()
        if (!trimmed.endsWith("]")) fail(line, "text after a flow sequence")
        val inner = trimmed.substring(1, trimmed.length - 1)
        if (inner.isBlank()) return emptyList()
        val items = mutableListOf<String>()
        val current = StringBuilder()
        var quote: Char? = null
        for (char in inner) {
            when {
                quote != null -> {
                    current.append(char)
                    if (char == quote) quote = null
                }

                char == '\'' || char == '"' -> {
                    quote = char
                    current.append(char)
                }

                char == '[' || char == ']' || char == '{' || char == '}' -> {
                    fail(line, "nested flow collections are not supported")
                }

                char == ',' -> {
                    items.add(current.toString().trim())
                    current.setLength(0)
                }

                else -> {
                    current.append(char)
                }
            }
        }
        items.add(current.toString().trim())
        if (items.last().isEmpty()) items.removeAt(items.lastIndex)
        if (items.any { it.isEmpty() }) fail(line, "empty item in a flow sequence")
        return items.map { scalar(it, line) }
    }

    private fun blockScalar(
        header: String,
        line: Line,
        indent: Int,
    ): String {
        if (header !in setOf(">", ">-", "|", "|-")) fail(line, "block scalar header '$header' is not supported")
        val body = mutableListOf<String>()
        // Take raw lines (blank ones included) that are indented deeper than the key.
        var rawIndex = line.number
        var blockIndent = -1
        while (rawIndex < rawLines.size) {
            val raw = rawLines[rawIndex]
            if (raw.isBlank()) {
                body.add("")
                rawIndex++
                continue
            }
            val rawIndent = raw.length - raw.trimStart().length
            if (rawIndent <= indent) break
            if (blockIndent < 0) blockIndent = rawIndent
            if (rawIndent < blockIndent) fail(line, "block scalar lines must share one indentation")
            body.add(raw.substring(blockIndent))
            rawIndex++
        }
        while (body.isNotEmpty() && body.last().isEmpty()) body.removeAt(body.lastIndex)
        while (at < lines.size && lines[at].number <= rawIndex) at++
        val text =
            if (header.startsWith("|")) {
                body.joinToString("\n")
            } else {
                val folded = StringBuilder()
                body.forEachIndexed { i, part ->
                    if (i > 0) folded.append(if (part.isEmpty() || body[i - 1].isEmpty()) "\n" else " ")
                    folded.append(part)
                }
                folded.toString().replace("\n\n", "\n")
            }
        return if (header.endsWith("-")) text else text + "\n"
    }

    private fun scalar(
        text: String,
        line: Line,
    ): Any? {
        if (text.startsWith("'")) {
            if (text.length < 2 || !text.endsWith("'")) fail(line, "unterminated single-quoted scalar")
            val inner = text.substring(1, text.length - 1)
            if (inner.replace("''", "").contains('\'')) fail(line, "stray quote in a single-quoted scalar")
            return inner.replace("''", "'")
        }
        if (text.startsWith("\"")) return doubleQuoted(text, line)
        if (text[0] in "&*!{|>%@`") fail(line, "'${text[0]}' is not supported in this YAML subset")
        return when {
            text == "true" -> true
            text == "false" -> false
            text == "null" || text == "~" -> null
            INTEGER.matches(text) -> text.toLong()
            else -> text
        }
    }

    private fun doubleQuoted(
        text: String,
        line: Line,
    ): String {
        if (text.length < 2 || !text.endsWith("\"")) fail(line, "unterminated double-quoted scalar")
        val out = StringBuilder()
        var i = 1
        while (i < text.length - 1) {
            val char = text[i]
            if (char == '"') fail(line, "stray quote in a double-quoted scalar")
            if (char != '\\') {
                out.append(char)
                i++
                continue
            }
            val escape = text.getOrNull(i + 1) ?: fail(line, "dangling backslash")
            out.append(
                when (escape) {
                    '\\' -> '\\'
                    '"' -> '"'
                    'n' -> '\n'
                    't' -> '\t'
                    '/' -> '/'
                    else -> fail(line, "escape \\$escape is not supported")
                },
            )
            i += 2
        }
        return out.toString()
    }

    companion object {
        private val INTEGER = Regex("[-+]?[0-9]+")
        private val KEY = Regex("""^([^'"\[\]{}#&*!|>%@`\-?:][^:#]*?|'[^']*'):(?: (.*))?$""")

        /** Parses [text] (named [name] in error messages). */
        fun parse(
            text: String,
            name: String,
        ): Any? = MiniYaml(name, text).parseDocument()

        /** `key: rest`, or null when the line is not a mapping entry. */
        private fun keyOf(content: String): Pair<String, String>? {
            val match = KEY.find(content) ?: return null
            val key = match.groupValues[1].trim().removeSurrounding("'")
            return key to match.groupValues[2].trim()
        }

        /** Drops a `#` comment that is not inside quotes (a comment needs a space before it). */
        private fun stripComment(line: String): String {
            var cut = line.length
            outsideQuotes(line) { i, char ->
                (char == '#' && (i == 0 || line[i - 1] == ' ')).also { if (it) cut = i }
            }
            return line.substring(0, cut)
        }

        /**
         * Calls [visit] with each character outside quoted scalars (a quote opens only at the
         * start of a value; `''` inside single quotes is an escaped quote); stops when it returns true.
         */
        private fun outsideQuotes(
            text: String,
            visit: (Int, Char) -> Boolean,
        ) {
            var quote: Char? = null
            var i = 0
            while (i < text.length) {
                val char = text[i]
                if (quote != null) {
                    if (char == quote && quote == '\'' && text.getOrNull(i + 1) == '\'') {
                        i += 2
                        continue
                    }
                    if (char == quote && (quote == '\'' || text[i - 1] != '\\')) quote = null
                } else if ((char == '\'' || char == '"') && (i == 0 || text[i - 1] in " [,:")) {
                    quote = char
                } else if (visit(i, char)) {
                    return
                }
                i++
            }
        }
    }
}
