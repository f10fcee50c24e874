package dev.redacto.app

import com.google.ai.edge.litertlm.Backend
import com.google.ai.edge.litertlm.Contents
import com.google.ai.edge.litertlm.ConversationConfig
import com.google.ai.edge.litertlm.Engine
import com.google.ai.edge.litertlm.EngineConfig
import com.google.ai.edge.litertlm.SamplerConfig
import dev.redacto.core.ChatRequest
import dev.redacto.core.EngineException
import dev.redacto.core.LlmEngine
import dev.redacto.core.ModelIdentity
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.ensureActive
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.flowOn
import kotlinx.coroutines.flow.takeWhile
import java.io.File

/**
 * The on-device model through LiteRT-LM's Kotlin API, as core's [LlmEngine].
 *
 * Written against `com.google.ai.edge.litertlm:litertlm-android` 0.18.0: `Engine(EngineConfig)`
 * + `initialize()`, `Backend.NPU(nativeLibraryDir)` / `Backend.GPU()` / `Backend.CPU()`,
 * `createConversation(ConversationConfig(systemInstruction = Contents.of(…), samplerConfig))`,
 * `Conversation.sendMessageAsync(String): Flow<Message>`, `cancelProcess()`, `close()` (API as
 * in LiteRT-LM's kotlin/java/com/google/ai/edge/litertlm/{Config,Engine,Conversation,Message}.kt
 * and docs/api/kotlin/getting_started.md).
 *
 * Every call is a fresh conversation that is closed afterwards, so no call sees another's
 * text. Decoding is greedy (top-k 1); the NPU executor has no sampler, so it gets none. A
 * collector that stops reading (core's `complete` on `Decoding.STOP`) cancels the generation:
 * the conversation is cancelled and closed before `complete` returns.
 */
class LiteRtLmEngine private constructor(
    private val engine: Engine,
    /** The backend that loaded the model: NPU, GPU or CPU. */
    val backend: String,
    override val identity: ModelIdentity,
) : LlmEngine {
    override fun stream(request: ChatRequest): Flow<String> =
        flow {
            val config =
                ConversationConfig(
                    systemInstruction = Contents.of(request.system),
                    samplerConfig = if (backend == "NPU") null else GREEDY,
                )
            val conversation =
                try {
                    engine.createConversation(config)
                } catch (error: Exception) {
                    throw EngineException("LiteRT-LM could not start a conversation on $backend: ${error::class.simpleName}", error)
                }
            var pieces = 0
            var collectorStopped = false
            try {
                // One message piece is about one token: stop at the step's output budget.
                conversation
                    .sendMessageAsync(request.user)
                    .takeWhile { pieces++ < request.maxOutputTokens }
                    .collect { message ->
                        try {
                            emit(message.toString())
                        } catch (stop: CancellationException) {
                            collectorStopped = true
                            throw stop
                        }
                    }
                if (pieces > request.maxOutputTokens) conversation.cancelProcess()
            } catch (error: CancellationException) {
                runCatching { conversation.cancelProcess() }
                // Our caller cancelled or stopped reading: let it. The runtime cancelled on its
                // own: an engine failure.
                if (collectorStopped) throw error
                currentCoroutineContext().ensureActive()
                throw EngineException("LiteRT-LM cancelled the generation on $backend", error)
            } catch (error: Exception) {
                throw EngineException("LiteRT-LM failed while generating on $backend: ${error::class.simpleName}", error)
            } finally {
                runCatching { conversation.close() }
            }
        }.flowOn(Dispatchers.IO)

    override fun close() {
        if (engine.isInitialized()) engine.close()
    }

    companion object {
        private val GREEDY = SamplerConfig(topK = 1, topP = 1.0, temperature = 0.0, seed = 0)

        /**
         * Loads [model] on the first backend that accepts it: NPU (vendor libraries packaged in
         * the app's native library folder), then GPU, then CPU. Blocks for seconds: call it off
         * the main thread. Throws [EngineException] naming each backend's failure.
         */
        fun open(
            model: File,
            sha256: String?,
            nativeLibraryDir: String,
            cacheDir: File,
        ): LiteRtLmEngine {
            val identity = ModelIdentity(uri = "litertlm:${model.absolutePath}", name = model.name, sha256 = sha256)
            val failures = mutableListOf<String>()
            for (backend in listOf(Backend.NPU(nativeLibraryDir = nativeLibraryDir), Backend.GPU(), Backend.CPU())) {
                val engine = Engine(EngineConfig(modelPath = model.absolutePath, backend = backend, cacheDir = cacheDir.absolutePath))
                try {
                    engine.initialize()
                    return LiteRtLmEngine(engine, backend.name, identity)
                } catch (error: Exception) {
                    failures.add("${backend.name}: ${error::class.simpleName}")
                }
            }
            throw EngineException("could not load ${model.name} on any backend (${failures.joinToString("; ")})")
        }
    }
}
