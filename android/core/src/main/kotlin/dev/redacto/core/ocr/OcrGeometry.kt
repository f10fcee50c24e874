package dev.redacto.core.ocr

import kotlin.math.abs
import kotlin.math.ceil
import kotlin.math.floor
import kotlin.math.hypot
import kotlin.math.max
import kotlin.math.min

/*
 * PP-OCR text detection, after the model: from the DB probability map to text-line quads.
 *
 * A port of RapidOCR 3.10's `DBPostProcess` (the settings of its PP-OCRv6 `Det` config) and
 * `TextDetector.sorted_boxes`, so the phone finds the same lines as the workstation. Two
 * deliberate simplifications, checked against RapidOCR's own output in OcrGoldenTest: regions
 * are 8-connected components (OpenCV's findContours also returns hole contours, whose boxes
 * fall inside a region already found), and a box is unclipped by growing its rectangle by the
 * offset distance on each side (what pyclipper's round-joined offset of a rectangle has as its
 * minimum-area rectangle).
 */

/** A point in pixels. */
data class Point(
    val x: Double,
    val y: Double,
) {
    operator fun minus(other: Point): Point = Point(x - other.x, y - other.y)

    fun distanceTo(other: Point): Double = hypot(x - other.x, y - other.y)
}

/** The DB detector's thresholds; the defaults are RapidOCR's for PP-OCRv6. */
data class DbSettings(
    val thresh: Double = 0.3,
    val boxThresh: Double = 0.5,
    val maxCandidates: Int = 1000,
    val unclipRatio: Double = 1.6,
    val minSize: Double = 3.0,
    val dilate: Boolean = true,
)

/** A text line found by the detector: four corners clockwise from top-left, and its score. */
data class ScoredQuad(
    val corners: List<Point>,
    val score: Double,
)

/**
 * Text-line quads in a [destWidth]×[destHeight] image from the detector's [width]×[height]
 * probability map, filtered and clipped like RapidOCR, in the detector's (unsorted) order.
 */
fun dbQuads(
    prob: FloatArray,
    width: Int,
    height: Int,
    destWidth: Int,
    destHeight: Int,
    settings: DbSettings = DbSettings(),
): List<ScoredQuad> {
    require(prob.size == width * height) { "probability map is ${prob.size} values, expected $width×$height" }
    val mask = BooleanArray(prob.size) { prob[it] > settings.thresh }
    val bitmap = if (settings.dilate) dilate2x2(mask, width, height) else mask
    val found = mutableListOf<ScoredQuad>()
    for (region in regionOutlines(bitmap, width, height).take(settings.maxCandidates)) {
        val (box, shortSide) = miniBox(region)
        if (shortSide < settings.minSize) continue
        val score = boxScoreFast(prob, width, height, box)
        if (settings.boxThresh > score) continue
        val (grown, grownSide) = miniBox(unclip(box, settings.unclipRatio))
        if (grownSide < settings.minSize + 2) continue
        val scaled =
            grown.map {
                Point(
                    Math.rint(it.x / width * destWidth).coerceIn(0.0, destWidth.toDouble()),
                    Math.rint(it.y / height * destHeight).coerceIn(0.0, destHeight.toDouble()),
                )
            }
        val corners = orderClockwise(scaled).map { Point(clipInt(it.x, destWidth - 1), clipInt(it.y, destHeight - 1)) }
        if (corners[0].distanceTo(corners[1]).toInt() <= 3 || corners[0].distanceTo(corners[3]).toInt() <= 3) continue
        found.add(ScoredQuad(corners, score))
    }
    return found
}

/** RapidOCR's reading order for detected lines: rows by top-left y (10 px apart), then x. */
fun sortDetectedQuads(quads: List<ScoredQuad>): List<ScoredQuad> {
    val byY = quads.sortedBy { it.corners[0].y }
    var row = 0
    val rows = IntArray(byY.size)
    for (i in 1 until byY.size) {
        if (byY[i].corners[0].y - byY[i - 1].corners[0].y >= DETECTOR_ROW_GAP) row++
        rows[i] = row
    }
    return byY.indices.sortedWith(compareBy({ rows[it] }, { byY[it].corners[0].x })).map { byY[it] }
}

private const val DETECTOR_ROW_GAP = 10.0

private fun clipInt(
    value: Double,
    limit: Int,
): Double = min(max(value, 0.0), limit.toDouble()).toInt().toDouble()

/** OpenCV's dilate with a 2×2 kernel (anchor at its centre): each pixel takes its up-left neighbours. */
private fun dilate2x2(
    mask: BooleanArray,
    width: Int,
    height: Int,
): BooleanArray =
    BooleanArray(mask.size) { at ->
        val x = at % width
        val y = at / width
        mask[at] || (x > 0 && mask[at - 1]) || (y > 0 && mask[at - width]) || (x > 0 && y > 0 && mask[at - width - 1])
    }

/** For each 8-connected region, the leftmost and rightmost pixel of each of its rows. */
private fun regionOutlines(
    bitmap: BooleanArray,
    width: Int,
    height: Int,
): List<List<Point>> {
    val label = IntArray(bitmap.size) { -1 }
    val regions = mutableListOf<List<Point>>()
    val stack = ArrayDeque<Int>()
    for (start in bitmap.indices) {
        if (!bitmap[start] || label[start] >= 0) continue
        val id = regions.size
        val rowMin = HashMap<Int, Int>()
        val rowMax = HashMap<Int, Int>()
        label[start] = id
        stack.addLast(start)
        while (stack.isNotEmpty()) {
            val at = stack.removeLast()
            val x = at % width
            val y = at / width
            rowMin[y] = min(rowMin[y] ?: x, x)
            rowMax[y] = max(rowMax[y] ?: x, x)
            for (dy in -1..1) {
                for (dx in -1..1) {
                    val nx = x + dx
                    val ny = y + dy
                    if (nx !in 0 until width || ny !in 0 until height) continue
                    val next = ny * width + nx
                    if (bitmap[next] && label[next] < 0) {
                        label[next] = id
                        stack.addLast(next)
                    }
                }
            }
        }
        regions.add(
            rowMin.keys.flatMap { y ->
                listOf(Point(rowMin.getValue(y).toDouble(), y.toDouble()), Point(rowMax.getValue(y).toDouble(), y.toDouble()))
            },
        )
    }
    return regions
}

/** The convex hull (Andrew's monotone chain), counter-clockwise, without repeated points. */
internal fun convexHull(points: List<Point>): List<Point> {
    val sorted = points.distinct().sortedWith(compareBy({ it.x }, { it.y }))
    if (sorted.size < 3) return sorted

    fun cross(
        o: Point,
        a: Point,
        b: Point,
    ): Double = (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    val hull = ArrayList<Point>()
    for (pass in 0..1) {
        val start = hull.size
        for (p in if (pass == 0) sorted else sorted.asReversed()) {
            while (hull.size >= start + 2 && cross(hull[hull.size - 2], hull[hull.size - 1], p) <= 0) hull.removeAt(hull.size - 1)
            hull.add(p)
        }
        hull.removeAt(hull.size - 1)
    }
    return hull
}

/** The minimum-area enclosing rectangle's four corners and its two side lengths (rotating calipers). */
internal fun minAreaRect(points: List<Point>): Pair<List<Point>, Pair<Double, Double>> {
    val hull = convexHull(points)
    if (hull.size < 3) {
        val p = hull.firstOrNull() ?: Point(0.0, 0.0)
        val q = hull.lastOrNull() ?: p
        return listOf(p, q, q, p) to (p.distanceTo(q) to 0.0)
    }
    var best: Pair<List<Point>, Pair<Double, Double>>? = null
    var bestArea = Double.MAX_VALUE
    for (i in hull.indices) {
        val edge = hull[(i + 1) % hull.size] - hull[i]
        val length = hypot(edge.x, edge.y)
        if (length == 0.0) continue
        val ux = edge.x / length
        val uy = edge.y / length
        var minU = Double.MAX_VALUE
        var maxU = -Double.MAX_VALUE
        var minV = Double.MAX_VALUE
        var maxV = -Double.MAX_VALUE
        for (p in hull) {
            val u = p.x * ux + p.y * uy
            val v = -p.x * uy + p.y * ux
            minU = min(minU, u)
            maxU = max(maxU, u)
            minV = min(minV, v)
            maxV = max(maxV, v)
        }
        val area = (maxU - minU) * (maxV - minV)
        if (area < bestArea - 1e-9) {
            bestArea = area

            fun corner(
                u: Double,
                v: Double,
            ) = Point(u * ux - v * uy, u * uy + v * ux)
            best =
                listOf(corner(minU, minV), corner(maxU, minV), corner(maxU, maxV), corner(minU, maxV)) to ((maxU - minU) to (maxV - minV))
        }
    }
    return checkNotNull(best)
}

/** RapidOCR's `get_mini_boxes`: the minimum-area rectangle, corners ordered, and its short side. */
internal fun miniBox(points: List<Point>): Pair<List<Point>, Double> {
    val (corners, sides) = minAreaRect(points)
    val p = corners.sortedBy { it.x }
    val (first, fourth) = if (p[1].y > p[0].y) 0 to 1 else 1 to 0
    val (second, third) = if (p[3].y > p[2].y) 2 to 3 else 3 to 2
    return listOf(p[first], p[second], p[third], p[fourth]) to min(sides.first, sides.second)
}

/** Mean probability inside the box (RapidOCR's `box_score_fast`: integer polygon, bounding window). */
internal fun boxScoreFast(
    prob: FloatArray,
    width: Int,
    height: Int,
    box: List<Point>,
): Double {
    val xMin = floor(box.minOf { it.x }).toInt().coerceIn(0, width - 1)
    val xMax = ceil(box.maxOf { it.x }).toInt().coerceIn(0, width - 1)
    val yMin = floor(box.minOf { it.y }).toInt().coerceIn(0, height - 1)
    val yMax = ceil(box.maxOf { it.y }).toInt().coerceIn(0, height - 1)
    // OpenCV's fillPoly gets the corners as int32: truncated, relative to the window.
    val polygon = box.map { Point((it.x - xMin).toInt().toDouble(), (it.y - yMin).toInt().toDouble()) }
    var sum = 0.0
    var count = 0
    for (y in 0..(yMax - yMin)) {
        val (left, right) = rowSpan(polygon, y - 0.5, y + 0.5) ?: continue
        val from = max(floor(left + 0.5).toInt(), 0)
        val to = min(floor(right + 0.5).toInt(), xMax - xMin)
        for (x in from..to) {
            sum += prob[(y + yMin) * width + x + xMin]
            count++
        }
    }
    return if (count == 0) 0.0 else sum / count
}

/**
 * The x extent of a convex polygon within the band [low, high] of y, or null if it misses
 * the band. Filling each row over this extent, rounded to whole pixels, comes within a pixel
 * of OpenCV's fillPoly on thin tilted boxes, where a pixel-centre test drops the pixels that a
 * tilted edge only grazes.
 */
private fun rowSpan(
    polygon: List<Point>,
    low: Double,
    high: Double,
): Pair<Double, Double>? {
    val xs = mutableListOf<Double>()
    for (i in polygon.indices) {
        val a = polygon[i]
        val b = polygon[(i + 1) % polygon.size]
        if (a.y in low..high) xs.add(a.x)
        for (edgeY in doubleArrayOf(low, high)) {
            if ((a.y - edgeY) * (b.y - edgeY) < 0) xs.add(a.x + (edgeY - a.y) / (b.y - a.y) * (b.x - a.x))
        }
    }
    return if (xs.isEmpty()) null else xs.min() to xs.max()
}

/** Grows a rectangle by `area × ratio / perimeter` on every side (DB's unclip). */
internal fun unclip(
    box: List<Point>,
    ratio: Double,
): List<Point> {
    var area = 0.0
    var perimeter = 0.0
    for (i in box.indices) {
        val a = box[i]
        val b = box[(i + 1) % box.size]
        area += a.x * b.y - b.x * a.y
        perimeter += a.distanceTo(b)
    }
    if (perimeter == 0.0) return box
    val distance = abs(area) / 2 * ratio / perimeter
    val center = Point(box.sumOf { it.x } / 4, box.sumOf { it.y } / 4)
    val alongTop = unit(box[1] - box[0])
    val alongSide = unit(box[3] - box[0])
    return box.map { corner ->
        val offset = corner - center
        val su = if (offset.x * alongTop.x + offset.y * alongTop.y >= 0) 1 else -1
        val sv = if (offset.x * alongSide.x + offset.y * alongSide.y >= 0) 1 else -1
        Point(
            corner.x + distance * (su * alongTop.x + sv * alongSide.x),
            corner.y + distance * (su * alongTop.y + sv * alongSide.y),
        )
    }
}

private fun unit(v: Point): Point {
    val length = hypot(v.x, v.y)
    return if (length == 0.0) Point(0.0, 0.0) else Point(v.x / length, v.y / length)
}

/** Top-left, top-right, bottom-right, bottom-left: the two leftmost points by y, then the two rightmost. */
fun orderClockwise(points: List<Point>): List<Point> {
    val byX = points.sortedBy { it.x }
    val (topLeft, bottomLeft) = byX.take(2).sortedBy { it.y }
    val (topRight, bottomRight) = byX.drop(2).sortedBy { it.y }
    return listOf(topLeft, topRight, bottomRight, bottomLeft)
}

/**
 * The perspective transform taking the four [from] points onto the four [to] points (OpenCV's
 * getPerspectiveTransform), as a row-major 3×3 matrix.
 */
fun perspectiveTransform(
    from: List<Point>,
    to: List<Point>,
): DoubleArray {
    val a = Array(8) { DoubleArray(9) }
    for (i in 0 until 4) {
        val (x, y) = from[i]
        val (u, v) = to[i]
        a[i] = doubleArrayOf(x, y, 1.0, 0.0, 0.0, 0.0, -x * u, -y * u, u)
        a[i + 4] = doubleArrayOf(0.0, 0.0, 0.0, x, y, 1.0, -x * v, -y * v, v)
    }
    for (col in 0 until 8) {
        val pivot = (col until 8).maxBy { abs(a[it][col]) }
        require(abs(a[pivot][col]) > 1e-12) { "degenerate quadrilateral" }
        val swap = a[col]
        a[col] = a[pivot]
        a[pivot] = swap
        for (row in 0 until 8) {
            if (row == col) continue
            val factor = a[row][col] / a[col][col]
            for (k in col..8) a[row][k] -= factor * a[col][k]
        }
    }
    return DoubleArray(9) { if (it == 8) 1.0 else a[it][8] / a[it][it] }
}

/** Applies a 3×3 perspective matrix to a point. */
fun DoubleArray.project(p: Point): Point {
    val z = this[6] * p.x + this[7] * p.y + this[8]
    return Point((this[0] * p.x + this[1] * p.y + this[2]) / z, (this[3] * p.x + this[4] * p.y + this[5]) / z)
}
