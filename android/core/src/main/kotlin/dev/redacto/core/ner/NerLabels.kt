package dev.redacto.core.ner

import dev.redacto.core.Category
import dev.redacto.core.rules.RuleCatalog
import dev.redacto.core.rules.Rules
import dev.redacto.core.text.CodePointText
import dev.redacto.core.text.NotIdentifiers
import dev.redacto.core.text.PyText
import dev.redacto.core.text.wordList

/*
 * Rampart's entity types as the pipeline's labels, and the words that are never a value: the
 * same data as Python's `tools/redacto/ner/labels.yaml` and `tools/redacto/text/not_names.txt`
 * (NerLabelsTest fails when they part).
 */

/** One entity type's labels in order of preference, and the rule recognizer whose preserve rules also keep its values readable. */
data class EntityMapping(
    val labels: List<String>,
    val recognizer: String? = null,
)

/** What the NER tier knows besides the model: label mapping, field words, amounts, preserve rules. */
object NerLabels {
    /** Rampart's entity types, in the order of its `config.json`, and their pipeline labels (`labels.yaml`). */
    val ENTITIES: Map<String, EntityMapping> =
        linkedMapOf(
            "GIVEN_NAME" to EntityMapping(listOf("NAME")),
            "SURNAME" to EntityMapping(listOf("NAME")),
            "EMAIL" to EntityMapping(listOf("EMAIL")),
            "PHONE" to EntityMapping(listOf("PHONE"), recognizer = "phone"),
            "URL" to EntityMapping(listOf("ID")),
            "TAX_ID" to EntityMapping(listOf("SSN", "ID")),
            "BANK_ACCOUNT" to EntityMapping(listOf("ACCOUNT", "ID")),
            "ROUTING_NUMBER" to EntityMapping(listOf("ACCOUNT", "ID")),
            "GOVERNMENT_ID" to EntityMapping(listOf("SSN", "ID")),
            "PASSPORT" to EntityMapping(listOf("ID")),
            "DRIVERS_LICENSE" to EntityMapping(listOf("ID")),
            "BUILDING_NUMBER" to EntityMapping(listOf("ADDRESS")),
            "STREET_NAME" to EntityMapping(listOf("ADDRESS")),
            "SECONDARY_ADDRESS" to EntityMapping(listOf("ADDRESS")),
            "CITY" to EntityMapping(listOf("ADDRESS")),
            "STATE" to EntityMapping(listOf("ADDRESS")),
            "ZIP_CODE" to EntityMapping(listOf("ADDRESS")),
        )

    /** Words that name a field (`email`, `tél`): never a value (`labels.yaml`'s `field_words`, case-folded). */
    val FIELD_WORDS: Set<String> =
        wordList(
            """
            email, e-mail, mail, courriel, phone, tel, tél, telephone, téléphone, mobile,
            portable, fax, iban, bic, swift, address, adresse, url, website, site,
            name, nom, prénom, surname, passport, passeport,
            """,
        )

    /** A span made only of these is a city or region on its own, which is no ADDRESS: it is dropped. */
    val LONE_NOT_AN_ADDRESS: Set<String> = setOf("CITY", "STATE")

    /** Labels whose words join across a comma: `Via Pasquale Scura 127, Napoli` is one address. */
    val COMMA_JOINS: Set<String> = setOf("ADDRESS")

    /** Words and signs that make the number beside them an amount: [NotIdentifiers.CURRENCIES], one list for every tier. */
    val CURRENCIES: Set<String> = NotIdentifiers.CURRENCIES

    private val AMOUNT_MARKS: Set<Int> = ".,'\u00a0 ".codePoints().toArray().toSet()

    /** Words before a span where its category's role words are looked for. */
    const val ROLE_WINDOW = 3

    /**
     * Each category's role words (`labels.yaml`'s `preserve_roles`, from prompts/categories.yaml's
     * preserve lists): officers in Tactical, officials and reporters in Journalism, judges in
     * Legal, technicians and serial numbers in Field Service. The model reads the role from
     * context; the NER tier cannot, so a span beside one is kept readable.
     */
    val PRESERVE_ROLES: Map<Category, Set<String>> =
        mapOf(
            Category.TACTICAL to
                wordList(
                    """
                    officer, ofc, sgt, sergeant, det, detective, cpl, corporal, lt, lieutenant, capt,
                    captain, deputy, trooper, guard, patrolman, agent, chief,
                    """,
                ),
            Category.JOURNALISM to
                wordList(
                    """
                    reporter, correspondent, editor, byline, senator, representative, rep, mayor,
                    governor, superintendent, councilmember, councillor, commissioner, minister,
                    secretary, spokesperson, spokesman, spokeswoman, president, chief, member,
                    """,
                ),
            Category.LEGAL to wordList("hon, honorable, honourable, judge, justice, magistrate"),
            Category.FIELD_SERVICE to wordList("tech, technician, inspector, installer, engineer, serial, s/n, sn, model"),
        )

    /**
     * Each category's role words that keep only a number beside them, never a name
     * (`labels.yaml`'s `identifier_roles`): an officer's badge, a case or parcel number.
     */
    val IDENTIFIER_ROLES: Map<Category, Set<String>> =
        mapOf(
            Category.TACTICAL to wordList("badge, case"),
            Category.LEGAL to wordList("apn, parcel, lot"),
        )

    /**
     * Identifier roles whose number is a person's (`labels.yaml`'s `held_identifier_roles`):
     * kept only where a preserved role stands among the words just before it (`Det. Juan
     * Cannon, badge 2868`).
     */
    val HELD_IDENTIFIER_ROLES: Set<String> = wordList("badge")

    /** Words that open a byline (`By John Butler`), per category (`labels.yaml`'s `byline_openers`). */
    val BYLINE_OPENERS: Map<Category, Set<String>> = mapOf(Category.JOURNALISM to wordList("by, par"))

    /**
     * Equipment makes kept readable before a model code (`Carrier 24ACC636`), per category
     * (`labels.yaml`'s `equipment_makes`); a make alone stays a name.
     */
    val EQUIPMENT_MAKES: Map<Category, Set<String>> =
        mapOf(
            Category.FIELD_SERVICE to
                wordList(
                    """
                    ademco, amana, baxi, beko, bosch, bryant, burnham, carrier, daikin, dsc,
                    ecobee, electrolux, frigidaire, fujitsu, ge, goodman, gree, hitachi,
                    honeywell, hotpoint, indesit, kenmore, kwikset, lennox, lg, maytag, midea,
                    miele, mitsubishi, napco, navien, nest, noritz, panasonic, resideo, rheem,
                    rinnai, ruud, samsung, schlage, siemens, takagi, toshiba, trane, vaillant,
                    viessmann, weil-mclain, whirlpool, worcester, yale, york,
                    """,
                ),
        )

    private fun bare(word: String): String = PyText.casefold(PyText.strip(word, ".,;:!?()[]\"'«»"))

    private fun lineStart(
        points: CodePointText,
        start: Int,
    ): Int {
        var at = start
        while (at > 0 && points[at - 1] != '\n'.code) at--
        return at
    }

    /**
     * Whether a role word [category] preserves stands among the [ROLE_WINDOW] words before
     * text[start, end) (code points) on its line, is the span's own first word (`Hon. Jaclyn Key`),
     * or is among the [ROLE_WINDOW] words of an apposition after it (`Mary Cochran, Managing
     * Editor`: the span or the text after it ends in a comma). A span that is no NAME also
     * counts the category's [IDENTIFIER_ROLES] (`Case PD-25-60764`), a person's one
     * ([HELD_IDENTIFIER_ROLES]: `badge`) only where a preserved role stands among the
     * [ROLE_WINDOW] words before it (`Det. Juan Cannon, badge 2868`); a line that opens with a
     * [BYLINE_OPENERS] word and then the span is a byline (`By John Butler`).
     */
    fun hasRole(
        text: String,
        start: Int,
        end: Int,
        category: Category,
        label: String,
    ): Boolean {
        val points = CodePointText(text)
        val roles = PRESERVE_ROLES[category].orEmpty()
        val lineBefore = PyText.splitWhitespace(points.slice(lineStart(points, start), start))
        if (lineBefore.size == 1 && bare(lineBefore[0]) in BYLINE_OPENERS[category].orEmpty()) return true
        val before = lineBefore.takeLast(ROLE_WINDOW)
        val value = points.slice(start, end)
        val own = PyText.splitWhitespace(value).take(1)
        val after = PyText.lstrip(lineAfter(points, end))
        val apposition =
            if (PyText.rstrip(value).endsWith(",") || after.startsWith(",")) {
                PyText.splitWhitespace(after.removePrefix(",")).take(ROLE_WINDOW)
            } else {
                emptyList()
            }
        val near = (before + own + apposition).map { bare(it) }
        if (near.any { it in roles }) return true
        if (label == "NAME") return false
        val unheld = IDENTIFIER_ROLES[category].orEmpty() - HELD_IDENTIFIER_ROLES
        if (near.any { it in unheld }) return true
        // A person's identifier role (`badge`) counts where a preserved role stands among the
        // words just before it: "Det. Juan Cannon, badge 2868", not "Visitor Jo Roe badge 42".
        val first = lineBefore.size - before.size
        return before.withIndex().any { (i, word) ->
            bare(word) in HELD_IDENTIFIER_ROLES &&
                lineBefore.subList(maxOf(0, first + i - ROLE_WINDOW), first + i).any { bare(it) in roles }
        }
    }

    /** Words before a name where its title may stand: `Council Member Anna Parker` reaches `Parker`'s title over one given name. */
    const val TITLE_REACH = 3

    /** A word ending so closes the name before it (`Officer Smith, John Doe`). */
    private val NAME_ENDS = listOf(",", ";", ":", ".", "!", "?")

    /**
     * Whether text[start, end) (code points) is a name under a title its [category] preserves: a
     * capitalised role word opening it or standing right before it, with at most the name's
     * other capitalised words between (`Hon. Belinda Orozco`, `Council Member Anna Parker`,
     * `Det. Tammy Young`, and `Orozco` alone there). A lower-case role is a description, not a
     * title (`our new member Gilbert Torres`), and a punctuated word ends the name (`Officer
     * Smith, John Doe`). Stricter than [hasRole], for the model's names ([KeptReadable]): the
     * model read the context already, so only a title overrules it.
     */
    fun titled(
        text: String,
        start: Int,
        end: Int,
        category: Category,
    ): Boolean {
        val points = CodePointText(text)
        val roles = PRESERVE_ROLES[category].orEmpty()

        fun capitalised(word: String): Boolean = PyText.isUpper(String(Character.toChars(word.codePointAt(0))))

        fun isTitle(word: String): Boolean = capitalised(word) && bare(word) in roles

        val own = PyText.splitWhitespace(points.slice(start, end)).take(1)
        if (own.isNotEmpty() && isTitle(own[0])) return true
        for (word in PyText.splitWhitespace(points.slice(lineStart(points, start), start)).takeLast(TITLE_REACH).asReversed()) {
            if (isTitle(word)) return true
            if (!capitalised(word) || NAME_ENDS.any { word.endsWith(it) }) return false
        }
        return false
    }

    private val MODEL_CODE = PyText.regex("""(?=\S*\d)(?=\S*[^\W\d_])\w[\w/-]*""")

    /**
     * Whether every word of text[start, end) (code points) is a listed make directly followed by
     * a model code on its line, or that model code (`Carrier 24ACC636`, `Navien NPE-240A`).
     */
    fun namesEquipment(
        text: String,
        start: Int,
        end: Int,
        category: Category,
    ): Boolean {
        val makes = EQUIPMENT_MAKES[category] ?: return false
        val points = CodePointText(text)
        var lineEnd = end
        while (lineEnd < points.length && points[lineEnd] != '\n'.code) lineEnd++
        val words = mutableListOf<Triple<Int, Int, String>>()
        var at = lineStart(points, start)
        while (at < lineEnd) {
            if (PyText.isSpace(points[at])) {
                at++
                continue
            }
            val wordStart = at
            while (at < lineEnd && !PyText.isSpace(points[at])) at++
            words.add(Triple(wordStart, at, points.slice(wordStart, at)))
        }
        val covered =
            words.zipWithNext().mapNotNull { (make, code) ->
                val isCode = MODEL_CODE.matcher(PyText.rstrip(code.third, ".,;:")).matches()
                if (bare(make.third) in makes && isCode) make.first to code.second else null
            }
        val inside = words.filter { (a, b) -> a < end && start < b }
        return inside.isNotEmpty() && inside.all { (a, b) -> covered.any { (from, to) -> from <= a && b <= to } }
    }

    /** Words after a NAME span's first (its own included) where a company form may close it. */
    const val ORGANISATION_WINDOW = 5

    /**
     * Company forms (`labels.yaml`'s `organisation_forms`), compared exactly as written, so the
     * Norwegian "AS" never matches the English "as". Every category preserves company names.
     */
    val ORGANISATION_FORMS: Set<String> =
        exactList(
            """
            LLC, L.L.C, Inc, Ltd, LLP, PLC, LP, GmbH, AG, KG, SA, S.A, SARL, SAS,
            SpA, S.p.A, Srl, S.r.l, SL, S.L, SLU, S.L.U, BV, NV, HB, AB, AS, A/S, ApS, Oy, Pty, Co, Corp, Corporation,
            Company, Group, Associates, Partners, Holdings, Services, Security,
            Solutions, Consulting, Industries, Enterprises, Foundation, Society,
            Bank, Clinic, Hospital, Pharmacy, Insurance, Realty, Logistics,
            """,
        )

    /** Words that join the names of a company (`labels.yaml`'s `organisation_connectors`). */
    val ORGANISATION_CONNECTORS: Set<String> = exactList("&, and, y, et, und, e, og, och, en")

    private val SENTENCE_ENDS = listOf(".", "!", "?", ";", ":")

    /**
     * Whether text[start, end) (code points) is part of a company's name: a company form closes
     * it on its line within [ORGANISATION_WINDOW] words (`Garcia LLC`, `Smith, Lyons and
     * Frederick Field Services`), with only capitalised words and connectors between and no
     * sentence ending on the way (`Tell Maria. Security will open` keeps Maria a name).
     */
    fun namesAnOrganisation(
        text: String,
        start: Int,
        end: Int,
    ): Boolean {
        val points = CodePointText(text)
        // One text, so the comma after "Smith" stays on its word ("Smith,"), not a word of its own.
        val words = PyText.splitWhitespace(points.slice(start, end) + lineAfter(points, end))
        for ((previous, word) in words.take(ORGANISATION_WINDOW + 1).zipWithNext()) {
            if (SENTENCE_ENDS.any { previous.endsWith(it) }) return false
            val bare = PyText.rstrip(word, ".,;:")
            if (bare in ORGANISATION_FORMS) return true
            val first = if (bare.isEmpty()) "" else String(Character.toChars(bare.codePointAt(0)))
            if (bare !in ORGANISATION_CONNECTORS && !PyText.isUpper(first)) return false
        }
        return false
    }

    private fun lineAfter(
        points: CodePointText,
        end: Int,
    ): String {
        var lineEnd = end
        while (lineEnd < points.length && points[lineEnd] != '\n'.code) lineEnd++
        return points.slice(end, lineEnd)
    }

    /** The pipeline label [entity] takes in a category allowing [allowed], or null (dropped). */
    fun labelFor(
        entity: String,
        allowed: Collection<String>,
    ): String? = ENTITIES[entity]?.labels?.firstOrNull { it in allowed }

    /** Whether [category]'s preserve rules keep this value readable, as for a rule hit. */
    fun preserved(
        entity: String,
        value: String,
        category: Category,
        catalog: RuleCatalog = Rules.catalog,
    ): Boolean {
        val recognizer = ENTITIES[entity]?.recognizer ?: return false
        return catalog.categories
            .getValue(category)
            .preserve
            .any { it.keepsDigits(recognizer, value) }
    }

    /**
     * Whether text[start, end) (code points) is a bare number written as an amount (`1687 EUR`,
     * `€ 318`, `$196`): every category preserves amounts. A value that holds its currency
     * (`£1568`) is [NotIdentifiers]' concern.
     */
    fun isAmount(
        text: String,
        start: Int,
        end: Int,
    ): Boolean {
        val points = CodePointText(text)
        val value = points.slice(start, end)
        if (value.isEmpty() || !value.codePoints().allMatch { PyText.isDigit(it) || it in AMOUNT_MARKS }) return false
        val after = PyText.splitWhitespace(points.slice(end, points.length))
        val before = PyText.splitWhitespace(points.slice(0, start))
        val nextWord = after.firstOrNull()?.let { PyText.casefold(PyText.strip(it, ".,;:!?)")) } ?: ""
        val previous = before.lastOrNull()?.let { PyText.casefold(it) } ?: ""
        val glued = if (start > 0) points.slice(start - 1, start) else ""
        return nextWord in CURRENCIES || previous in CURRENCIES || glued in CURRENCIES
    }
}

/** Comma-separated words as written. */
internal fun exactList(text: String): Set<String> =
    text
        .split(",")
        .map { it.trim() }
        .filter { it.isNotEmpty() }
        .toSet()
