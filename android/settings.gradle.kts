// The Android project: `core` (pure Kotlin, JVM-tested against tests/vectors) and, when an
// Android SDK is present, `app`. Without Gradle, android/core/test.sh builds and tests core.
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}

dependencyResolutionManagement {
    repositoriesMode.set(RepositoriesMode.FAIL_ON_PROJECT_REPOS)
    repositories {
        google()
        mavenCentral()
    }
}

rootProject.name = "redacto"
include(":core")
