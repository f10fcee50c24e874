package dev.redacto.core.ner

import dev.redacto.core.Category
import dev.redacto.core.Vectors
import dev.redacto.core.prompts.PipelinePrompts
import dev.redacto.core.text.PyText
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import java.io.File

/**
 * The NER tier's data and filters: the same tables as Python's tests/ner/test_labels.py, and
 * the compiled-in lists equal to the file Python reads (`tools/redacto/ner/labels.yaml`), so
 * neither side drifts. The not-name list's tests are `text/NotNamesTest`.
 */
class NerLabelsTest {
    private val tools = File(Vectors.root, "../../tools/redacto")

    @Test
    fun `each entity takes the first label its category allows`() {
        val table =
            listOf(
                Triple("GIVEN_NAME", Category.GENERAL, "NAME"),
                Triple("SURNAME", Category.MEDICAL, "NAME"),
                Triple("EMAIL", Category.JOURNALISM, "EMAIL"),
                Triple("PHONE", Category.FINANCIAL, "PHONE"),
                Triple("URL", Category.GENERAL, "ID"),
                Triple("TAX_ID", Category.FINANCIAL, "SSN"),
                Triple("TAX_ID", Category.FIELD_SERVICE, "ID"),
                Triple("GOVERNMENT_ID", Category.JOURNALISM, "ID"),
                Triple("BANK_ACCOUNT", Category.FINANCIAL, "ACCOUNT"),
                Triple("BANK_ACCOUNT", Category.TACTICAL, "ID"),
                Triple("ROUTING_NUMBER", Category.LEGAL, "ACCOUNT"),
                Triple("PASSPORT", Category.TACTICAL, "ID"),
                Triple("DRIVERS_LICENSE", Category.LEGAL, "ID"),
                Triple("STREET_NAME", Category.FIELD_SERVICE, "ADDRESS"),
                Triple("ZIP_CODE", Category.MEDICAL, "ADDRESS"),
                Triple("CITY", Category.GENERAL, "ADDRESS"),
                Triple("NOT_A_TYPE", Category.GENERAL, null),
            )
        for ((entity, category, label) in table) {
            assertEquals(label, NerLabels.labelFor(entity, PipelinePrompts.categoryLabels(category)), "$entity in $category")
        }
        val known = PipelinePrompts.LABELS.map { it.name }.toSet()
        NerLabels.ENTITIES.values.forEach { assertEquals(true, known.containsAll(it.labels)) }
    }

    @Test
    fun `a category's preserve rule keeps the value as for a rule hit`() {
        assertEquals(true, NerLabels.preserved("PHONE", "1-800-555-0199", Category.FINANCIAL))
        assertEquals(true, NerLabels.preserved("PHONE", "(888) 555 0100", Category.FINANCIAL))
        assertEquals(false, NerLabels.preserved("PHONE", "408-555-1234", Category.FINANCIAL))
        assertEquals(false, NerLabels.preserved("PHONE", "1-800-555-0199", Category.MEDICAL))
        assertEquals(false, NerLabels.preserved("GIVEN_NAME", "1-800-555-0199", Category.FINANCIAL))
    }

    @Test
    fun `a bare number beside a currency is an amount`() {
        val table =
            listOf(
                Triple("under 1687 EUR in total", "1687", true),
                Triple("it costs \$196 now", "196", true),
                Triple("€ 318 each", "318", true),
                Triple("about 2,500 euros.", "2,500", true),
                Triple("lives at 1687 Main Street", "1687", false),
                Triple("PSC 2322, Box 7750", "2322", false),
                Triple("Account 1687 EUR", "Account", false),
                Triple("\uD835\uDFCF 318 €", "318", true),
            )
        for ((text, value, amount) in table) {
            val start = text.codePointCount(0, text.indexOf(value))
            assertEquals(amount, NerLabels.isAmount(text, start, start + value.codePointCount(0, value.length)), text)
        }
    }

    @Test
    fun `a role the category preserves keeps the span readable`() {
        val table =
            listOf(
                Triple("Units assigned: Sgt. Ann Cobb, badge 4097", "Ann Cobb", Category.TACTICAL) to true,
                Triple("Police case opened by Det. Tammy Young", "Tammy Young", Category.TACTICAL) to true,
                Triple("Assigned to: Hon. Belinda Orozco", "Hon. Belinda Orozco", Category.LEGAL) to true,
                Triple("the quote from Council Member Anna Parker", "Anna Parker", Category.JOURNALISM) to true,
                Triple("Inspector: Krista Castillo", "Krista Castillo", Category.FIELD_SERVICE) to true,
                Triple("Lennox furnace, serial SN33630363", "SN33630363", Category.FIELD_SERVICE) to true,
                // The role must be the category's, and on the same line, within three words.
                Triple("Units assigned: Sgt. Ann Cobb", "Ann Cobb", Category.MEDICAL) to false,
                Triple("Inspector:\nKrista Castillo", "Krista Castillo", Category.FIELD_SERVICE) to false,
                Triple("Officer on duty said that the victim Jane Roe", "Jane Roe", Category.TACTICAL) to false,
                Triple("Witness Omar Haddad", "Omar Haddad", Category.TACTICAL) to false,
                Triple("\uD83D\uDC6E Sgt. Ann Cobb", "Ann Cobb", Category.TACTICAL) to true,
                // A role in an apposition after the span: a comma, then the role within three words.
                Triple("From: Mary Cochran, Managing Editor", "Mary Cochran", Category.JOURNALISM) to true,
                Triple("From: Mary Cochran, Managing Editor", "Mary Cochran,", Category.JOURNALISM) to true,
                Triple("Signed, Jane Roe , reporter", "Jane Roe", Category.JOURNALISM) to true,
                Triple("From: Mary Cochran Managing Editor", "Mary Cochran", Category.JOURNALISM) to false,
                Triple("Mary Cochran, the neighbour who met the managing editor", "Mary Cochran", Category.JOURNALISM) to false,
                Triple("Mary Cochran,\nManaging Editor", "Mary Cochran", Category.JOURNALISM) to false,
            )
        for ((case, kept) in table) {
            val (text, value, category) = case
            val start = text.codePointCount(0, text.indexOf(value))
            assertEquals(kept, NerLabels.hasRole(text, start, start + value.codePointCount(0, value.length), category, "NAME"), text)
        }
    }

    /** Python's `test_a_title_the_category_preserves_keeps_the_model_s_name_readable`, case for case. */
    @Test
    fun `a title the category preserves keeps the model's name readable`() {
        val table =
            listOf(
                Triple("Assigned to: Hon. Belinda Orozco", "Belinda Orozco", Category.LEGAL) to true,
                Triple("Assigned to: Hon. Belinda Orozco", "Orozco", Category.LEGAL) to true,
                Triple("Assigned to: Hon. Belinda Orozco", "Hon. Belinda Orozco", Category.LEGAL) to true,
                Triple("the quote from Council Member Anna Parker", "Parker", Category.JOURNALISM) to true,
                Triple("Police case opened by Det. Tammy Young", "Young", Category.TACTICAL) to true,
                Triple("Tech Robert Vasquez returned on Monday", "Robert Vasquez", Category.FIELD_SERVICE) to true,
                Triple("Le juge Ana Ruiz a statué", "Ana Ruiz", Category.LEGAL) to false,
                Triple("our new member Gilbert Torres", "Gilbert Torres", Category.JOURNALISM) to false,
                Triple("Officer Smith, John Doe", "John Doe", Category.TACTICAL) to false,
                Triple("Visitor Amy Wood, badge 425689", "Amy Wood", Category.TACTICAL) to false,
                Triple("Hon.\nBelinda Orozco", "Belinda Orozco", Category.LEGAL) to false,
                Triple("Det. Tammy Young", "Tammy Young", Category.MEDICAL) to false,
                Triple("Judge Marie Claire Anne Dupont", "Dupont", Category.LEGAL) to false,
            )
        for ((case, kept) in table) {
            val (text, value, category) = case
            val start = text.codePointCount(0, text.indexOf(value))
            assertEquals(kept, NerLabels.titled(text, start, start + value.codePointCount(0, value.length), category), text)
        }
    }

    /** Python's `test_identifier_roles_and_bylines`, case for case. */
    @Test
    fun `an identifier role keeps only a number, and a byline keeps its reporter`() {
        data class Case(val text: String, val value: String, val label: String, val category: Category, val kept: Boolean)
        val table =
            listOf(
                Case("Officer Brandi Schwartz, badge 3837", "3837", "ID", Category.TACTICAL, true),
                Case("Opened by Det. Juan Cannon, badge 2868 on", "2868", "ID", Category.TACTICAL, true),
                Case("11:58\tVisitor Christine Hill badge 425689", "425689", "ID", Category.TACTICAL, false),
                Case("Guard Jo Lee 11:58 Visitor Ann Hill badge 4256", "4256", "ID", Category.TACTICAL, false),
                Case("INCIDENT REPORT    Case PD-25-60764", "PD-25-60764", "SSN", Category.TACTICAL, true),
                Case("badge 9134, victim Leonard Moody", "Leonard Moody", "NAME", Category.TACTICAL, false),
                Case("Parcel no.: APN 556-162-687", "556-162-687", "ACCOUNT", Category.LEGAL, true),
                Case("Case worker Jane Roe", "Jane Roe", "NAME", Category.TACTICAL, false),
                Case("Officer Ann Cobb, badge 3837", "3837", "ID", Category.MEDICAL, false),
                Case("By John Butler, The Ledger", "John Butler,", "NAME", Category.JOURNALISM, true),
                Case("Par Jeanne Roux, Le Courrier", "Jeanne Roux,", "NAME", Category.JOURNALISM, true),
                Case("Approved by John Butler", "John Butler", "NAME", Category.JOURNALISM, false),
                Case("By the river, John Butler", "John Butler", "NAME", Category.JOURNALISM, false),
                Case("By John Butler, The Ledger", "John Butler,", "NAME", Category.GENERAL, false),
            )
        for (case in table) {
            val start = case.text.codePointCount(0, case.text.indexOf(case.value))
            val end = start + case.value.codePointCount(0, case.value.length)
            assertEquals(case.kept, NerLabels.hasRole(case.text, start, end, case.category, case.label), case.text)
        }
    }

    /** Python's `test_a_make_before_its_model_code_is_equipment`, case for case. */
    @Test
    fun `a make before its model code is equipment`() {
        val table =
            listOf(
                Triple("Unit\tCarrier 24ACC636 condenser", "24ACC636", true),
                Triple("Unit\tMitsubishi MXZ-3C mini split", "Mitsubishi", true),
                Triple("Installed Navien NPE-240A tankless heater", "Navien NPE-240A", true),
                Triple("Unit inspected: Honeywell Vista-20P alarm panel", "Honeywell Vista-20P", true),
                Triple("a repeat F0-2 on the Lennox EL296V furnace", "EL296V", true),
                Triple("Customer: Bryant Moss", "Bryant", false),
                Triple("the York unit was replaced", "York", false),
                Triple("Bryant Moss 24ACC636", "Bryant Moss", false),
                Triple("Customer Smith AB1234", "Smith", false),
                Triple("Carrier\n24ACC636", "24ACC636", false),
            )
        for ((text, value, kept) in table) {
            val start = text.codePointCount(0, text.indexOf(value))
            val end = start + value.codePointCount(0, value.length)
            assertEquals(kept, NerLabels.namesEquipment(text, start, end, Category.FIELD_SERVICE), text)
            assertEquals(false, NerLabels.namesEquipment(text, start, end, Category.GENERAL), text)
        }
    }

    /** Python's `tests/ner/test_labels.py` ORGANISATIONS, case for case. */
    @Test
    fun `a name a company form closes is an organisation`() {
        val table =
            listOf(
                Triple("Garcia LLC", "Garcia", true),
                Triple("Price LLC Field Services", "Price", true),
                Triple("Lee-Lopez Field Services", "Lee-Lopez", true),
                Triple("Smith, Lyons and Frederick Field Services", "Smith", true),
                Triple("Freeman, Watts and Webster Security", "Freeman", true),
                Triple("Smith, Lyons and Frederick Field Services", "Frederick", true),
                Triple("Hansen & Pettersson HB", "Hansen", true),
                Triple("Martín y Ojeda S.A.", "Martín", true),
                Triple("Sponsor: Friedman Inc. donated $627.78", "Friedman", true),
                Triple("Nordahl Berg AS, Oslo", "Nordahl Berg", true),
                Triple("a complaint to Distribuciones Castellana S.L.. My order", "Castellana", true),
                Triple("Please forward the minutes to Joana Ferreira by Friday.", "Joana Ferreira", false),
                Triple("Tell Maria as soon as possible", "Maria", false),
                Triple("Tell Maria. Security will open the door.", "Maria", false),
                Triple("Ask J. Smith Group leader", "J.", false),
                Triple("Sponsor: Wilson, Wright and Barton donated", "Wilson", false),
                Triple("Garcia\nLLC", "Garcia", false),
                Triple("Anna from the bank", "Anna", false),
                Triple("Ingrid Olsen, Bergen, Norway and her Group", "Ingrid Olsen", false),
            )
        for ((text, value, organisation) in table) {
            val start = text.codePointCount(0, text.indexOf(value))
            val end = start + value.codePointCount(0, value.length)
            assertEquals(organisation, NerLabels.namesAnOrganisation(text, start, end), text)
        }
    }

    @Test
    fun `the installed config json names the labels in ENTITIES' order and 512 positions`() {
        val dir = RampartFiles.dir
        org.junit.jupiter.api.Assumptions
            .assumeTrue(dir != null, RampartFiles.ABSENT)
        val config = NerModelConfig.fromJson(File(dir, "config.json").readText())
        assertEquals(listOf("O") + NerLabels.ENTITIES.keys.flatMap { listOf("B-$it", "I-$it") }, config.labels)
        assertEquals(512, config.maxPositions)
    }

    @Test
    fun `entity mappings, field words and role words are Python's labels yaml`() {
        val yaml = File(tools, "ner/labels.yaml").readText()
        val entity = Regex("""^  ([A-Z_]+): \{labels: \[([A-Z, ]+)\](?:, recognizer: ([a-z_]+))?\}$""", RegexOption.MULTILINE)
        val mappings =
            entity.findAll(yaml).associate { match ->
                val (name, labels, recognizer) = match.destructured
                name to EntityMapping(labels.split(",").map { it.trim() }, recognizer.ifEmpty { null })
            }
        assertEquals(NerLabels.ENTITIES.toList(), mappings.toList())
        val fieldBlock = yaml.substringAfter("field_words: [").substringBefore("]")
        val fields =
            fieldBlock
                .split(",")
                .map { PyText.casefold(it.trim()) }
                .filter { it.isNotEmpty() }
                .toSet()
        assertEquals(fields, NerLabels.FIELD_WORDS)
        fun perCategory(key: String) =
            Regex("""^ {2}([A-Za-z ]+): \[([^\]]*)\]""", RegexOption.MULTILINE)
                .findAll(yaml.substringAfter("\n$key:\n").substringBefore("\n\n"))
                .associate { match ->
                    val category = checkNotNull(Category.fromLabel(match.groupValues[1])) { match.groupValues[1] }
                    category to
                        match.groupValues[2]
                            .split(",")
                            .map { PyText.casefold(it.trim()) }
                            .filter { it.isNotEmpty() }
                            .toSet()
                }
        assertEquals(perCategory("preserve_roles"), NerLabels.PRESERVE_ROLES)
        assertEquals(perCategory("identifier_roles"), NerLabels.IDENTIFIER_ROLES)
        assertEquals(perCategory("byline_openers"), NerLabels.BYLINE_OPENERS)
        assertEquals(perCategory("equipment_makes"), NerLabels.EQUIPMENT_MAKES)
        assertEquals(
            PyText.casefold(yaml.substringAfter("held_identifier_roles: [").substringBefore("]")).split(",").map { it.trim() }.toSet(),
            NerLabels.HELD_IDENTIFIER_ROLES,
        )
        fun exact(key: String) = exactList(yaml.substringAfter("$key: [").substringBefore("]").replace("\"", ""))
        assertEquals(exact("organisation_forms"), NerLabels.ORGANISATION_FORMS)
        assertEquals(exact("organisation_connectors"), NerLabels.ORGANISATION_CONNECTORS)
    }
}
