// android/core: the pipeline in pure Kotlin (no Android imports), tested on the JVM against
// the golden vectors in ../../tests/vectors that the Python pipeline passes too.
plugins {
    alias(libs.plugins.kotlin.jvm)
    // src/testFixtures: the test doubles (ScriptedEngine, the fake OCR, NER and runtime), on
    // the tests' classpath and never in the app; the app's own tests may use them too.
    `java-test-fixtures`
}

kotlin {
    jvmToolchain(17)
}

dependencies {
    implementation(libs.kotlinx.coroutines.core)
    testFixturesImplementation(libs.kotlinx.coroutines.core)
    testImplementation(platform(libs.junit.bom))
    testImplementation(libs.junit.jupiter)
    testImplementation(libs.gson)
    testRuntimeOnly(libs.junit.platform.launcher)
}

val repositoryRoot = rootDir.parentFile

sourceSets {
    // The shared golden vectors appear on the test classpath as `vectors/…`.
    test {
        resources {
            srcDir(repositoryRoot.resolve("tests"))
            include("vectors/**")
        }
    }
}

tasks.test {
    useJUnitPlatform()
    systemProperty("redacto.vectors", repositoryRoot.resolve("tests/vectors").absolutePath)
    // The residual check's pinned dictionaries (LexiconVectorTest).
    systemProperty("redacto.lexicon", repositoryRoot.resolve("lexicon").absolutePath)
}
