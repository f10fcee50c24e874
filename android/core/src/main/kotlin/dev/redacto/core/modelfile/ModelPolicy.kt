package dev.redacto.core.modelfile

import dev.redacto.core.ModelIdentity
import java.security.MessageDigest

/*
 * A model's policy travels inside its file. Mirrors `tools/redacto/modelfile/policy.py` (the
 * policy text, its seal, the phone's rule); what a run makes of it is the pipeline's
 * (`pipeline/ModelSettings.kt`, Python's `pipeline/policy.py`).
 *
 * `redacto model build` writes two system metadata entries into each `.litertlm` it makes:
 * `redacto.policy`, a small text (first line `redacto-model-policy 1`, then one `key value`
 * line each, the value a JSON scalar: the manifest, the quantisation, the build fingerprint,
 * the sha256 of the model's content, and the manifest's `[pipeline]` settings), and
 * `redacto.policy_seal`, the sha256 of that text. [checkModelFile] reads them from the file the
 * user picked, never from its name. The seal and the content digest catch accidents and
 * careless edits; they are checksums, not a signature, so they cannot stop a deliberate forger.
 */

/** The system metadata key of the policy text. */
const val POLICY_KEY = "redacto.policy"

/** The system metadata key of the policy's seal (the sha256 of its text, hex). */
const val SEAL_KEY = "redacto.policy_seal"

/** The policy text's first line; a file with another is a policy this version cannot read. */
const val POLICY_FORMAT = "redacto-model-policy 1"

/** A policy text this version cannot read: the model is unknown (fails closed). */
class PolicyFormatException(
    message: String,
) : IllegalArgumentException(message)

/** What a built model file says of itself: where it came from and how a run may use it. */
data class ModelPolicy(
    val manifest: String,
    val quant: String,
    val fingerprint: String,
    /** The sha256 of every byte from the first section to the end of the file, hex. */
    val contentSha256: String,
    val pipeline: PipelineSettings,
) {
    companion object {
        private val IDENTITY_KEYS = listOf("manifest", "quant", "fingerprint", "content_sha256")

        /**
         * Reads a policy text as Python's `ModelPolicy.parse` does; throws [PolicyFormatException]
         * for anything it would refuse: another format line, no final newline, an unknown,
         * missing or repeated key, a value that is no JSON scalar or not of its setting's type.
         */
        fun parse(text: String): ModelPolicy {
            val lines = text.split("\n")
            if (lines.first() != POLICY_FORMAT || lines.last() != "") {
                throw PolicyFormatException("unknown policy format '${lines.first().take(40)}'")
            }
            val values = LinkedHashMap<String, Any?>()
            for (line in lines.subList(1, lines.size - 1)) {
                val space = line.indexOf(' ')
                val key = if (space < 0) line else line.substring(0, space)
                if (space < 0 || key in values) throw PolicyFormatException("bad or repeated policy line for '${key.take(40)}'")
                values[key] = JsonScalar.parse(line.substring(space + 1), key)
            }
            val identity =
                IDENTITY_KEYS.map { key ->
                    values.remove(key) as? String
                        ?: throw PolicyFormatException("policy $key is not a string")
                }
            return ModelPolicy(identity[0], identity[1], identity[2], identity[3], settingsOf(values))
        }

        private val SETTING_KEYS =
            setOf("trust_validator_pass", "image_reading", "model_redact", "constrained_decoding", "validator_verdict", "pass_margin")

        /** `PipelineSettings.model_validate_json(..., strict=True)`: exact types, no unknown key. */
        private fun settingsOf(values: Map<String, Any?>): PipelineSettings {
            val unknown = values.keys - SETTING_KEYS
            if (unknown.isNotEmpty()) invalid("unknown settings $unknown")

            fun flag(
                key: String,
                default: Boolean,
            ): Boolean = if (key in values) values[key] as? Boolean ?: invalid(key) else default

            fun <T> choice(
                key: String,
                default: T,
                fromWire: (String) -> T,
            ): T {
                if (key !in values) return default
                val wire = values[key] as? String ?: invalid(key)
                return runCatching { fromWire(wire) }.getOrElse { invalid(key) }
            }
            val defaults = PipelineSettings()
            val margin = values["pass_margin"]
            return PipelineSettings(
                trustValidatorPass = flag("trust_validator_pass", defaults.trustValidatorPass),
                imageReading = choice("image_reading", defaults.imageReading, ImageReading::fromWire),
                modelRedact = flag("model_redact", defaults.modelRedact),
                constrainedDecoding = choice("constrained_decoding", defaults.constrainedDecoding, ConstrainedDecoding::fromWire),
                validatorVerdict = choice("validator_verdict", defaults.validatorVerdict, ValidatorVerdict::fromWire),
                passMargin = if (margin == null) null else (margin as? Double)?.takeIf { it.isFinite() } ?: invalid("pass_margin"),
            )
        }

        private fun invalid(what: String): Nothing = throw PolicyFormatException("policy does not validate: $what")
    }
}

/** The seal of a policy text: the sha256 of its UTF-8 bytes, hex. */
fun sealOf(text: String): String = MessageDigest.getInstance("SHA-256").digest(text.toByteArray(Charsets.UTF_8)).toHex()

internal fun ByteArray.toHex(): String = joinToString("") { "%02x".format(it) }

/**
 * A model's settings as the phone may use them (Python's `phone_settings`). The phone's runtime
 * cannot score (`litertlm-android` 0.18.0 has no text scoring), so it reads every verdict by the
 * answer rule: a model whose trust rests on the scored rule is not trusted here.
 */
fun phoneSettings(settings: PipelineSettings): PipelineSettings =
    PipelineSettings(
        trustValidatorPass = settings.trustValidatorPass && settings.validatorVerdict == ValidatorVerdict.ANSWER,
        imageReading = settings.imageReading,
        modelRedact = settings.modelRedact,
        constrainedDecoding = settings.constrainedDecoding,
    )

/**
 * One line for a person: which model this is by its own policy, and whether its validator's
 * PASS is trusted under [settings] ("redacto-270m int8 · validator not trusted", "unknown model
 * (no policy in the file) · validator not measured"). Python's `policy_line`, which the review
 * page shows, word for word.
 */
fun policyLine(
    identity: ModelIdentity,
    settings: PipelineSettings,
): String {
    if (!identity.policy.trusted) return "unknown model (${identity.policy.wire}) · validator not measured"
    val origin = if (identity.manifest.isNullOrEmpty()) "declared by its engine" else "${identity.manifest} ${identity.quant}"
    val trust = if (settings.trustValidatorPass) "trusted" else "not trusted"
    return "$origin · validator $trust"
}

/**
 * One JSON scalar as Python's `json.loads` reads it: a string, `true`, `false`, `null` or a
 * number (as a Double, Python's `NaN` and `±Infinity` included), with JSON whitespace around it.
 * A list or an object is refused as in the policy reader, so is anything else.
 */
private class JsonScalar private constructor(
    private val text: String,
    private val key: String,
) {
    private var at = 0

    companion object {
        private val NUMBER = Regex("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")
        private val SPECIAL = mapOf("NaN" to Double.NaN, "Infinity" to Double.POSITIVE_INFINITY, "-Infinity" to Double.NEGATIVE_INFINITY)
        private val LITERALS = mapOf("true" to true, "false" to false, "null" to null)

        fun parse(
            text: String,
            key: String,
        ): Any? = JsonScalar(text, key).whole()
    }

    private fun fail(what: String = "is not JSON"): Nothing = throw PolicyFormatException("policy value of '$key' $what")

    private fun skipSpace() {
        while (at < text.length && text[at] in " \t\n\r") at++
    }

    private fun whole(): Any? {
        skipSpace()
        if (at < text.length && text[at] in "[{") fail("is not a scalar")
        val value = value()
        skipSpace()
        if (at != text.length) fail()
        return value
    }

    private fun value(): Any? {
        if (at < text.length && text[at] == '"') return string()
        for ((word, value) in LITERALS + SPECIAL) {
            if (text.startsWith(word, at)) {
                at += word.length
                return value
            }
        }
        val number = NUMBER.matchAt(text, at) ?: fail()
        at = number.range.last + 1
        return number.value.toDouble()
    }

    private fun string(): String {
        val out = StringBuilder()
        at++
        while (true) {
            if (at >= text.length) fail()
            val ch = text[at++]
            when {
                ch == '"' -> return out.toString()
                ch < ' ' -> fail()
                ch != '\\' -> out.append(ch)
                else -> out.append(escape())
            }
        }
    }

    private fun escape(): Char {
        if (at >= text.length) fail()
        return when (val ch = text[at++]) {
            '"', '\\', '/' -> {
                ch
            }

            'b' -> {
                '\b'
            }

            'f' -> {
                '\u000C'
            }

            'n' -> {
                '\n'
            }

            'r' -> {
                '\r'
            }

            't' -> {
                '\t'
            }

            'u' -> {
                val hex = text.substring(at, minOf(at + 4, text.length))
                if (hex.length != 4 || !hex.all { it in "0123456789abcdefABCDEF" }) fail()
                at += 4
                hex.toInt(16).toChar()
            }

            else -> {
                fail()
            }
        }
    }
}
