package dev.caplab.ingest.remotewrite;

import static dev.caplab.ingest.remotewrite.WriteRequests.body;
import static dev.caplab.ingest.remotewrite.WriteRequests.sample;
import static dev.caplab.ingest.remotewrite.WriteRequests.series;
import static dev.caplab.ingest.remotewrite.WriteRequests.snappy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.ingest.remotewrite.prompb.Remote.WriteRequest;
import io.airlift.compress.v3.snappy.SnappyFramedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WriteRequestDecoderTest {

    private final WriteRequestDecoder decoder = new WriteRequestDecoder();

    @Test
    void decodesASnappyBlockOfAWriteRequest() {
        WriteRequest request = WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "up", "job", "node").addSamples(sample(1, 1_700_000_000_000L)))
                .build();

        WriteRequest decoded = decoder.decode(body(request), 10_000);

        assertThat(decoded).isEqualTo(request);
        assertThat(decoded.getTimeseries(0).getSamples(0).getTimestamp()).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void anUncompressedProtobufIsNotSnappy() {
        // a snappy block starts with the varint of its length: 0x0a (field 1, length-delimited) says 10 bytes follow
        byte[] raw = WriteRequest.newBuilder()
                .addTimeseries(series("__name__", "up").addSamples(sample(1, 1))).build().toByteArray();

        assertThatThrownBy(() -> decoder.decode(raw, 10_000))
                .isInstanceOf(InvalidWriteRequestException.class)
                .hasMessageContaining("not snappy block-compressed");
    }

    @Test
    void theFramedSnappyStreamFormatIsRefused() throws IOException {
        ByteArrayOutputStream framed = new ByteArrayOutputStream();
        try (SnappyFramedOutputStream out = new SnappyFramedOutputStream(new io.airlift.compress.v3.snappy.SnappyJavaCompressor(), framed)) {
            out.write(WriteRequest.newBuilder().addTimeseries(series("__name__", "up")).build().toByteArray());
        }

        assertThatThrownBy(() -> decoder.decode(framed.toByteArray(), 10_000))
                .isInstanceOf(InvalidWriteRequestException.class)
                .hasMessageContaining("block format, not the framed");
    }

    @Test
    void snappyOfSomethingElseIsNotAWriteRequest() {
        byte[] body = snappy("cpu,host=a value=1\n".repeat(3).getBytes(StandardCharsets.UTF_8));
        // 'u' is field 14 as fixed32: protobuf skips it as unknown, so this parses, as an empty WriteRequest
        byte[] lenient = snappy("up 1\n".repeat(4).getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> decoder.decode(body, 10_000))
                .isInstanceOf(InvalidWriteRequestException.class)
                .hasMessageContaining("not a protobuf prometheus.WriteRequest");
        assertThatThrownBy(() -> decoder.decode(lenient, 10_000))
                .isInstanceOf(InvalidWriteRequestException.class)
                .hasMessageContaining("holds no series, only fields [14]");
        assertThat(decoder.decode(snappy(new byte[0]), 10_000).getTimeseriesCount())
                .as("an empty WriteRequest is valid: nothing to store").isZero();
    }

    @Test
    void aBlockInflatingPastTheLimitIsRefusedBeforeInflating() {
        // 1,000 zero bytes compress to a handful; the header declares 1,000
        byte[] body = snappy(new byte[1_000]);
        assertThat(body.length).isLessThan(100);

        assertThatThrownBy(() -> decoder.decode(body, 999))
                .isInstanceOf(WriteRequestDecoder.UncompressedTooLargeException.class)
                .hasMessageContaining("inflates to 1000 bytes, over the limit of 999 bytes");
        assertThatThrownBy(() -> decoder.decode(new byte[0], 999))
                .isInstanceOf(InvalidWriteRequestException.class).hasMessageContaining("empty body");
    }
}
