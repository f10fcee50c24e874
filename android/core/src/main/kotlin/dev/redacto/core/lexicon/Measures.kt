package dev.redacto.core.lexicon

import dev.redacto.core.text.PyText
import dev.redacto.core.text.wordList

/**
 * Measurements the residual check reads as such: a dose, a reading, a length of time
 * (`redacto.lexicon.measures`, word for word). A number of at most four digits (five with a
 * decimal part) with a unit of a closed list (`500 mg`, `37.5°C`, `72/min`), or a vital sign's
 * reading after its label (`BP 128/82`, `TA 12/8`, `HR 110`). [ResidualWords] applies the guards
 * that need the surrounding tokens (a line's edge, a number sign or field label before).
 */
object Measures {
    /** Units of two letters or more, case-folded (`mL`, `IU`, `mmHg` are read as `ml`, `iu`, `mmhg`). */
    val UNITS: Set<String> =
        wordList(
            """
            # mass, volume, dose
            mg, mcg, µg, μg, kg, ml, dl, cl, iu, ui, unit, units, unité, unités, mmol, lb, lbs,
            # pressure, rate
            mmhg, cmhg, bpm,
            # length
            mm, cm, km,
            # temperature
            °, °c, °f,
            # time
            hr, hrs, hour, hours, heure, heures, min, mins, minute, minutes, day, days, jour, jours,
            week, weeks, semaine, semaines, month, months, mois, year, years, ans, année, années,
            """,
        )

    /** Units of one letter, as written: a capital is an initial (`4432 M.`), but for litres. */
    val ONE_LETTER_UNITS: Set<String> = setOf("g", "h", "l", "L", "m")

    /** What a unit may be per (`mg/kg`, `mg/dL`, `mL/h`, `72/min`, `2/j`), case-folded. */
    val PER_UNITS: Set<String> = wordList("kg, dl, l, h, min, d, j, day, jour, 24h")

    /** The units of a blood pressure, written after a reading (`128/82 mmHg`), case-folded. */
    val PRESSURE_UNITS: Set<String> = wordList("mmhg, cmhg")

    /** Labels a blood pressure's reading follows (`BP`, French `TA`, tension artérielle). */
    val PRESSURE_LABELS: Set<String> = wordList("bp, ta")

    /** Labels a heart rate of at most three digits follows (`HR`, French `FC`). */
    val RATE_LABELS: Set<String> = wordList("hr, fc, pulse, pouls")

    /** Words after which a number is a reference, never a measurement (case-folded; `#` and the field labels too). */
    val NUMBER_SIGNS: Set<String> = wordList("n°, nº, №, num, numéro, numero, ref, réf")

    private val NUMBER = PyText.regex("""\d{1,4}(?:[.,]\d{1,3})?""")
    private val READING = PyText.regex("""\d{1,3}/\d{1,3}""")
    private val RATE = PyText.regex("""\d{1,3}""")

    /** A measurement's number: at most four digits, a decimal part, at most five digits in all (`500`, `0.125`). */
    fun measureNumber(text: String): Boolean =
        NUMBER.matcher(text).matches() && text.codePoints().filter { PyText.isDigit(it) }.count() <= 5

    /** A unit of the closed lists, alone or per another (`mg`, `mL/h`), or a rate with no unit before the slash (`/min`). */
    fun isUnit(text: String): Boolean {
        val slash = text.indexOf('/')
        val unit = if (slash < 0) text else text.substring(0, slash)
        if (slash >= 0 && PyText.casefold(text.substring(slash + 1)) !in PER_UNITS) return false
        if (unit.isEmpty()) return slash >= 0
        return if (unit.codePointCount(0, unit.length) == 1) unit in ONE_LETTER_UNITS else PyText.casefold(unit) in UNITS
    }

    /**
     * A number joined to its unit (`500mg`, `72/min`, `128/82mmHg`), or a number whose next
     * token, trimmed ([after]), is one (`500` before `mg`; a reading before `mmHg`).
     */
    fun withUnit(
        word: String,
        after: String?,
    ): Boolean {
        val number = NUMBER.matcher(word)
        if (number.lookingAt() && measureNumber(number.group())) {
            val rest = word.substring(number.end())
            if (rest.isNotEmpty() && isUnit(rest)) return true
            if (rest.isEmpty() && after != null && isUnit(after)) return true
        }
        val reading = READING.matcher(word)
        if (!reading.lookingAt()) return false
        val rest = word.substring(reading.end())
        val unit = rest.ifEmpty { after ?: "" }
        return PyText.casefold(unit) in PRESSURE_UNITS
    }

    /**
     * A vital sign's reading after its [label] (case-folded): a pressure `a/b` of up to three
     * digits each after `bp`/`ta` (a unit joined or not), a rate of up to three digits after
     * `hr`/`fc`/`pulse`/`pouls`.
     */
    fun vitalReading(
        word: String,
        label: String,
    ): Boolean {
        if (label in PRESSURE_LABELS) {
            val reading = READING.matcher(word)
            if (reading.lookingAt()) {
                val rest = word.substring(reading.end())
                return rest.isEmpty() || PyText.casefold(rest) in PRESSURE_UNITS
            }
        }
        return label in RATE_LABELS && RATE.matcher(word).matches()
    }
}
