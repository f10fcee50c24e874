package dev.redacto.core.session

import dev.redacto.core.Box
import dev.redacto.core.Status
import dev.redacto.core.engines.EngineException
import dev.redacto.core.inputs.InputRedaction
import dev.redacto.core.ocr.OcrException
import dev.redacto.core.pipeline.ProgressEvent
import kotlinx.coroutines.CancellationException
import java.io.IOException

/**
 * Where one redaction of a photo stands: [Idle] → [Reading] → [LoadingModel] → [Redacting] →
 * [Done] (PASS or NEEDS_REVIEW) or [Failed] (an ERROR report, or a runtime that failed). Every
 * state says the screen's progress line ([stage]); the screen draws [Redacting.boxes] and
 * [Done.boxes] as they come.
 */
sealed interface RedactState {
    /** The progress line for this state. */
    val stage: String

    /** How a run ends: [Done] or [Failed]. */
    sealed interface Ended : RedactState

    /** Nothing has run yet. */
    data object Idle : RedactState {
        override val stage: String get() = "Ready: tap Redact."
    }

    /** OCR is reading the page. */
    data object Reading : RedactState {
        override val stage: String get() = "Reading the page…"
    }

    /** The model (then the NER tier) is opening; [backend] once the model has loaded. */
    data class LoadingModel(
        val backend: String? = null,
    ) : RedactState {
        override val stage: String get() = "Loading the model…"
    }

    /** The pipeline runs; [boxes] are the elements found so far ([dev.redacto.core.pipeline.LiveBoxes]). */
    data class Redacting(
        val backend: String,
        val progress: ProgressEvent,
        val boxes: List<Box>,
    ) : RedactState {
        override val stage: String get() = progress.describe()
    }

    /**
     * The run ended PASS or NEEDS_REVIEW: [boxes] are exactly the report's, [redaction] holds
     * what to burn, [review] what the screen lists under NEEDS_REVIEW (empty on PASS).
     */
    data class Done(
        val redaction: InputRedaction,
        val backend: String,
        val boxes: List<Box>,
        val review: List<String>,
    ) : Ended {
        val status: Status get() = redaction.report.status

        override val stage: String
            get() = if (status == Status.PASS) "Verified: nothing readable left." else "NEEDS REVIEW: not verified."
    }

    /**
     * Nothing is claimed redacted. [redaction] is there when the run itself ended ERROR (an
     * engine failure inside the run, or a box that cuts ink running on past any word); it is
     * null when a runtime could not open or failed outside the run.
     */
    data class Failed(
        val failure: Failure,
        val detail: String?,
        val redaction: InputRedaction? = null,
    ) : Ended {
        override val stage: String get() = "Not redacted."

        /** What the screen says. */
        val message: String get() = failure.message(detail)
    }
}

/** Why a run failed, each with the screen's words. */
enum class Failure {
    /** The run ended with an ERROR report. */
    NOT_REDACTED,
    OCR,
    ENGINE,
    FILE,
    MEMORY,
    NATIVE_LIBRARY,
    UNEXPECTED,
    ;

    /** The message the screen shows, with [detail] where there is one. */
    fun message(detail: String?): String =
        when (this) {
            NOT_REDACTED -> "Not redacted: $detail"
            OCR -> "OCR failed: $detail"
            ENGINE -> "The model could not run: $detail"
            FILE -> detail ?: "Could not read or write a file."
            MEMORY -> "Not enough memory for this photo; try a smaller one. Nothing was redacted or saved."
            NATIVE_LIBRARY -> "A runtime library could not be loaded on this device ($detail)."
            UNEXPECTED -> "Something went wrong ($detail); nothing was redacted or saved."
        }

    companion object {
        /**
         * The failure a thrown error stands for. A runtime's native library that does not load
         * shows as a [LinkageError] (UnsatisfiedLinkError, ExceptionInInitializerError,
         * NoClassDefFoundError).
         */
        fun of(error: Throwable): RedactState.Failed =
            when (error) {
                is OcrException -> RedactState.Failed(OCR, error.message)
                is EngineException -> RedactState.Failed(ENGINE, error.message)
                is IOException -> RedactState.Failed(FILE, error.message)
                is OutOfMemoryError -> RedactState.Failed(MEMORY, null)
                is LinkageError -> RedactState.Failed(NATIVE_LIBRARY, error::class.simpleName)
                else -> RedactState.Failed(UNEXPECTED, error::class.simpleName)
            }
    }
}

/**
 * Runs [block]; what it throws is handed to [onFailure] as the failure it stands for
 * ([Failure.of]): an exception, no memory, or a runtime's native library that does not load.
 * Cancellation is rethrown, never a failure.
 */
internal inline fun <T> orFailure(
    block: () -> T,
    onFailure: (RedactState.Failed) -> T,
): T =
    try {
        block()
    } catch (error: CancellationException) {
        throw error
    } catch (error: Exception) {
        onFailure(Failure.of(error))
    } catch (error: OutOfMemoryError) {
        onFailure(Failure.of(error))
    } catch (error: LinkageError) {
        onFailure(Failure.of(error))
    }
