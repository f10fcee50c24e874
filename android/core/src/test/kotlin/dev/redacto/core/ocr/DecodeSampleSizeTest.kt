package dev.redacto.core.ocr

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource

class DecodeSampleSizeTest {
    @ParameterizedTest
    @CsvSource(
        "4000, 3000, 1", // a 12 MP phone photo decodes whole
        "4000, 4000, 1", // exactly 16 MP
        "8160, 6120, 2", // 50 MP → 12.5 MP
        "10000, 10000, 4", // 100 MP, the largest accepted → 6.25 MP
        "20000, 5000, 4", // the longest side accepted
        "1, 1, 1",
    )
    fun `oversized photos are subsampled to at most 16 MP`(
        width: Int,
        height: Int,
        expected: Int,
    ) {
        val sample = decodeSampleSize(width, height)
        assertEquals(expected, sample)
        assert((width.toLong() / sample) * (height / sample) <= MAX_DECODED_PIXELS)
    }
}
