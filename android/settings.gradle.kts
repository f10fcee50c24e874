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

// The app needs the Android SDK (ANDROID_HOME, or sdk.dir in local.properties); core does not.
val androidSdk =
    System.getenv("ANDROID_HOME") ?: System.getenv("ANDROID_SDK_ROOT")
        ?: file("local.properties").takeIf { it.isFile }?.readLines()?.firstOrNull { it.startsWith("sdk.dir=") }
if (androidSdk != null) include(":app")
