package dev.redacto.app

import android.graphics.Bitmap
import android.os.Bundle
import androidx.activity.ComponentActivity
import androidx.activity.compose.rememberLauncherForActivityResult
import androidx.activity.compose.setContent
import androidx.activity.enableEdgeToEdge
import androidx.activity.result.PickVisualMediaRequest
import androidx.activity.result.contract.ActivityResultContracts
import androidx.compose.foundation.Canvas
import androidx.compose.foundation.Image
import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Box
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.aspectRatio
import androidx.compose.foundation.layout.fillMaxSize
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.layout.safeDrawingPadding
import androidx.compose.foundation.rememberScrollState
import androidx.compose.foundation.verticalScroll
import androidx.compose.material3.Button
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.OutlinedButton
import androidx.compose.material3.Surface
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.runtime.getValue
import androidx.compose.ui.Modifier
import androidx.compose.ui.geometry.Offset
import androidx.compose.ui.geometry.Size
import androidx.compose.ui.graphics.Color
import androidx.compose.ui.graphics.asImageBitmap
import androidx.compose.ui.layout.ContentScale
import androidx.compose.ui.res.stringResource
import androidx.compose.ui.text.font.FontWeight
import androidx.compose.ui.unit.dp
import androidx.lifecycle.compose.collectAsStateWithLifecycle
import androidx.lifecycle.viewmodel.compose.viewModel
import dev.redacto.core.Status
import dev.redacto.core.Box as PageBox

/** The app's single screen. */
class MainActivity : ComponentActivity() {
    override fun onCreate(savedInstanceState: Bundle?) {
        // Android 15+ draws edge to edge for targetSdk 35+ anyway; the screen pads itself by
        // the system bars and the display cutout (safeDrawingPadding below).
        enableEdgeToEdge()
        super.onCreate(savedInstanceState)
        setContent {
            MaterialTheme {
                Surface(Modifier.fillMaxSize()) { RedactScreen() }
            }
        }
    }
}

@Composable
fun RedactScreen(viewModel: RedactViewModel = viewModel()) {
    val ui by viewModel.ui.collectAsStateWithLifecycle()
    val activity = androidx.compose.ui.platform.LocalContext.current
    val takePicture = rememberLauncherForActivityResult(ActivityResultContracts.TakePicture(), viewModel::onCaptured)
    val pickPhoto = rememberLauncherForActivityResult(ActivityResultContracts.PickVisualMedia(), viewModel::onPhoto)
    val pickModel = rememberLauncherForActivityResult(ActivityResultContracts.OpenDocument(), viewModel::onModelPicked)

    Column(Modifier.safeDrawingPadding().padding(16.dp).verticalScroll(rememberScrollState()), verticalArrangement = Arrangement.spacedBy(12.dp)) {
        Row(horizontalArrangement = Arrangement.spacedBy(8.dp)) {
            Button(onClick = { takePicture.launch(viewModel.captureTarget()) }, enabled = !ui.busy) { Text("Take photo") }
            OutlinedButton(
                onClick = { pickPhoto.launch(PickVisualMediaRequest(ActivityResultContracts.PickVisualMedia.ImageOnly)) },
                enabled = !ui.busy,
            ) { Text("Pick photo") }
            OutlinedButton(onClick = { pickModel.launch(arrayOf("*/*")) }, enabled = !ui.busy) { Text("Model…") }
        }
        ModelLine(ui.model, ui.backend)
        Text(ui.stage, style = MaterialTheme.typography.bodyLarge)
        ui.error?.let { Text(it, color = MaterialTheme.colorScheme.error, fontWeight = FontWeight.Bold) }

        val photo = ui.photo
        val preview = ui.preview
        if (photo != null && preview != null) {
            PageWithBoxes(preview, photo.width, photo.height, ui.boxes)
            // The count is the number of boxes drawn above, by construction.
            Text("${ui.boxes.size} redacted", style = MaterialTheme.typography.titleMedium)
        }
        if (ui.status == Status.NEEDS_REVIEW) NeedsReview(ui.review)

        Row(horizontalArrangement = Arrangement.spacedBy(8.dp)) {
            Button(onClick = viewModel::redact, enabled = !ui.busy && ui.photo != null && ui.model != null) { Text("Redact") }
            OutlinedButton(onClick = viewModel::save, enabled = !ui.busy && ui.redacted != null) { Text("Save") }
            OutlinedButton(
                onClick = { viewModel.shareIntent()?.let(activity::startActivity) },
                enabled = !ui.busy && ui.saved != null,
            ) { Text("Share") }
        }
        // The NER model's licence (CC BY 4.0) asks for this attribution wherever it ships.
        Text(stringResource(R.string.ner_attribution), style = MaterialTheme.typography.bodySmall)
    }
}

@Composable
private fun ModelLine(
    model: ModelFile?,
    backend: String?,
) {
    if (model == null) {
        Text("No model chosen: pick a .litertlm file from this device.")
        return
    }
    val size = "%.2f GB".format(model.sizeBytes / 1e9)
    val on = backend?.let { " · running on $it" } ?: ""
    Text("${model.name} · $size$on", fontWeight = FontWeight.Medium)
    // What the file itself carries ("redacto-270m int8 · validator not trusted"), not its name.
    Text(model.check.describe())
    Text("sha256 ${model.check.sha256 ?: "unreadable"}", style = MaterialTheme.typography.bodySmall)
}

/** The photo with a black rectangle over each box, scaled from photo pixels to the view. */
@Composable
private fun PageWithBoxes(
    preview: Bitmap,
    photoWidth: Int,
    photoHeight: Int,
    boxes: List<PageBox>,
) {
    Box(Modifier.fillMaxWidth().aspectRatio(photoWidth.toFloat() / photoHeight)) {
        Image(
            preview.asImageBitmap(),
            contentDescription = "the page",
            modifier = Modifier.fillMaxSize(),
            contentScale = ContentScale.FillBounds,
        )
        Canvas(Modifier.fillMaxSize()) {
            val sx = size.width / photoWidth
            val sy = size.height / photoHeight
            for (box in boxes) {
                drawRect(
                    Color.Black,
                    topLeft = Offset((box.x0 * sx).toFloat(), (box.y0 * sy).toFloat()),
                    size = Size((box.width * sx).toFloat(), (box.height * sy).toFloat()),
                )
            }
        }
    }
}

@Composable
private fun NeedsReview(items: List<String>) {
    Column(verticalArrangement = Arrangement.spacedBy(4.dp)) {
        Text(
            "NEEDS_REVIEW",
            color = MaterialTheme.colorScheme.error,
            fontWeight = FontWeight.Bold,
            style = MaterialTheme.typography.headlineSmall,
        )
        Text("The redaction could not be verified. Check these before sharing:")
        items.forEach { Text("• $it") }
    }
}
