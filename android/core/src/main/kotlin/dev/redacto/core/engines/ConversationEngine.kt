package dev.redacto.core.engines

import dev.redacto.core.ModelIdentity
import dev.redacto.core.modelfile.PipelineSettings
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeoutOrNull

/**
 * Receives one reply from a runtime's own thread, as LiteRT-LM's `MessageCallback` does:
 * pieces of text, then exactly one of [onDone] or [onError].
 */
interface ReplyListener {
    fun onPiece(text: String)

    fun onDone()

    fun onError(error: Throwable)
}

/**
 * How one conversation is opened: [system] is null when the request has no system prompt
 * (no empty system turn), [maxOutputTokens] is the step's budget in tokens, passed to the
 * runtime as Python passes `max_output_tokens`. [constraint]: the reply must match this
 * regular expression (LiteRT-LM: `enableResponseFormat` on the conversation, and the message
 * sent with `ResponseFormat.regex`); null decodes freely.
 */
data class ConversationSpec(
    val system: String?,
    val maxOutputTokens: Int,
    val constraint: String? = null,
) {
    companion object {
        fun of(request: ChatRequest): ConversationSpec =
            ConversationSpec(request.system.ifEmpty { null }, request.maxOutputTokens, request.constraint)
    }
}

/** One native conversation: a single message sent, its reply delivered on the runtime's thread. */
interface NativeConversation {
    /** Starts generating the reply to [user]; returns at once, the reply arrives on [listener]. */
    fun send(
        user: String,
        listener: ReplyListener,
    )

    /** Asks the runtime to stop; the reply still ends later with `onDone` or `onError`. */
    fun cancel()

    /** Frees the native conversation. Only called once its reply has ended. */
    fun close()
}

/** A loaded model that opens conversations (LiteRT-LM's `Engine` on one backend). */
interface ConversationRuntime : AutoCloseable {
    val identity: ModelIdentity

    /** The settings the loaded model carries ([LlmEngine.settings]); the fail-closed defaults unless told. */
    val settings: PipelineSettings get() = PipelineSettings()

    /** The backend that loaded the model, for messages ("GPU", "CPU"). */
    val backend: String

    /** Whether [open] honours [ConversationSpec.constraint] (constrained decoding). */
    val supportsConstraints: Boolean get() = false

    /** Opens a fresh conversation; may block (call it off the main thread). */
    fun open(spec: ConversationSpec): NativeConversation

    override fun close() {}
}

/**
 * [LlmEngine] over a callback runtime, with the stream handling the phone needs:
 * - no lost pieces: every callback goes into an unbounded channel, however slow the reader;
 * - drain-then-close: on a stop, the budget, an error or the caller's cancellation, the
 *   conversation is cancelled, the reply is awaited to its end (or error), and only then is
 *   the conversation closed; a runtime that does not end within [drainTimeoutMs] is left
 *   open (a leak) rather than freed under its running decode, and the call fails;
 * - the budget is counted in tokens: the runtime gets `maxOutputTokens`, and as a backstop at
 *   most that many non-empty pieces are read (a piece holds at least one token; empty
 *   pieces are skipped, as Python skips them).
 */
class ConversationEngine(
    private val runtime: ConversationRuntime,
    private val drainTimeoutMs: Long = DEFAULT_DRAIN_TIMEOUT_MS,
    private val blocking: CoroutineDispatcher = Dispatchers.IO,
) : LlmEngine {
    override val identity: ModelIdentity get() = runtime.identity

    override val settings: PipelineSettings get() = runtime.settings

    override val supportsConstraints: Boolean get() = runtime.supportsConstraints

    /** As [LlmEngine.stream]; a collector that stops reading cancels and drains the reply. */
    override fun stream(request: ChatRequest): Flow<String> =
        flow {
            decode(request) { piece ->
                emit(piece)
                Decoding.CONTINUE
            }
        }

    override suspend fun complete(
        request: ChatRequest,
        onText: (String) -> Decoding,
    ): Reply = decode(request) { onText(it) }

    override fun close() = runtime.close()

    private suspend fun decode(
        request: ChatRequest,
        onPiece: suspend (String) -> Decoding,
    ): Reply {
        if (request.constraint != null && !runtime.supportsConstraints) throw ConstraintUnsupportedException(identity.name)
        val conversation =
            try {
                withContext(blocking) { runtime.open(ConversationSpec.of(request)) }
            } catch (error: Exception) {
                throw EngineException("could not start a conversation on ${runtime.backend}: ${describe(error)}", error)
            }
        val events = Channel<ReplyEvent>(Channel.UNLIMITED)
        val reading = ReplyReading(System.nanoTime())
        try {
            conversation.send(request.user, ChannelListener(events))
        } catch (error: Exception) {
            withContext(NonCancellable + blocking) { conversation.close() }
            throw EngineException("${runtime.backend} refused the message: ${describe(error)}", error)
        }
        try {
            read(events, request, reading, onPiece)
        } finally {
            if (!reading.ended) drain(conversation, events)
            withContext(NonCancellable + blocking) { conversation.close() }
        }
        return reading.reply()
    }

    /** Reads until the reply ends, or the caller or the budget has enough (the reply still runs). */
    private suspend fun read(
        events: Channel<ReplyEvent>,
        request: ChatRequest,
        reading: ReplyReading,
        onPiece: suspend (String) -> Decoding,
    ) {
        while (true) {
            when (val event = events.receive()) {
                is ReplyEvent.Piece -> {
                    if (event.text.isEmpty()) continue
                    reading.add(event.text)
                    if (onPiece(event.text) == Decoding.STOP) {
                        reading.stopped = true
                        return
                    }
                    if (reading.pieces >= request.maxOutputTokens) return
                }
                ReplyEvent.Done -> {
                    reading.ended = true
                    return
                }
                is ReplyEvent.Failed -> {
                    reading.ended = true
                    throw EngineException("${runtime.backend} failed while generating: ${describe(event.error)}", event.error)
                }
            }
        }
    }

    /** Cancels the running reply and waits for its end; pieces that still arrive are dropped. */
    private suspend fun drain(
        conversation: NativeConversation,
        events: Channel<ReplyEvent>,
    ) = withContext(NonCancellable) {
        runCatching { conversation.cancel() }
        val ended =
            withTimeoutOrNull(drainTimeoutMs) {
                while (events.receive() is ReplyEvent.Piece) continue
            }
        if (ended == null) {
            throw EngineException(
                "${runtime.backend} did not stop within $drainTimeoutMs ms of being cancelled; " +
                    "its conversation is left open rather than freed under a running decode",
            )
        }
    }

    companion object {
        const val DEFAULT_DRAIN_TIMEOUT_MS = 30_000L

        private fun describe(error: Throwable): String = listOfNotNull(error::class.simpleName, error.message).joinToString(": ")
    }
}

private sealed interface ReplyEvent {
    data class Piece(
        val text: String,
    ) : ReplyEvent

    data object Done : ReplyEvent

    data class Failed(
        val error: Throwable,
    ) : ReplyEvent
}

/** Forwards the runtime's callbacks into [events]; `trySend` on an unlimited, never-closed channel always succeeds. */
private class ChannelListener(
    private val events: Channel<ReplyEvent>,
) : ReplyListener {
    override fun onPiece(text: String) = deliver(ReplyEvent.Piece(text))

    override fun onDone() = deliver(ReplyEvent.Done)

    override fun onError(error: Throwable) = deliver(ReplyEvent.Failed(error))

    private fun deliver(event: ReplyEvent) {
        events.trySend(event).getOrThrow()
    }
}

/** The text and timings of the reply read so far. */
private class ReplyReading(
    private val started: Long,
) {
    private val text = StringBuilder()
    private var firstPieceAt: Long? = null
    var pieces = 0
        private set
    var stopped = false

    /** The runtime has reported the reply's end (done or error): nothing more will arrive. */
    var ended = false

    fun add(piece: String) {
        if (firstPieceAt == null) firstPieceAt = System.nanoTime()
        pieces++
        text.append(piece)
    }

    fun reply(): Reply {
        val ms = (System.nanoTime() - started) / 1e6
        val ttft = firstPieceAt?.let { (it - started) / 1e6 }
        return Reply(text.toString(), ReplyStats(ms = ms, ttftMs = ttft, stopped = stopped))
    }
}
