package dev.redacto.core

/*
 * The values that flow through the pipeline: elements, detections, spans.
 *
 * They mirror `tools/redacto/document.py` field for field, so a golden vector means the same
 * thing to the Python toolchain and to the phone.
 */

/** The seven redaction categories; each has its own detect and validate prompts. */
enum class Category(
    val label: String,
) {
    MEDICAL("Medical"),
    FINANCIAL("Financial"),
    LEGAL("Legal"),
    TACTICAL("Tactical"),
    JOURNALISM("Journalism"),
    FIELD_SERVICE("Field Service"),
    GENERAL("General"),
    ;

    companion object {
        /** The category whose label is exactly [label], or null. */
        fun fromLabel(label: String): Category? = entries.firstOrNull { it.label == label }
    }
}

/** Image mode works on indexed OCR elements; text mode on plain text spans. */
enum class Mode(
    val wire: String,
) {
    IMAGE("image"),
    TEXT("text"),
    ;

    companion object {
        fun fromWire(wire: String): Mode = entries.firstOrNull { it.wire == wire } ?: throw IllegalArgumentException("unknown mode '$wire'")
    }
}

/** The four LLM-driven steps. Engines and traces are keyed by these names. */
enum class Step(
    val wire: String,
) {
    CLASSIFY("classify"),
    DETECT("detect"),
    REDACT("redact"),
    VALIDATE("validate"),
    ;

    companion object {
        fun fromWire(wire: String): Step = entries.firstOrNull { it.wire == wire } ?: throw IllegalArgumentException("unknown step '$wire'")
    }
}

/**
 * Who found a detection: a checksum rule, the detector, the validator, or a person reviewing
 * the run (`reviewer`: Python's `redacto serve`; the app has no review step yet).
 */
enum class Source(
    val wire: String,
) {
    RULE("rule"),

    /** The NER tier ([NerTier]). */
    NER("ner"),
    DETECT("detect"),
    VALIDATE("validate"),

    /** Validate's second opinion: the rules or the NER tier reading the redacted output ([SecondOpinion]). */
    VALIDATE_RULES("validate-rules"),
    VALIDATE_NER("validate-ner"),

    /** The residual check under [PipelineOptions.strict]: a word no reader could explain ([ResidualCheck]). */
    LEXICON("lexicon"),
    REVIEWER("reviewer"),
    ;

    companion object {
        fun fromWire(wire: String): Source =
            entries.firstOrNull { it.wire == wire } ?: throw IllegalArgumentException("unknown source '$wire'")
    }
}

/** Outcome of one run. A run that could not be verified is never PASS. */
enum class Status {
    PASS,
    NEEDS_REVIEW,
    ERROR,
}

/** An axis-aligned rectangle in pixels of the original image (x1, y1 exclusive). */
data class Box(
    val x0: Double,
    val y0: Double,
    val x1: Double,
    val y1: Double,
) {
    init {
        require(x1 >= x0 && y1 >= y0) { "box corners out of order: $this" }
    }

    val width: Double get() = x1 - x0
    val height: Double get() = y1 - y0
    val area: Double get() = width * height

    fun asList(): List<Double> = listOf(x0, y0, x1, y1)
}

/** One word of the document: its global reading-order index, text and (for images) box. */
data class Element(
    val index: Int,
    val text: String,
    val box: Box? = null,
    val page: Int = 0,
) {
    init {
        require(index >= 0) { "element index must be >= 0, got $index" }
    }
}

/** What the pipeline redacts: indexed elements (image mode) or plain text (text mode). */
data class Document(
    val mode: Mode,
    val elements: List<Element> = emptyList(),
    val text: String = "",
    val imageSize: Pair<Int, Int>? = null,
) {
    init {
        elements.forEachIndexed { position, element ->
            require(element.index == position) { "element indices must be 0..n-1 in reading order" }
        }
    }

    /** The document as one string: the text itself, or the elements joined by spaces. */
    fun plainText(): String = if (mode == Mode.TEXT) text else elements.joinToString(" ") { it.text }

    companion object {
        fun fromText(text: String): Document = Document(mode = Mode.TEXT, text = text)

        fun fromElements(
            elements: List<Element>,
            imageSize: Pair<Int, Int>? = null,
        ): Document = Document(mode = Mode.IMAGE, elements = elements, imageSize = imageSize)
    }
}

/** A character range [start, end) in a text-mode document. */
data class Span(
    val start: Int,
    val end: Int,
) {
    init {
        require(start >= 0 && end >= 0) { "span bounds must be >= 0: [$start, $end)" }
    }
}

/** One identifier found: by element index (image mode) or by value/span (text mode). */
data class Detection(
    val label: String,
    val source: Source,
    val round: Int,
    val index: Int? = null,
    val value: String? = null,
    val span: Span? = null,
) {
    init {
        require(round >= 1) { "detection round must be >= 1, got $round" }
    }
}
