// Plugins are declared here once and applied in the modules that use them.
plugins {
    alias(libs.plugins.kotlin.jvm) apply false
}
