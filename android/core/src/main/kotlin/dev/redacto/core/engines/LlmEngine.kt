package dev.redacto.core.engines

import dev.redacto.core.ModelIdentity
import dev.redacto.core.Step
import dev.redacto.core.modelfile.PipelineSettings
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.collect
import kotlinx.coroutines.flow.takeWhile
import java.util.regex.Pattern

/** The engine could not produce a reply (load failure, runtime error, script exhausted). */
open class EngineException(
    message: String,
    cause: Throwable? = null,
) : RuntimeException(message, cause)

/**
 * One call: a fresh conversation with a system prompt and one user message. [constraint]: the
 * whole reply must match this regular expression (an [answerPattern]); only for an engine
 * whose [LlmEngine.supportsConstraints] is true — any other refuses it.
 */
data class ChatRequest(
    val step: Step,
    val system: String,
    val user: String,
    val maxOutputTokens: Int = 512,
    val constraint: String? = null,
)

/**
 * A [ChatRequest.constraint] as Java reads it: plain [Pattern.compile], not `PyText.regex`
 * (whose textual `\\s` translation would misread an escaped backslash before an `s`). An
 * answer pattern uses only literals, escapes, classes, groups, alternation and counted
 * repetition, which Java, Python's `re` and LLGuidance read alike.
 */
fun compileAnswerPattern(pattern: String): Pattern = Pattern.compile(pattern)

/** The engine was asked to constrain a reply and cannot (see [LlmEngine.supportsConstraints]). */
class ConstraintUnsupportedException(
    engine: String,
) : EngineException("the engine '$engine' cannot constrain its replies; run it with constrained decoding off")

/** What an `onText` callback tells the engine after each piece of the reply. */
enum class Decoding {
    CONTINUE,

    /** The caller has what it needs, or knows the rest is unusable: stop generating. */
    STOP,
}

/**
 * What one call cost. Token counts are null where the runtime cannot say; [stopped] says the
 * caller stopped decoding before the model ended its reply.
 */
data class ReplyStats(
    val ms: Double,
    val promptTokens: Int? = null,
    val outputTokens: Int? = null,
    val ttftMs: Double? = null,
    val stopped: Boolean = false,
)

/** A finished reply: the whole text and its statistics. */
data class Reply(
    val text: String,
    val stats: ReplyStats,
)

/**
 * A model runtime: "send this system prompt and this user message in a new conversation,
 * give me the reply as a stream". Implementations must open a new conversation for every
 * call, and decode greedily (the phone's NPU exposes no sampling knobs).
 */
interface LlmEngine : AutoCloseable {
    val identity: ModelIdentity

    /**
     * How a run may use this model's answers ([runPipeline] applies them, [forModel]): what the
     * model itself carries — a `.litertlm` file's verified policy ([checkModelFile]), a script's
     * declared settings — never what its name suggests. An engine that knows of none keeps
     * the fail-closed defaults: its validator's PASS is not trusted. Python's `Engine.settings`.
     */
    val settings: PipelineSettings get() = PipelineSettings()

    /** Whether [complete] can honour [ChatRequest.constraint] (constrained decoding). */
    val supportsConstraints: Boolean get() = false

    /** The reply to [request], piece by piece as the model generates it. */
    fun stream(request: ChatRequest): Flow<String>

    /**
     * Runs one call; [onText] sees each piece as it arrives. When it returns [Decoding.STOP]
     * the stream is no longer collected — which cancels the engine's generation — and the
     * reply is the text up to and including that piece, with `stats.stopped` set. Engines
     * that know token counts override this to report them.
     */
    suspend fun complete(
        request: ChatRequest,
        onText: (String) -> Decoding = { Decoding.CONTINUE },
    ): Reply = collectReply(stream(request), onText)

    /** Releases the runtime. Safe to call more than once. */
    override fun close() {}
}

/**
 * Collects [pieces] into a [Reply] as [LlmEngine.complete] describes: the first
 * [Decoding.STOP] ends the collection there, which cancels the upstream flow.
 */
suspend fun collectReply(
    pieces: Flow<String>,
    onText: (String) -> Decoding,
): Reply {
    val started = System.nanoTime()
    var firstPieceAt: Long? = null
    var stopped = false
    val text = StringBuilder()
    pieces
        .takeWhile { piece ->
            if (firstPieceAt == null) firstPieceAt = System.nanoTime()
            text.append(piece)
            stopped = onText(piece) == Decoding.STOP
            !stopped
        }.collect()
    val ms = (System.nanoTime() - started) / 1e6
    val ttft = firstPieceAt?.let { (it - started) / 1e6 }
    return Reply(text.toString(), ReplyStats(ms = ms, ttftMs = ttft, stopped = stopped))
}
