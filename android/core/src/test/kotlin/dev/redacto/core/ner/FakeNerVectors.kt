package dev.redacto.core.ner

import dev.redacto.core.Vectors

/** A vector's text, and a [NerTier] whose fake tokenizer and model replay that vector. */
fun fakeNerTier(name: String): Pair<String, NerTier> {
    val vector = Vectors.load(java.io.File(Vectors.root, "ner/$name.json"))
    val settings = vector.obj("settings")
    val labels = settings.array("labels").map { it.asString }
    val tokens = vector.array("tokens").map { raw -> raw.asJsonArray.let { NerToken(it[0].asInt, it[1].asInt, it[2].asInt) } }
    val windows =
        vector.array("windows").map { raw ->
            val window = raw.asJsonObject
            val best = window["best"].asJsonArray.map { pair -> pair.asJsonArray.let { it[0].asInt to it[1].asDouble } }
            StoredWindow(window["start"].asInt, window["end"].asInt, best, null)
        }
    val clsId = settings.int("cls_id")
    val sepId = settings.int("sep_id")
    val tokenizer = FakeNerTokenizer(Tokenized(tokens, vector.array("word_ids").map { it.asInt }), clsId, sepId)
    val model = FakeNerModel(labels, windows, tokens.map { it.id }, clsId, sepId)
    return vector.string("text") to NerTier(NerReader(tokenizer, model))
}
