package dev.redacto.core.text

/**
 * A small strict JSON reader for the model files core reads itself (the NER tokenizer's
 * `tokenizer.json`): objects become [Map]s in file order, arrays [List]s, numbers [Double]s
 * (or [Long]s when whole and written without a fraction), and null, true, false as such.
 * Core has no JSON library on its main classpath, and this one file format does not justify one.
 */
internal object TinyJson {
    /** The single JSON value in [text]; anything malformed or trailing is an IllegalArgumentException. */
    fun parse(text: String): Any? {
        val reader = Reader(text)
        val value = reader.value()
        reader.skipSpace()
        require(reader.position == text.length) { "trailing content at ${reader.position}" }
        return value
    }

    private class Reader(
        val text: String,
    ) {
        var position = 0

        fun skipSpace() {
            while (position < text.length && text[position] in " \t\r\n") position++
        }

        fun value(): Any? {
            skipSpace()
            require(position < text.length) { "unexpected end of JSON" }
            return when (val c = text[position]) {
                '{' -> objectValue()
                '[' -> arrayValue()
                '"' -> stringValue()
                't' -> literal("true", true)
                'f' -> literal("false", false)
                'n' -> literal("null", null)
                else -> if (c == '-' || c in '0'..'9') numberValue() else throw IllegalArgumentException("unexpected '$c' at $position")
            }
        }

        private fun literal(
            word: String,
            result: Any?,
        ): Any? {
            require(text.startsWith(word, position)) { "unexpected token at $position" }
            position += word.length
            return result
        }

        private fun objectValue(): Map<String, Any?> {
            val map = LinkedHashMap<String, Any?>()
            position++
            skipSpace()
            if (text[position] == '}') return map.also { position++ }
            while (true) {
                skipSpace()
                require(text[position] == '"') { "expected a key at $position" }
                val key = stringValue()
                require(key !in map) { "duplicate key '$key'" }
                skipSpace()
                require(text[position++] == ':') { "expected ':' at ${position - 1}" }
                map[key] = value()
                skipSpace()
                when (text[position++]) {
                    ',' -> continue
                    '}' -> return map
                    else -> throw IllegalArgumentException("expected ',' or '}' at ${position - 1}")
                }
            }
        }

        private fun arrayValue(): List<Any?> {
            val list = ArrayList<Any?>()
            position++
            skipSpace()
            if (text[position] == ']') return list.also { position++ }
            while (true) {
                list.add(value())
                skipSpace()
                when (text[position++]) {
                    ',' -> continue
                    ']' -> return list
                    else -> throw IllegalArgumentException("expected ',' or ']' at ${position - 1}")
                }
            }
        }

        private fun stringValue(): String {
            val out = StringBuilder()
            position++
            while (true) {
                require(position < text.length) { "unterminated string" }
                val c = text[position++]
                when {
                    c == '"' -> {
                        return out.toString()
                    }

                    c == '\\' -> {
                        when (val escaped = text[position++]) {
                            '"', '\\', '/' -> out.append(escaped)
                            'b' -> out.append('\b')
                            'f' -> out.append('\u000c')
                            'n' -> out.append('\n')
                            'r' -> out.append('\r')
                            't' -> out.append('\t')
                            'u' -> out.append(text.substring(position, position + 4).toInt(16).toChar()).also { position += 4 }
                            else -> throw IllegalArgumentException("bad escape '\\$escaped' at $position")
                        }
                    }

                    c < ' ' -> {
                        throw IllegalArgumentException("control character in a string at ${position - 1}")
                    }

                    else -> {
                        out.append(c)
                    }
                }
            }
        }

        private fun numberValue(): Any {
            val start = position
            while (position < text.length && (text[position] in "+-.eE" || text[position] in '0'..'9')) position++
            val number = text.substring(start, position)
            return if (number.any { it in ".eE" }) number.toDouble() else number.toLong()
        }
    }
}
