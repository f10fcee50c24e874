package dev.redacto.core.engines

import dev.redacto.core.ModelIdentity
import dev.redacto.core.PolicyState
import dev.redacto.core.Step
import dev.redacto.core.modelfile.PipelineSettings
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.asFlow

/**
 * Answers each step from its own queue of canned replies, streaming them line by line, for
 * tests and golden vectors. Running out is an error, not a silent empty reply: a test that
 * makes one call too many must fail. So is a canned reply that a constrained request's
 * pattern forbids: a constrained model could not have given it.
 *
 * [declared] is the script's own `[pipeline]` table: a script is its own model, so its policy
 * travels with it as a built file's does (its identity says [PolicyState.DECLARED]). Without
 * one it runs the fail-closed defaults, as an unknown model ([PolicyState.ABSENT]). Mirrors
 * Python's `ScriptedEngine(settings=…)`.
 */
class ScriptedEngine(
    replies: Map<Step, List<String>>,
    declared: PipelineSettings? = null,
    uri: String = "scripted:<memory>",
) : LlmEngine {
    override val settings: PipelineSettings = declared ?: PipelineSettings()

    override val identity: ModelIdentity =
        ModelIdentity(uri = uri, name = "scripted", policy = if (declared == null) PolicyState.ABSENT else PolicyState.DECLARED)

    private val queues: Map<Step, ArrayDeque<String>> = Step.entries.associateWith { ArrayDeque(replies[it].orEmpty()) }

    override val supportsConstraints: Boolean get() = true

    /** Every request received, in call order (tests inspect the rendered prompts). */
    val requests: MutableList<ChatRequest> = mutableListOf()

    /** How many replies are left for [step] (tests assert the script was used up). */
    fun remaining(step: Step): Int = queues.getValue(step).size

    override fun stream(request: ChatRequest): Flow<String> = splitKeepingNewlines(next(request)).asFlow()

    /**
     * As [LlmEngine.complete], except that a stop at the script's last piece is not counted
     * as stopped: the reply had ended anyway (Python's scripted engine says the same).
     */
    override suspend fun complete(
        request: ChatRequest,
        onText: (String) -> Decoding,
    ): Reply {
        val text = next(request)
        val reply = collectReply(splitKeepingNewlines(text).asFlow(), onText)
        return reply.copy(stats = reply.stats.copy(stopped = reply.text.length < text.length))
    }

    private fun next(request: ChatRequest): String {
        requests.add(request)
        val queue = queues.getValue(request.step)
        if (queue.isEmpty()) throw EngineException("scripted engine has no reply left for step '${request.step.wire}'")
        val text = queue.removeFirst()
        val constraint = request.constraint
        if (constraint != null && !compileAnswerPattern(constraint).matcher(text).matches()) {
            throw EngineException(
                "scripted ${request.step.wire} reply does not match the request's constraint: a constrained model could not have answered it",
            )
        }
        return text
    }

    private fun splitKeepingNewlines(text: String): List<String> {
        val pieces = mutableListOf<String>()
        var start = 0
        while (start < text.length) {
            val newline = text.indexOf('\n', start)
            val end = if (newline < 0) text.length else newline + 1
            pieces.add(text.substring(start, end))
            start = end
        }
        return pieces
    }
}
