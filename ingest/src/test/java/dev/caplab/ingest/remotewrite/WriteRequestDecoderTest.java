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
import dev.caplab.ingest.census.CensusLimits;
import dev.caplab.ingest.census.TooManyValuesException;
import dev.caplab.ingest.remotewrite.prompb.Types.BucketSpan;
import dev.caplab.ingest.remotewrite.prompb.Types.Histogram;
import java.util.Collections;
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

    @Test
    void aDeclaredLengthItsBytesCannotHoldIsRefusedBeforeAllocating() {
        // 64 MiB as the block's varint preamble, then one literal tag: 5 bytes hold at most 5 x 64/3 bytes
        byte[] body = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x20, 0};
        long before = allocatedBytes();

        assertThatThrownBy(() -> decoder.decode(body, 1L << 40))
                .isInstanceOf(InvalidWriteRequestException.class)
                .hasMessageContaining("declares 67108864 uncompressed bytes, but 5 compressed bytes hold at most 110");
        assertThat(allocatedBytes() - before).as("bytes allocated refusing it").isLessThan(1024 * 1024);
    }

    @Test
    void aFieldOfMoreValuesThanTheLimitIsRefusedBeforeParsing() {
        WriteRequestDecoder small = new WriteRequestDecoder(new CensusLimits(1_000, 1_000_000, 32));
        Histogram histogram = Histogram.newBuilder().setSchema(0)
                .addPositiveSpans(BucketSpan.newBuilder().setLength(1_001))
                .addAllPositiveDeltas(Collections.nCopies(1_001, 0L)).build();
        byte[] body = snappy(WriteRequest.newBuilder().addTimeseries(series("__name__", "h"))
                .addTimeseries(series("__name__", "h").addHistograms(histogram)).build().toByteArray());

        assertThatThrownBy(() -> small.decode(body, 10_000_000))
                .isInstanceOf(TooManyValuesException.class)
                .hasMessageStartingWith("timeseries[1].histograms[0].positive_deltas: more than 1000 values");
    }

    @Test
    void allFieldsTogetherAreBoundedToo() {
        WriteRequestDecoder small = new WriteRequestDecoder(new CensusLimits(1_000, 2_500, 32));
        WriteRequest.Builder request = WriteRequest.newBuilder();
        for (int i = 0; i < 1_000; i++) {
            request.addTimeseries(series("__name__", "up", "i", Integer.toString(i)));
        }

        // 1,000 series of 2 labels: the 2,500th value is a label of series 833
        assertThatThrownBy(() -> small.decode(snappy(request.build().toByteArray()), 10_000_000))
                .isInstanceOf(TooManyValuesException.class)
                .hasMessageStartingWith("timeseries[833].labels: more than 2500 values in all fields");
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getCurrentThreadAllocatedBytes();
    }
}
