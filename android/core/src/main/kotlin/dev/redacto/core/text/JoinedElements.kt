package dev.redacto.core.text

import dev.redacto.core.Element

/*
 * Where a page's OCR words break into lines, for every reader that joins them into text
 * (the page text the model reads, the rules' spans). Mirrors `text/joined_elements.py`.
 */

/** Does [element] begin a new line after [previous] (its neighbour in reading order)? */
fun startsLine(
    previous: Element,
    element: Element,
): Boolean {
    if (element.page != previous.page) return true
    val before = previous.box ?: return false
    val box = element.box ?: return false
    val centre = (box.y0 + box.y1) / 2
    return box.x0 < before.x0 || centre < before.y0 || centre > before.y1
}
