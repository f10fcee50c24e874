package dev.redacto.core

import com.google.gson.JsonArray
import com.google.gson.JsonElement
import com.google.gson.JsonNull
import com.google.gson.JsonObject
import com.google.gson.JsonPrimitive
import com.google.gson.stream.JsonReader
import com.google.gson.stream.JsonToken
import java.io.StringReader
import java.math.BigDecimal

/**
 * Strict JSON for the golden vectors, on Debian's Gson: no lenient syntax, no duplicate keys,
 * nothing after the document. A vector either means exactly one thing or fails to load.
 */
object StrictJson {
    fun parse(text: String): JsonElement {
        val reader = JsonReader(StringReader(text))
        reader.isLenient = false
        val value = read(reader)
        check(reader.peek() == JsonToken.END_DOCUMENT) { "trailing content after the JSON document" }
        return value
    }

    private fun read(reader: JsonReader): JsonElement =
        when (reader.peek()) {
            JsonToken.BEGIN_OBJECT -> {
                val obj = JsonObject()
                reader.beginObject()
                while (reader.hasNext()) {
                    val name = reader.nextName()
                    check(!obj.has(name)) { "duplicate key '$name' at ${reader.path}" }
                    obj.add(name, read(reader))
                }
                reader.endObject()
                obj
            }

            JsonToken.BEGIN_ARRAY -> {
                val array = JsonArray()
                reader.beginArray()
                while (reader.hasNext()) array.add(read(reader))
                reader.endArray()
                array
            }

            JsonToken.STRING -> {
                JsonPrimitive(reader.nextString())
            }

            JsonToken.NUMBER -> {
                JsonPrimitive(BigDecimal(reader.nextString()))
            }

            JsonToken.BOOLEAN -> {
                JsonPrimitive(reader.nextBoolean())
            }

            JsonToken.NULL -> {
                reader.nextNull()
                JsonNull.INSTANCE
            }

            else -> {
                error("unexpected JSON token ${reader.peek()} at ${reader.path}")
            }
        }
}

/** Typed, checked access to a JSON object; every key read is remembered so unknown keys can be refused. */
class Fields(
    private val obj: JsonObject,
    private val where: String,
) {
    private val read = mutableSetOf<String>()

    fun has(key: String): Boolean = obj.has(key)

    fun raw(key: String): JsonElement {
        read.add(key)
        return obj.get(key) ?: throw AssertionError("$where: missing key '$key'")
    }

    fun rawOrNull(key: String): JsonElement? {
        read.add(key)
        return obj.get(key)
    }

    fun string(key: String): String = raw(key).asStringStrict("$where.$key")

    fun stringOrNull(key: String): String? = rawOrNull(key)?.takeUnless { it.isJsonNull }?.asStringStrict("$where.$key")

    fun int(key: String): Int = raw(key).asIntStrict("$where.$key")

    fun bool(key: String): Boolean = raw(key).asBoolStrict("$where.$key")

    fun array(key: String): List<JsonElement> = raw(key).asArrayStrict("$where.$key")

    fun obj(key: String): Fields = Fields(raw(key).asObjectStrict("$where.$key"), "$where.$key")

    fun keys(): Set<String> = obj.keySet()

    /** Fails when the object holds a key outside [allowed]: a field one side does not know. */
    fun onlyKeys(allowed: Set<String>) {
        val unknown = obj.keySet() - allowed
        if (unknown.isNotEmpty()) throw AssertionError("$where: unknown keys $unknown (allowed: $allowed)")
    }

    /** Fails when a key was never read: an expectation this runner would silently skip. */
    fun allRead() {
        val unread = obj.keySet() - read
        if (unread.isNotEmpty()) throw AssertionError("$where: keys not checked by the Kotlin runner: $unread")
    }
}

fun JsonElement.asStringStrict(where: String): String {
    if (!isJsonPrimitive || !asJsonPrimitive.isString) throw AssertionError("$where: expected a string, got $this")
    return asString
}

fun JsonElement.asIntStrict(where: String): Int {
    if (!isJsonPrimitive || !asJsonPrimitive.isNumber) throw AssertionError("$where: expected an integer, got $this")
    return try {
        asBigDecimal.intValueExact()
    } catch (error: ArithmeticException) {
        throw AssertionError("$where: expected an integer, got $this")
    }
}

fun JsonElement.asDoubleStrict(where: String): Double {
    if (!isJsonPrimitive || !asJsonPrimitive.isNumber) throw AssertionError("$where: expected a number, got $this")
    return asDouble
}

fun JsonElement.asBoolStrict(where: String): Boolean {
    if (!isJsonPrimitive || !asJsonPrimitive.isBoolean) throw AssertionError("$where: expected a boolean, got $this")
    return asBoolean
}

fun JsonElement.asArrayStrict(where: String): List<JsonElement> {
    if (!isJsonArray) throw AssertionError("$where: expected an array, got $this")
    return asJsonArray.toList()
}

fun JsonElement.asObjectStrict(where: String): JsonObject {
    if (!isJsonObject) throw AssertionError("$where: expected an object, got $this")
    return asJsonObject
}
