package dev.redacto.core.rules

import dev.redacto.core.Category
import dev.redacto.core.Detection
import dev.redacto.core.Document
import dev.redacto.core.Mode
import dev.redacto.core.Source
import dev.redacto.core.Span
import dev.redacto.core.prompts.PipelinePrompts
import dev.redacto.core.text.PyText
import java.util.regex.Pattern

/**
 * The rule safety net: checksum-validated recognizers whose hits join the model's.
 *
 * A small model misses things; a missed account number is a leak. Identifiers with structure
 * (emails, phones, cards, IBANs, SSNs, dates, record numbers next to their names, IPs,
 * personal URLs) are found deterministically, on the same elements and indices the model
 * sees. The pipeline adds these detections to the model's — by index in image mode — and
 * never uses them to remove one.
 *
 * The recognizers are data: the very files Python reads (`tools/redacto/rules/recognizers.yaml`
 * and `categories.yaml`), compiled in as [RuleFiles] by `redacto rules kotlin` (as the prompts
 * are) and checked here at load. Mirrors `redacto.rules`; tests/vectors/rules holds the
 * shared golden vectors.
 */
object Rules {
    /** The catalog shipped with the core (loaded once, checked at load). */
    val catalog: RuleCatalog by lazy { RuleCatalog.load() }

    /** The pipeline's rule detector over the shipped catalog. */
    val DETECTOR: RuleDetector = RuleDetector { document, category -> findRuleDetections(document, category) }

    /** The recognizers [category] runs, in priority order. */
    fun recognizersFor(
        category: Category,
        catalog: RuleCatalog = this.catalog,
    ): List<Recognizer> =
        catalog.categories
            .getValue(category)
            .recognizers
            .map { catalog.recognizers.getValue(it) }

    /**
     * Every rule hit in [document] for [category], in document order. [only] narrows the run
     * to those recognizer names (names the category does not run are ignored; unknown names
     * throw).
     */
    fun findRuleMatches(
        document: Document,
        category: Category,
        only: Collection<String>? = null,
        catalog: RuleCatalog = this.catalog,
    ): List<RuleMatch> {
        val ruleSet = catalog.categories.getValue(category)
        var selected = recognizersFor(category, catalog)
        if (only != null) {
            val unknown = only.filter { it !in catalog.recognizers }.sorted()
            require(unknown.isEmpty()) { "unknown recognizers $unknown; known: ${catalog.recognizers.keys.joinToString()}" }
            selected = selected.filter { it.name in only }
        }
        if (document.mode == Mode.TEXT) {
            val text = document.text
            return RuleMatching.scanText(text, selected, ruleSet.preserve).map { match ->
                // Python counts code points; java.util.regex counts UTF-16 units.
                val span = Span(text.codePointCount(0, match.start), text.codePointCount(0, match.end))
                RuleMatch(match.recognizer, match.pattern, match.label, text.substring(match.start, match.end), span = span)
            }
        }
        return RuleMatching.joinByPage(document.elements).flatMap { page ->
            RuleMatching.scanText(page.text, selected, ruleSet.preserve).map { match ->
                val value = page.text.substring(match.start, match.end)
                RuleMatch(match.recognizer, match.pattern, match.label, value, indices = page.indicesBetween(match.start, match.end))
            }
        }
    }

    /**
     * Where in [text] (code points) a rule match stands that [category]'s preserve rules keep
     * readable (a toll-free number in a Financial page, an officer's badge, a publication
     * date): what no tier may redact there ([KeptReadable]).
     */
    fun preservedSpans(
        text: String,
        category: Category,
        catalog: RuleCatalog = this.catalog,
    ): List<Span> {
        val preserve = catalog.categories.getValue(category).preserve
        if (preserve.isEmpty()) return emptyList()
        return RuleMatching.scanText(text, recognizersFor(category, catalog), preserve, preserved = true).map {
            Span(text.codePointCount(0, it.start), text.codePointCount(0, it.end))
        }
    }

    /**
     * The rule safety net's detections for [document] under [category]'s rules. Image mode: one
     * detection per element index a match touches (`value` the whole match's text), ordered by
     * index; an element touched by two matches keeps the first match's label. Text mode: one
     * detection per match with `span` and `value`, ordered by span. All carry source rule, round 1.
     */
    fun findRuleDetections(
        document: Document,
        category: Category,
        catalog: RuleCatalog = this.catalog,
    ): List<Detection> {
        val matches = findRuleMatches(document, category, catalog = catalog)
        if (document.mode == Mode.TEXT) {
            return matches.map { Detection(label = it.label, source = Source.RULE, round = 1, value = it.value, span = it.span) }
        }
        val byIndex = sortedMapOf<Int, Detection>()
        for (match in matches) {
            for (index in match.indices) {
                byIndex.getOrPut(
                    index,
                ) { Detection(label = match.label, source = Source.RULE, round = 1, index = index, value = match.value) }
            }
        }
        return byIndex.values.toList()
    }
}

/**
 * One rule hit with the recognizer that made it. Image mode: [indices] names every element the
 * match touches, [span] is null. Text mode: [span] is the range in the text (code points).
 */
data class RuleMatch(
    val recognizer: String,
    val pattern: String,
    val label: String,
    val value: String,
    val span: Span? = null,
    val indices: List<Int> = emptyList(),
)

/** Phrases that must appear among the [window] words before a match. */
data class ContextSpec(
    val words: List<String>,
    val window: Int,
) {
    /** The words split into lower-case word runs, ready to be compared with a text's words. */
    val phrases: List<List<String>> get() = words.map { phrase -> PyText.splitWhitespace(phrase.lowercase()) }
}

/** A compiled pattern with its validator and whether it needs context words. */
class RecognizerPattern(
    val name: String,
    val regex: Pattern,
    val validatorName: String?,
    val needsContext: Boolean,
    val validator: ((String) -> String?)?,
)

/**
 * A named detector of one kind of identifier: patterns, validators, context, label.
 * [contextPhrases] are the context words split into lower-case word runs.
 */
class Recognizer(
    val name: String,
    val label: String,
    val description: String,
    val patterns: List<RecognizerPattern>,
    val context: ContextSpec?,
    val contextPhrases: List<List<String>>,
)

/**
 * Keeps a recognizer's match readable: when its digits fully match [digits] (a toll-free
 * number), or when one of [context]'s phrases stands among the `window` words before it, read
 * as a recognizer's context is (a publication date: "Run date 2026-06-05"). A rule has exactly
 * one of the two. Mirrors `catalog.PreserveRule`.
 */
class PreserveRule(
    val recognizer: String,
    val digits: String?,
    val context: ContextSpec?,
    val reason: String,
) {
    init {
        require((digits == null) != (context == null)) { "a preserve rule has exactly one of `digits` and `context`" }
    }

    private val compiled: Pattern? = digits?.let { Pattern.compile(it) }

    /** [context]'s words split into lower-case word runs. */
    val contextPhrases: List<List<String>> = context?.phrases.orEmpty()

    /** A [digits] rule of [recognizer] holds for [value] (a context rule never does). */
    fun keepsDigits(
        recognizer: String,
        value: String,
    ): Boolean = recognizer == this.recognizer && compiled?.matcher(RuleValidators.digitsOf(value))?.matches() == true
}

/** The recognizers a category runs (in priority order) and what it preserves. */
class CategoryRuleSet(
    val category: Category,
    val recognizers: List<String>,
    val preserve: List<PreserveRule>,
)

/** A rules file is malformed, or refers to an unknown label, validator or recognizer. */
class RulesConfigException(
    message: String,
) : IllegalArgumentException(message)

/** Every recognizer, by name in priority order, and every category's rule set. */
class RuleCatalog(
    val recognizers: Map<String, Recognizer>,
    val categories: Map<Category, CategoryRuleSet>,
) {
    companion object {
        /** The compiled-in catalog ([RuleFiles]), checked against the prompt vocabulary's labels. */
        fun load(): RuleCatalog = build(RuleFiles.RECOGNIZERS, RuleFiles.CATEGORIES, PipelinePrompts.LABELS.map { it.name }.toSet())

        /**
         * Checks both files' data (as a YAML reader gives it: mappings, lists, text, [Long],
         * booleans) and builds the catalog; every problem names the file and the entry.
         */
        fun build(
            recognizersFile: Map<String, Any?>,
            categoriesFile: Map<String, Any?>,
            labels: Set<String>,
        ): RuleCatalog {
            val recognizers = RuleCatalogParser.recognizers(recognizersFile, labels)
            return RuleCatalog(recognizers, RuleCatalogParser.categories(categoriesFile, recognizers))
        }
    }
}

private object RuleCatalogParser {
    private const val RECOGNIZERS = "recognizers.yaml"
    private const val CATEGORIES = "categories.yaml"

    private class Entry(
        private val where: String,
        private val map: Map<String, Any?>,
        allowed: Set<String>,
    ) {
        init {
            val unknown = map.keys - allowed
            if (unknown.isNotEmpty()) throw RulesConfigException("$where: unknown keys ${unknown.sorted()}")
        }

        fun string(key: String): String = map[key] as? String ?: throw RulesConfigException("$where: '$key' must be text")

        fun stringOrNull(key: String): String? = if (map[key] == null) null else string(key)

        fun intOrNull(key: String): Int? =
            map[key]?.let {
                (it as? Long)?.toInt()
                    ?: throw RulesConfigException("$where: '$key' must be a whole number")
            }

        fun bool(key: String): Boolean =
            (map[key] ?: false) as? Boolean ?: throw RulesConfigException("$where: '$key' must be true or false")

        fun list(key: String): List<Any?> =
            (map[key] ?: emptyList<Any?>()) as? List<Any?> ?: throw RulesConfigException("$where: '$key' must be a list")

        fun strings(key: String): List<String> =
            list(key).map {
                it as? String
                    ?: throw RulesConfigException("$where: '$key' must list text")
            }

        /** A mapping of names to lists of text (a recognizer's `lists:`), or null when absent. */
        fun namedLists(key: String): Map<String, List<String>>? {
            val lists = map[key]?.let { mapping(it, "$where.$key") } ?: return null
            return lists.mapValues { (name, value) ->
                (value as? List<*>)?.map { it as? String ?: throw RulesConfigException("$where.$key: '$name' must list text") }
                    ?: throw RulesConfigException("$where.$key: '$name' must be a list")
            }
        }

        fun entry(
            key: String,
            allowed: Set<String>,
        ): Entry? = map[key]?.let { Entry("$where.$key", mapping(it, "$where.$key"), allowed) }
    }

    private fun mapping(
        value: Any?,
        where: String,
    ): Map<String, Any?> {
        if (value == null) return emptyMap()
        @Suppress("UNCHECKED_CAST")
        return value as? Map<String, Any?> ?: throw RulesConfigException("$where: expected a mapping")
    }

    private fun top(
        root: Map<String, Any?>,
        file: String,
        key: String,
    ): Map<String, Any?> = mapping(root[key] ?: throw RulesConfigException("$file: expected a mapping under '$key:'"), "$file: $key")

    private val RECOGNIZER_KEYS =
        setOf("label", "description", "validator", "needs_context", "context", "patterns", "patterns_from", "lists")
    // `prefilter` is what Python's prefilter reads (devtools/generated/rule_prefilter.py proves
    // it from the regex); the core scans one page at a time and runs every pattern, so it is not
    // read here.
    private val PATTERN_KEYS = setOf("name", "regex", "validator", "needs_context", "prefilter")

    fun recognizers(
        file: Map<String, Any?>,
        labels: Set<String>,
    ): Map<String, Recognizer> {
        val specs = LinkedHashMap<String, Entry>()
        for ((name, value) in top(file, RECOGNIZERS, "recognizers")) {
            val spec = Entry("$RECOGNIZERS: recognizer $name", mapping(value, name), RECOGNIZER_KEYS)
            val label = spec.string("label")
            if (label !in labels) throw RulesConfigException("$RECOGNIZERS: recognizer $name: label '$label' is not in prompts/labels.yaml")
            specs[name] = spec
        }
        val built = LinkedHashMap<String, Recognizer>()
        for ((name, spec) in specs) built[name] = build(name, spec, specs)
        return built
    }

    private fun build(
        name: String,
        spec: Entry,
        specs: Map<String, Entry>,
    ): Recognizer {
        val where = "$RECOGNIZERS: $name"
        var source = spec
        val from = spec.stringOrNull("patterns_from")
        if (from != null) {
            if (spec.list("patterns").isNotEmpty()) throw RulesConfigException("$where: give patterns or patterns_from, not both")
            source = specs[from]?.takeIf { it.stringOrNull("patterns_from") == null }
                ?: throw RulesConfigException("$where: patterns_from must name a plain recognizer")
        }
        val patternEntries = source.list("patterns")
        if (patternEntries.isEmpty()) throw RulesConfigException("$where: no patterns")
        val lists = spec.namedLists("lists") ?: source.namedLists("lists")
        val context = contextSpec(spec, where)
        val patterns =
            patternEntries.mapIndexed { i, raw ->
                val pattern = Entry("$where.patterns[$i]", mapping(raw, where), PATTERN_KEYS)
                val patternName = pattern.string("name")
                val validatorName = pattern.stringOrNull("validator") ?: source.stringOrNull("validator") ?: spec.stringOrNull("validator")
                val validator = validator(validatorName, lists, where)
                val needsContext = spec.bool("needs_context") || source.bool("needs_context") || pattern.bool("needs_context")
                if (needsContext && context == null) throw RulesConfigException("$where: $patternName needs context words")
                val regex =
                    try {
                        Pattern.compile(pattern.string("regex"))
                    } catch (error: java.util.regex.PatternSyntaxException) {
                        throw RulesConfigException("$where.$patternName: bad regex: ${error.description}")
                    }
                RecognizerPattern(patternName, regex, validatorName, needsContext, validator)
            }
        if (spec.namedLists("lists") != null && patterns.none { it.validatorName in RuleValidators.WITH_LISTS }) {
            throw RulesConfigException("$where: `lists:` given, but none of its validators reads word lists")
        }
        return Recognizer(name, spec.string("label"), spec.string("description"), patterns, context, context?.phrases.orEmpty())
    }

    /** The `context:` of a recognizer or a preserve rule: its words and window (4 if not given). */
    private fun contextSpec(
        spec: Entry,
        where: String,
    ): ContextSpec? =
        spec.entry("context", setOf("words", "window"))?.let { entry ->
            val words = entry.strings("words")
            if (words.isEmpty()) throw RulesConfigException("$where: context needs words")
            val window = entry.intOrNull("window") ?: 4
            if (window !in 1..20) throw RulesConfigException("$where: context window must be 1..20")
            ContextSpec(words, window)
        }

    /** The named validator; one that judges by word lists is built from [lists]. */
    private fun validator(
        name: String?,
        lists: Map<String, List<String>>?,
        where: String,
    ): ((String) -> String?)? {
        if (name == null) return null
        val build = RuleValidators.WITH_LISTS[name]
        if (build == null) return RuleValidators.BY_NAME[name] ?: throw RulesConfigException("$where: unknown validator '$name'")
        if (lists == null) throw RulesConfigException("$where: validator '$name' needs `lists:`")
        return try {
            build(lists)
        } catch (error: IllegalArgumentException) {
            throw RulesConfigException("$where: lists: ${error.message}")
        }
    }

    fun categories(
        file: Map<String, Any?>,
        recognizers: Map<String, Recognizer>,
    ): Map<Category, CategoryRuleSet> {
        val priority = recognizers.keys.withIndex().associate { (position, name) -> name to position }
        val ruleSets = LinkedHashMap<Category, CategoryRuleSet>()
        for ((name, value) in top(file, CATEGORIES, "categories")) {
            val where = "$CATEGORIES: category $name"
            val category = Category.fromLabel(name) ?: throw RulesConfigException("$where: unknown category")
            val entry = Entry(where, mapping(value, where), setOf("recognizers", "preserve"))
            val preserve =
                entry.list("preserve").mapIndexed { i, raw ->
                    val ruleWhere = "$where.preserve[$i]"
                    val rule = Entry(ruleWhere, mapping(raw, where), setOf("recognizer", "digits", "context", "reason"))
                    val digits = rule.stringOrNull("digits")
                    val context = contextSpec(rule, ruleWhere)
                    if ((digits == null) == (context == null)) {
                        throw RulesConfigException("$ruleWhere: a preserve rule has exactly one of `digits` and `context`")
                    }
                    try {
                        PreserveRule(rule.string("recognizer"), digits, context, rule.string("reason"))
                    } catch (error: java.util.regex.PatternSyntaxException) {
                        throw RulesConfigException("$where: bad preserve regex: ${error.description}")
                    }
                }
            val named = entry.strings("recognizers").toSet() + preserve.map { it.recognizer }
            val unknown = named.filter { it !in recognizers }.sorted()
            if (unknown.isNotEmpty()) throw RulesConfigException("$where: unknown recognizers $unknown")
            val ordered = entry.strings("recognizers").toSet().sortedBy { priority.getValue(it) }
            ruleSets[category] = CategoryRuleSet(category, ordered, preserve)
        }
        val missing = Category.entries.filter { it !in ruleSets }.map { it.label }
        if (missing.isNotEmpty()) throw RulesConfigException("$CATEGORIES: categories without rules: $missing")
        return ruleSets
    }
}
