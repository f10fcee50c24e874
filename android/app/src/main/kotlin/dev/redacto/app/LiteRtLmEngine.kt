package dev.redacto.app

import com.google.ai.edge.litertlm.Backend
import com.google.ai.edge.litertlm.Contents
import com.google.ai.edge.litertlm.Conversation
import com.google.ai.edge.litertlm.ConversationConfig
import com.google.ai.edge.litertlm.Engine
import com.google.ai.edge.litertlm.EngineConfig
import com.google.ai.edge.litertlm.Message
import com.google.ai.edge.litertlm.MessageCallback
import com.google.ai.edge.litertlm.ResponseFormat
import com.google.ai.edge.litertlm.SamplerConfig
import dev.redacto.core.ModelIdentity
import dev.redacto.core.engines.ConversationEngine
import dev.redacto.core.engines.ConversationRuntime
import dev.redacto.core.engines.ConversationSpec
import dev.redacto.core.engines.EngineException
import dev.redacto.core.engines.LlmEngine
import dev.redacto.core.engines.NativeConversation
import dev.redacto.core.engines.ReplyListener
import dev.redacto.core.modelfile.ModelFileCheck
import dev.redacto.core.modelfile.PipelineSettings
import java.io.File

/**
 * The on-device model through LiteRT-LM's Kotlin API, as core's [LlmEngine]: a thin adapter.
 * All stream handling (no lost pieces, stop → cancel → wait for the end → close, the token
 * budget) is core's [ConversationEngine], tested on the JVM against a native-like fake.
 *
 * Written against `com.google.ai.edge.litertlm:litertlm-android` 0.18.0: `Engine(EngineConfig)`
 * + `initialize()`, `Backend.GPU()` / `Backend.CPU()`, `createConversation(ConversationConfig(
 * systemInstruction, samplerConfig, maxOutputToken))`, the callback form
 * `Conversation.sendMessageAsync(String, MessageCallback)` (its `Flow` form drops pieces with an
 * ignored `trySend`), `cancelProcess()`, `close()`. Constrained decoding (a request's
 * `constraint`, core's [dev.redacto.core.pipeline.answerPattern]): `ConversationConfig(enableResponseFormat
 * = true)` (LLGuidance) and `sendMessageAsync(..., responseFormat = ResponseFormat.regex(pattern))`,
 * in the 0.18.0 AAR's public API. Not compiled here (no Android SDK), and constrained decoding
 * not yet run on a phone's GPU backend (docs/android-core.md).
 */
class LiteRtLmEngine private constructor(
    private val runtime: LiteRtLmRuntime,
) : LlmEngine by ConversationEngine(runtime) {
    /** The backend that loaded the model: GPU or CPU. */
    val backend: String get() = runtime.backend

    companion object {
        /**
         * Loads [model] on the GPU, else the CPU. Blocks for seconds: call it off the main
         * thread. The engine carries what the file itself carries (core's [ModelFileCheck]:
         * its identity and policy state, and the settings a run on it gets — the fail-closed
         * ones unless its sealed policy verified), never anything read from its name. Throws
         * [EngineException] naming each backend's failure, including a native library that
         * cannot be loaded on this device. There is no NPU path: no model of ours is compiled
         * for a phone's NPU (docs/android.md, "The NPU").
         */
        fun open(
            model: ModelFile,
            cacheDir: File,
        ): LiteRtLmEngine {
            val path = model.file.absolutePath
            val identity = model.check.identity(uri = "litertlm:$path", name = model.name)
            val failures = mutableListOf<String>()
            for (backend in listOf(Backend.GPU(), Backend.CPU())) {
                try {
                    val engine = Engine(EngineConfig(modelPath = path, backend = backend, cacheDir = cacheDir.absolutePath))
                    engine.initialize()
                    return LiteRtLmEngine(LiteRtLmRuntime(engine, backend.name, identity, model.check.settings))
                } catch (error: Exception) {
                    failures.add("${backend.name}: ${error::class.simpleName}")
                } catch (error: LinkageError) {
                    // UnsatisfiedLinkError / ExceptionInInitializerError: the native library.
                    failures.add("${backend.name}: ${error::class.simpleName}")
                }
            }
            throw EngineException("could not load ${model.name} on any backend (${failures.joinToString("; ")})")
        }
    }
}

/** One loaded LiteRT-LM [Engine]; every conversation is fresh and greedy. */
private class LiteRtLmRuntime(
    private val engine: Engine,
    override val backend: String,
    override val identity: ModelIdentity,
    override val settings: PipelineSettings,
) : ConversationRuntime {
    override val supportsConstraints: Boolean get() = true

    override fun open(spec: ConversationSpec): NativeConversation =
        LiteRtLmConversation(
            engine.createConversation(
                ConversationConfig(
                    systemInstruction = spec.system?.let { Contents.of(it) },
                    samplerConfig = GREEDY,
                    maxOutputToken = spec.maxOutputTokens,
                    // LLGuidance is set up only for a conversation whose reply is constrained.
                    enableResponseFormat = spec.constraint != null,
                ),
            ),
            spec.constraint?.let { ResponseFormat.regex(it) },
        )

    override fun close() {
        if (engine.isInitialized()) engine.close()
    }

    private companion object {
        val GREEDY = SamplerConfig(topK = 1, topP = 1.0, temperature = 0.0, seed = 0)
    }
}

private class LiteRtLmConversation(
    private val conversation: Conversation,
    private val responseFormat: ResponseFormat?,
) : NativeConversation {
    override fun send(
        user: String,
        listener: ReplyListener,
    ) {
        conversation.sendMessageAsync(
            user,
            object : MessageCallback {
                override fun onMessage(message: Message) = listener.onPiece(message.toString())

                override fun onDone() = listener.onDone()

                override fun onError(throwable: Throwable) = listener.onError(throwable)
            },
            responseFormat = responseFormat,
        )
    }

    override fun cancel() = conversation.cancelProcess()

    override fun close() = conversation.close()
}
