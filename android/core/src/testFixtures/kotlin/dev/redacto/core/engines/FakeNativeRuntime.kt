package dev.redacto.core.engines

import dev.redacto.core.ModelIdentity
import java.util.Collections
import java.util.concurrent.CancellationException
import kotlin.concurrent.thread

/**
 * A runtime that behaves like LiteRT-LM's native side: each reply is produced on its own
 * thread, as fast as it can, whether or not anyone reads; `cancel` is only a request, after
 * which the thread keeps emitting [afterCancel] more pieces before it reports the
 * cancellation as an error (`CancellationException`, as the JNI callback maps kCancelled).
 */
class FakeNativeRuntime(
    private val script: List<String>,
    private val pieceDelayMs: Long = 0,
    private val afterCancel: Int = 20,
    private val failAfter: Int? = null,
    override val identity: ModelIdentity = ModelIdentity(uri = "fake:native", name = "fake"),
) : ConversationRuntime {
    override val backend = "FAKE"

    /** Every conversation opened, in order. */
    val conversations: MutableList<FakeConversation> = mutableListOf()

    override fun open(spec: ConversationSpec): NativeConversation =
        FakeConversation(spec, script, pieceDelayMs, afterCancel, failAfter).also { conversations.add(it) }
}

/** One fake native conversation; [log] records "cancel", "end" and "close" in the order they happen. */
class FakeConversation(
    val spec: ConversationSpec,
    private val script: List<String>,
    private val pieceDelayMs: Long,
    private val afterCancel: Int,
    private val failAfter: Int?,
) : NativeConversation {
    val log: MutableList<String> = Collections.synchronizedList(mutableListOf())

    @Volatile var running = false
        private set

    @Volatile var closed = false
        private set

    /** True if `close` came while the native thread was still decoding: the crash being guarded against. */
    @Volatile var closedWhileRunning = false
        private set

    @Volatile private var cancelled = false

    @Volatile private var halted = false

    private var worker: Thread? = null

    override fun send(
        user: String,
        listener: ReplyListener,
    ) {
        running = true
        worker = thread(name = "fake-native-decode") { decode(listener) }
    }

    private fun decode(listener: ReplyListener) {
        var sinceCancel = 0
        for ((index, piece) in script.withIndex()) {
            if (halted) break
            if (cancelled && sinceCancel++ >= afterCancel) break
            if (failAfter != null && index == failAfter) {
                end("error")
                listener.onError(IllegalStateException("native decode failed"))
                return
            }
            listener.onPiece(piece)
            if (pieceDelayMs > 0) Thread.sleep(pieceDelayMs)
        }
        end("end")
        if (cancelled) listener.onError(CancellationException("cancelled")) else listener.onDone()
    }

    private fun end(event: String) {
        log.add(event)
        running = false
    }

    override fun cancel() {
        log.add("cancel")
        cancelled = true
    }

    override fun close() {
        log.add("close")
        closedWhileRunning = running
        closed = true
    }

    /** Stops the native thread for good (a test's cleanup). */
    fun halt() {
        halted = true
        worker?.join(5_000)
    }
}
