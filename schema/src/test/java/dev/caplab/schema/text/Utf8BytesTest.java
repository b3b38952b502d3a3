package dev.caplab.schema.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Counted lengths against the JDK's own UTF-8 encoder. */
class Utf8BytesTest {

    @Test
    void wellFormedTextCountsAsManyBytesAsTheEncoderWrites() {
        for (String s : new String[] {"", "cpu.cores", "é", "€", "😀", "a€é😀z", "é".repeat(8_193), "😀".repeat(300)}) {
            assertThat(Utf8Bytes.of(s)).as(s).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
        }
    }

    @Test
    void aLoneSurrogateCountsNoFewerBytesThanTheEncoderWrites() {
        for (String s : new String[] {"\uD83D", "a\uDE00", "\uDE00\uD83D"}) {
            assertThat(Utf8Bytes.of(s)).as(s).isGreaterThanOrEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
        }
    }

    @Test
    void aBoundedLengthIsExactWhenTheTextMightExceedTheLimit() {
        String euros = "€".repeat(171);
        assertThat(Utf8Bytes.boundedBy(euros, 512)).isEqualTo(513);
        // 170 chars of at most 3 bytes cannot exceed 512: their count is enough, and within the limit too
        assertThat(Utf8Bytes.boundedBy("€".repeat(170), 512)).isLessThanOrEqualTo(512);
    }
}
