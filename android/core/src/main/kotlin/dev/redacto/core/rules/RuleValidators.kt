package dev.redacto.core.rules

/**
 * Checksums and range checks that turn a pattern's candidate into a verified identifier.
 *
 * A validator takes the text a pattern matched and returns the part of it that is a valid
 * identifier — the whole candidate, a prefix of it (an IBAN followed by a word the pattern
 * swallowed), or null. Returning a prefix keeps the match's start fixed, so the caller only
 * moves its end. The names are the ones `recognizers.yaml` uses; the rules mirror
 * `tools/redacto/rules/validators.py` one for one. Word lists a validator judges by
 * ([PersonalUrlLists]) live in the YAML as well, as its recognizer's `lists:`.
 */
object RuleValidators {
    /**
     * The validators a recognizer may name, by the name it uses in `recognizers.yaml`; those
     * that read word lists are in [WITH_LISTS].
     */
    val BY_NAME: Map<String, (String) -> String?> =
        mapOf(
            "payment_card" to ::paymentCard,
            "iban" to ::iban,
            "us_ssn" to ::usSsn,
            "itin" to ::itin,
            "taxpayer_number" to ::taxpayerNumber,
            "not_itin" to ::notItin,
            "aba_routing" to ::abaRouting,
            "phone" to ::phone,
            "identifier" to ::identifier,
            "licence_plate" to ::licencePlate,
            "email" to ::email,
            "numeric_date" to ::numericDate,
            "iso_date" to ::isoDate,
            "month_year" to ::monthYear,
            "month_name_date" to ::monthNameDate,
            "ipv4" to ::ipv4,
            "ipv6" to ::ipv6,
        )

    /**
     * Validators that judge by word lists kept in the YAML: each is built from its
     * recognizer's `lists:` ([IllegalArgumentException] when one is missing or unknown).
     */
    val WITH_LISTS: Map<String, (Map<String, List<String>>) -> (String) -> String?> =
        mapOf(
            "personal_url" to ::personalUrlFrom,
        )

    private val MONTHS =
        mapOf(
            "jan" to 1,
            "feb" to 2,
            "mar" to 3,
            "apr" to 4,
            "may" to 5,
            "jun" to 6,
            "jul" to 7,
            "aug" to 8,
            "sep" to 9,
            "oct" to 10,
            "nov" to 11,
            "dec" to 12,
        )
    private val DAYS_IN_MONTH = intArrayOf(31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    private val YEAR_RANGE = 1850..2150

    /** Only the ASCII digits of [text], in order. */
    fun digitsOf(text: String): String = text.filter { it in '0'..'9' }

    /** The Luhn (mod 10) check used by payment cards. */
    fun luhnValid(digits: String): Boolean {
        var total = 0
        digits.reversed().forEachIndexed { position, char ->
            var value = char - '0'
            if (position % 2 == 1) value = if (value > 4) value * 2 - 9 else value * 2
            total += value
        }
        return total % 10 == 0
    }

    /** A card network: its issuer prefix range (of [prefixLength] digits) and its valid lengths. */
    private class CardNetwork(
        val prefixLength: Int,
        val first: Int,
        val last: Int,
        val lengths: Set<Int>,
    )

    private val ANY_LENGTH = (13..19).toSet()
    private val FROM_16 = (16..19).toSet()
    private val DINERS = setOf(14, 16, 17, 18, 19)

    // ISO/IEC 7812 IIN ranges. Luhn alone accepts one random number in ten; requiring a real
    // network prefix and length keeps reference numbers from passing as cards.
    private val CARD_NETWORKS =
        listOf(
            CardNetwork(1, 4, 4, setOf(13, 16, 19)), // Visa
            CardNetwork(2, 51, 55, setOf(16)), // Mastercard
            CardNetwork(4, 2221, 2720, setOf(16)), // Mastercard 2-series
            CardNetwork(2, 34, 34, setOf(15)), // American Express
            CardNetwork(2, 37, 37, setOf(15)),
            CardNetwork(3, 300, 305, DINERS), // Diners Club
            CardNetwork(2, 36, 36, DINERS),
            CardNetwork(2, 38, 39, DINERS),
            CardNetwork(4, 6011, 6011, FROM_16), // Discover
            CardNetwork(3, 644, 649, FROM_16),
            CardNetwork(2, 65, 65, FROM_16),
            CardNetwork(2, 62, 62, FROM_16), // UnionPay
            CardNetwork(4, 3528, 3589, FROM_16), // JCB
            CardNetwork(2, 50, 50, ANY_LENGTH), // Maestro
            CardNetwork(2, 56, 58, ANY_LENGTH),
            CardNetwork(4, 6304, 6304, ANY_LENGTH),
            CardNetwork(4, 6759, 6759, ANY_LENGTH),
            CardNetwork(3, 676, 676, ANY_LENGTH),
            CardNetwork(1, 1, 1, setOf(15)), // UATP (airline cards, e.g. AirPlus)
        )

    /** A card network's prefix and length, and a valid Luhn check digit. */
    fun paymentCard(candidate: String): String? {
        val digits = digitsOf(candidate)
        if (digits.length !in 13..19 || !luhnValid(digits)) return null
        val known = CARD_NETWORKS.any { digits.take(it.prefixLength).toInt() in it.first..it.last && digits.length in it.lengths }
        return candidate.takeIf { known }
    }

    /** Total IBAN length per country (SWIFT IBAN registry). */
    val IBAN_LENGTHS: Map<String, Int> =
        mapOf(
            "AD" to 24,
            "AE" to 23,
            "AL" to 28,
            "AT" to 20,
            "AZ" to 28,
            "BA" to 20,
            "BE" to 16,
            "BG" to 22,
            "BH" to 22,
            "BI" to 27,
            "BR" to 29,
            "BY" to 28,
            "CH" to 21,
            "CR" to 22,
            "CY" to 28,
            "CZ" to 24,
            "DE" to 22,
            "DJ" to 27,
            "DK" to 18,
            "DO" to 28,
            "EE" to 20,
            "EG" to 29,
            "ES" to 24,
            "FI" to 18,
            "FK" to 18,
            "FO" to 18,
            "FR" to 27,
            "GB" to 22,
            "GE" to 22,
            "GI" to 23,
            "GL" to 18,
            "GR" to 27,
            "GT" to 28,
            "HN" to 28,
            "HR" to 21,
            "HU" to 28,
            "IE" to 22,
            "IL" to 23,
            "IQ" to 23,
            "IS" to 26,
            "IT" to 27,
            "JO" to 30,
            "KW" to 30,
            "KZ" to 20,
            "LB" to 28,
            "LC" to 32,
            "LI" to 21,
            "LT" to 20,
            "LU" to 20,
            "LV" to 21,
            "LY" to 25,
            "MC" to 27,
            "MD" to 24,
            "ME" to 22,
            "MK" to 19,
            "MN" to 20,
            "MR" to 27,
            "MT" to 31,
            "MU" to 30,
            "NI" to 28,
            "NL" to 18,
            "NO" to 15,
            "OM" to 23,
            "PK" to 24,
            "PL" to 28,
            "PS" to 29,
            "PT" to 25,
            "QA" to 29,
            "RO" to 24,
            "RS" to 22,
            "RU" to 33,
            "SA" to 24,
            "SC" to 31,
            "SD" to 18,
            "SE" to 24,
            "SI" to 19,
            "SK" to 24,
            "SM" to 27,
            "SO" to 23,
            "ST" to 25,
            "SV" to 28,
            "TL" to 23,
            "TN" to 24,
            "TR" to 26,
            "UA" to 29,
            "VA" to 22,
            "VG" to 24,
            "XK" to 20,
            "YE" to 30,
        )

    /** ISO 13616: move the first four characters to the end, letters to 10..35, mod 97 == 1. */
    fun ibanMod97Valid(compact: String): Boolean {
        val rearranged = compact.substring(4) + compact.substring(0, 4)
        var remainder = 0
        for (char in rearranged) {
            val value = if (char in '0'..'9') char - '0' else char - 'A' + 10
            remainder = (remainder * (if (value > 9) 100 else 10) + value) % 97
        }
        return remainder == 1
    }

    /**
     * A known country's IBAN of exactly its registered length with a valid mod-97 check. The
     * pattern may run on into a following upper-case word or number group; the country's
     * length says where the IBAN ends, so the candidate is cut there before the check. Spaces
     * and dashes between the groups (`AL47-2121-...`) do not count. Letters are read in either
     * case (`de89 3704 …`), as a bank reads them.
     */
    fun iban(candidate: String): String? {
        val length = IBAN_LENGTHS[candidate.take(2).uppercase()] ?: return null
        var taken = 0
        candidate.forEachIndexed { i, char ->
            if (char != ' ' && char != '-') taken++
            if (taken == length) {
                val prefix = candidate.substring(0, i + 1)
                return prefix.takeIf { ibanMod97Valid(it.replace(" ", "").replace("-", "").uppercase()) }
            }
        }
        return null
    }

    /** An SSN outside the never-issued ranges: area 000, 666, 900–999; group 00; serial 0000. */
    fun usSsn(candidate: String): String? {
        val digits = digitsOf(candidate)
        if (digits.length != 9) return null
        val area = digits.substring(0, 3)
        if (area == "000" || area == "666" || area[0] == '9' || digits.substring(3, 5) == "00" || digits.substring(5) == "0000") return null
        return candidate
    }

    /** The groups (4th and 5th digits) the IRS issues ITINs in. */
    private val ITIN_GROUPS = listOf(50..65, 70..88, 90..92, 94..99)

    /** Whether nine digits have an ITIN's area (9xx) and one of its groups. */
    private fun isItin(digits: String): Boolean = digits[0] == '9' && ITIN_GROUPS.any { digits.substring(3, 5).toInt() in it }

    /**
     * A US ITIN: nine digits, area 9xx, group in the ranges the IRS issues (50–65, 70–88,
     * 90–92, 94–99). The shape alone is distinctive enough to need no context word.
     */
    fun itin(candidate: String): String? {
        val digits = digitsOf(candidate)
        return candidate.takeIf { digits.length == 9 && isItin(digits) }
    }

    /**
     * Nine digits next to a tax word: an SSN, EIN or ITIN. One with a 9xx area is an ITIN only
     * in the ITIN groups; any other 9xx number is left to [notItin] (label ID).
     */
    fun taxpayerNumber(candidate: String): String? {
        val digits = digitsOf(candidate)
        if (digits.length != 9 || (digits[0] == '9' && !isItin(digits))) return null
        return identifier(candidate)
    }

    /**
     * Nine digits with a 9xx area outside the ITIN groups: neither SSN (9xx is never issued) nor
     * ITIN, yet written where a taxpayer number goes.
     */
    fun notItin(candidate: String): String? {
        val digits = digitsOf(candidate)
        if (digits.length != 9 || digits[0] != '9' || isItin(digits)) return null
        return candidate
    }

    /** A US bank routing number: 9 digits, weights 3-7-1 sum to a multiple of ten. */
    fun abaRouting(candidate: String): String? {
        val digits = digitsOf(candidate)
        if (digits.length != 9 || digits == "000000000") return null
        val weights = intArrayOf(3, 7, 1, 3, 7, 1, 3, 7, 1)
        val total = digits.indices.sumOf { (digits[it] - '0') * weights[it] }
        return candidate.takeIf { total % 10 == 0 }
    }

    /** 7–15 digits (E.164's maximum), not one digit repeated (000-000-0000 is filler). */
    fun phone(candidate: String): String? {
        val digits = digitsOf(candidate)
        if (digits.length !in 7..15 || digits.toSet().size == 1) return null
        return candidate
    }

    private val DATE_SHAPE = Regex("([0-9]{1,2}|[0-9]{4})-[0-9]{1,2}-([0-9]{2}|[0-9]{4})")

    /**
     * A record/account/member number: 5–20 characters holding at least 4 digits, and not a
     * valid dashed date (an "Account opened 2024-03-05" is a date, not a number).
     */
    fun identifier(candidate: String): String? {
        val compact = candidate.replace(" ", "").replace("-", "")
        if (compact.length !in 5..20 || digitsOf(compact).length < 4) return null
        if (DATE_SHAPE.matches(candidate) && (numericDate(candidate) != null || isoDate(candidate) != null)) {
            return null
        }
        return candidate
    }

    /** 4–8 capitals and digits (a dash or space aside) holding both: a plate, not a word or a number. */
    fun licencePlate(candidate: String): String? {
        val compact = candidate.replace(" ", "").replace("-", "")
        if (compact.length !in 4..8 || digitsOf(compact).isEmpty()) return null
        return if (compact.any { it in 'A'..'Z' }) candidate else null
    }

    /** The local part may not start or end with a dot, nor hold two dots in a row. */
    fun email(candidate: String): String? {
        val local = candidate.substringBefore("@").trimEnd(' ')
        if (local.startsWith(".") || local.endsWith(".") || ".." in local) return null
        return candidate
    }

    private fun validDay(
        year: Int?,
        month: Int,
        day: Int,
    ): Boolean {
        if (month !in 1..12 || day < 1 || day > DAYS_IN_MONTH[month - 1]) return false
        if (month == 2 && day == 29 && year != null) return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return true
    }

    private fun fullYear(yearText: String): Int = if (yearText.length == 4) yearText.toInt() else 2000 + yearText.toInt()

    private val DATE_SEPARATOR = Regex("[/.-]")

    /** D/M/Y or M/D/Y (either reading may be valid); dots need a four-digit year. */
    fun numericDate(candidate: String): String? {
        val parts = candidate.split(DATE_SEPARATOR)
        if (parts.size != 3) return null
        val (first, second, yearText) = parts
        if ('.' in candidate && yearText.length != 4) return null
        val year = fullYear(yearText)
        if (yearText.length == 4 && year !in YEAR_RANGE) return null
        val asMonthDay = validDay(year, first.toInt(), second.toInt())
        val asDayMonth = validDay(year, second.toInt(), first.toInt())
        return candidate.takeIf { asMonthDay || asDayMonth }
    }

    private val ISO_TIME =
        Regex("T([0-9]{2}):?([0-9]{2})(?::?([0-9]{2}))?(?:[.,][0-9]+)?(Z|[+-]([0-9]{2})(?::?([0-9]{2}))?)?")

    /** An ISO-8601 time of day `THH:MM[:SS][.fff][Z|±HH[:MM]]` that exists on a clock. */
    private fun validTime(timeText: String): Boolean {
        val groups = ISO_TIME.matchEntire(timeText)?.groupValues ?: return false
        fun number(index: Int): Int = groups[index].ifEmpty { "0" }.toInt()
        // A leap second is 60; zones run from -12 to +14.
        return number(1) <= 23 && number(2) <= 59 && number(3) <= 60 && number(5) <= 14 && number(6) <= 59
    }

    /**
     * Y-M-D with a four-digit year, and an ISO-8601 time after a `T` when there is one
     * (`2024-03-15T14:30:00Z`). A time that no clock shows leaves the date alone.
     */
    fun isoDate(candidate: String): String? {
        val dateText = candidate.substringBefore('T')
        val (yearText, month, day) = dateText.split(DATE_SEPARATOR)
        val year = yearText.toInt()
        if (year !in YEAR_RANGE || !validDay(year, month.toInt(), day.toInt())) return null
        return if ('T' !in candidate || validTime(candidate.substring(dateText.length))) candidate else dateText
    }

    /** A numeric month and four-digit year, `M/YYYY` or `MM/YYYY`: month 1–12, year 1850–2150. */
    fun monthYear(candidate: String): String? {
        val (month, year) = candidate.split("/")
        return candidate.takeIf { month.toInt() in 1..12 && year.toInt() in YEAR_RANGE }
    }

    private val MONTH_WORD = Regex("[A-Za-z]{3}")
    private val NUMBER = Regex("[0-9]+")

    /**
     * A date with the month spelled out: the day (if any) must exist in that month. A lone
     * number is a day when it has at most two digits, a year when it has four.
     */
    fun monthNameDate(candidate: String): String? {
        val monthWord = MONTH_WORD.find(candidate) ?: return null
        val month = MONTHS[monthWord.value.lowercase()] ?: return null
        val numbers = NUMBER.findAll(candidate).map { it.value }.toList()
        val day = numbers.firstOrNull { it.length <= 2 }?.toInt()
        val year = numbers.firstOrNull { it.length == 4 }?.toInt()
        if (year != null && year !in YEAR_RANGE) return null
        if (day == null) return candidate.takeIf { year != null }
        return candidate.takeIf { validDay(year, month, day) }
    }

    /**
     * The address of a candidate that may end in a CIDR prefix length (`10.1.0.0/16`), and
     * whether that suffix is a real one (at most [most] bits); no suffix counts as real.
     */
    private fun splitPrefixLength(
        candidate: String,
        most: Int,
    ): Pair<String, Boolean> {
        if ('/' !in candidate) return candidate to true
        val length = candidate.substringAfter('/')
        val real = length.isNotEmpty() && length.all { it in '0'..'9' } && length.toInt() <= most
        return candidate.substringBefore('/') to real
    }

    /** Four octets 0–255 without leading zeros, not 0.x (unspecified) or 127.x (loopback). */
    private fun ipv4Address(address: String): Boolean {
        val octets = address.split(".")
        if (octets.size != 4 || octets.any { it.length > 1 && it[0] == '0' }) return false
        // Python's int() would raise on a non-digit octet (only reachable through ipv6's tail).
        if (octets.any { octet -> octet.isEmpty() || !octet.all { it in '0'..'9' } }) return false
        val values = octets.map { it.toInt() }
        return !(values.any { it > 255 } || values[0] == 0 || values[0] == 127)
    }

    /**
     * Four octets 0–255, not the unspecified address 0.0.0.0 or loopback 127.x. A CIDR suffix
     * (`/24`, at most 32) belongs to the address; after a larger one, only the address is taken.
     */
    fun ipv4(candidate: String): String? {
        val (address, realSuffix) = splitPrefixLength(candidate, 32)
        if (!ipv4Address(address)) return null
        return if (realSuffix) candidate else address
    }

    private val HEX_GROUP = Regex("[0-9A-Fa-f]{1,4}")

    /**
     * Eight hex groups, or fewer with one `::`; an IPv4 tail counts as two groups. Loopback
     * (::1) and the unspecified address (::) identify no one and are rejected; so is anything
     * with fewer than three groups, which keeps times and ratios out. A CIDR suffix (`/64`, at
     * most 128) belongs to the address; after a larger one, only the address is taken.
     */
    fun ipv6(candidate: String): String? {
        val (address, realSuffix) = splitPrefixLength(candidate, 128)
        if (countNonOverlapping(address, "::") > 1) return null
        val parts = address.split("::").filter { it.isNotEmpty() }.flatMap { it.split(":") }
        if (parts.any { it.isEmpty() }) return null
        var count = 0
        for ((position, group) in parts.withIndex()) {
            if ('.' in group) {
                if (position != parts.lastIndex || !ipv4Address(group)) return null
                count += 2
            } else if (HEX_GROUP.matches(group)) {
                count++
            } else {
                return null
            }
        }
        val compressed = "::" in address
        if (count > 8 || (!compressed && count != 8) || (compressed && count > 7)) return null
        if (count < 3) return null
        return if (realSuffix) candidate else address
    }

    /** Python's `str.count(sub)`: non-overlapping occurrences. */
    private fun countNonOverlapping(
        text: String,
        sub: String,
    ): Int {
        var count = 0
        var at = text.indexOf(sub)
        while (at >= 0) {
            count++
            at = text.indexOf(sub, at + sub.length)
        }
        return count
    }

    private fun personalUrlFrom(lists: Map<String, List<String>>): (String) -> String? {
        val words = PersonalUrlLists.fromLists(lists)
        return { candidate -> personalUrl(candidate, words) }
    }

    private const val URL_TRAILING_PUNCTUATION = ".,;:!?)]}'\""

    /**
     * A URL that points at a person: a profile on a social host, a `~user` or `/users/x` path,
     * or a query carrying an email, user or name. Institutions' own pages are kept.
     */
    fun personalUrl(
        candidate: String,
        lists: PersonalUrlLists,
    ): String? {
        val url = candidate.trimEnd { it in URL_TRAILING_PUNCTUATION }
        val parsed = UrlParts.split(if ("://" in url) url else "https://$url") ?: return null
        val host = (parsed.hostname ?: "").lowercase().removePrefix("www.").removePrefix("m.")
        val segments = parsed.path.split("/").filter { it.isNotEmpty() }
        if (host in lists.profileHosts && segments.isNotEmpty() && segments[0].lowercase() !in lists.nonProfilePaths) return url
        if (segments.any { it.startsWith("~") && it.length > 1 }) return url
        for (position in 0 until segments.size - 1) {
            if (segments[position].lowercase() in lists.personalSegments && segments[position + 1].isNotEmpty()) return url
        }
        val keys =
            parsed.query
                .split("&")
                .filter { '=' in it }
                .map { it.substringBefore("=").lowercase() }
                .toSet()
        if (keys.any { it in lists.personalQueryKeys }) return url
        return null
    }
}

/**
 * The words [RuleValidators.personalUrl] judges a URL by, kept in recognizers.yaml (the
 * `lists:` of the `personal_url` recognizer) so that Python and Kotlin read one copy.
 */
data class PersonalUrlLists(
    /** Hosts where the first path segment is a person's profile or handle. */
    val profileHosts: Set<String>,
    /** First path segments on those hosts that are the site's own pages (`/about`). */
    val nonProfilePaths: Set<String>,
    /** Path segments that, with another after them, name a person (`/users/bob`). */
    val personalSegments: Set<String>,
    /** Query keys whose value reaches a person (`?email=...`). */
    val personalQueryKeys: Set<String>,
) {
    companion object {
        private val NAMES = listOf("profile_hosts", "non_profile_paths", "personal_segments", "personal_query_keys")

        /** From the YAML's lists, lower-cased as the URL's parts are; a list missing or unknown throws. */
        fun fromLists(lists: Map<String, List<String>>): PersonalUrlLists {
            require(lists.keys == NAMES.toSet()) { "personal_url reads the lists ${NAMES.sorted()}, got ${lists.keys.sorted()}" }
            val (hosts, paths, segments, keys) = NAMES.map { name -> lists.getValue(name).map { it.lowercase() }.toSet() }
            return PersonalUrlLists(hosts, paths, segments, keys)
        }
    }
}

/** The parts of a URL that Python's `urllib.parse.urlsplit` gives, for what [RuleValidators.personalUrl] reads. */
internal data class UrlParts(
    val hostname: String?,
    val path: String,
    val query: String,
) {
    companion object {
        private val SCHEME_CHARS = ('a'..'z').toSet() + ('A'..'Z') + ('0'..'9') + setOf('+', '-', '.')

        /**
         * Null for any bracket in the host, where `urlsplit` raises ("Invalid IPv6 URL", or a
         * bracketed host that is no IP address): such a candidate is not a personal URL.
         */
        fun split(input: String): UrlParts? {
            var url = input.trim { it <= ' ' }.filter { it != '\t' && it != '\r' && it != '\n' }
            val colon = url.indexOf(':')
            if (colon > 0 && url[0].isLetter() && url[0].code < 128 && url.substring(0, colon).all { it in SCHEME_CHARS }) {
                url = url.substring(colon + 1)
            }
            var netloc = ""
            if (url.startsWith("//")) {
                val end = url.indexOfAny(charArrayOf('/', '?', '#'), 2).let { if (it < 0) url.length else it }
                netloc = url.substring(2, end)
                url = url.substring(end)
                if ('[' in netloc || ']' in netloc) return null
            }
            url = url.substringBefore('#')
            val query = if ('?' in url) url.substringAfter('?') else ""
            val path = url.substringBefore('?')
            return UrlParts(hostname(netloc), path, query)
        }

        private fun hostname(netloc: String): String? {
            val hostPort = netloc.substringAfterLast('@')
            val host = hostPort.substringBefore(':')
            if (host.isEmpty()) return null
            // A scoped address's zone (after '%') keeps its case, as in Python.
            return host.substringBefore('%').lowercase() + host.substring(host.substringBefore('%').length)
        }
    }
}
