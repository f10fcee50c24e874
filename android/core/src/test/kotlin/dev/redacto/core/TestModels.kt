package dev.redacto.core

import dev.redacto.core.modelfile.PipelineSettings

/**
 * What a script declares when a test is about anything but the model's policy: a validator
 * measured and trusted, so a PASS ends PASS. Without it a script is an unknown model, whose
 * runs end NEEDS_REVIEW on PASS ([ModelPolicyTest]).
 */
val TRUSTING = PipelineSettings(trustValidatorPass = true)
