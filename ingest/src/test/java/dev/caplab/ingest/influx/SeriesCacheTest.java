package dev.caplab.ingest.influx;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The series key ends at the first unescaped space, whichever of the eight byte positions of a word an escape, a
 * space or a line end falls on (the key is found a word at a time, then byte by byte).
 */
class SeriesCacheTest {

    private static final SeriesCache.Series SERIES = new SeriesCache.Series("m", "r", "s", Map.of());

    @Test
    void keyEndsAtTheFirstUnescapedSpaceAtEveryOffset() {
        for (int prefix = 0; prefix < 24; prefix++) {
            for (String escape : new String[] {"\\ ", "\\,", "\\=", "\\\\"}) {
                // "m,t=" + prefix letters + an escape + "x" + " v=1": the key is everything before " v=1".
                String key = "m,t=" + "a".repeat(prefix) + escape + "x";
                byte[] line = (key + " v=1 1\n").getBytes(StandardCharsets.US_ASCII);
                SeriesCache cache = new SeriesCache();
                assertThat(cache.find(line, 0, line.length, "r")).isNull();
                cache.remember(line, 0, key.length(), "r", SERIES);
                assertThat(cache.find(line, 0, line.length, "r")).as("%s", key).isSameAs(SERIES);
                assertThat(cache.lastEnd()).as("%s", key).isEqualTo(key.length());
            }
        }
    }

    @Test
    void aLineEndBeforeAnySpaceIsNoKeyAtEveryOffset() {
        for (int prefix = 0; prefix < 24; prefix++) {
            for (String lineEnd : new String[] {"\n", "\r"}) {
                String text = "m,t=" + "a".repeat(prefix) + lineEnd + "m v=1 1\n";
                byte[] line = text.getBytes(StandardCharsets.US_ASCII);
                SeriesCache cache = new SeriesCache();
                // remembered up to the space on the next line: a scan that ran over the line end would find it
                cache.remember(line, 0, text.indexOf(' '), "r", SERIES);
                assertThat(cache.find(line, 0, line.length, "r")).as("prefix %d", prefix).isNull();
            }
        }
    }

    @Test
    void aKeyRunningToTheEndOfTheBufferWithoutASpaceIsNoKey() {
        for (int length = 1; length < 40; length++) {
            byte[] line = ("m" + "b".repeat(length)).getBytes(StandardCharsets.US_ASCII);
            assertThat(new SeriesCache().find(line, 0, line.length, "r")).isNull();
        }
    }
}
