package dev.caplab.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** The one request body reader: each encoding, the bounds on both sides, and the refusals. */
class BoundedBodyTest {

    private static final long LIMIT = 64L * 1024 * 1024;

    @Test
    void aSmallGzipBodyThatInflatesToTheBodyLimitIsRefusedAfterAFewMegabytes() throws IOException {
        byte[] bomb = gzip(new byte[(int) LIMIT]); // 64 MiB of zeros: deflate makes about 65 KiB of it
        assertThat(bomb.length).as("the bomb is small on the wire").isLessThan(128 * 1024);
        long before = allocatedBytes();
        InputStream body = BoundedBody.decoded(new ByteArrayInputStream(bomb), "gzip", LIMIT, "test limit", null);
        byte[] buffer = new byte[8192];
        long[] read = {0};
        assertThatThrownBy(() -> {
            for (int n; (n = body.read(buffer)) >= 0; ) {
                read[0] += n;
            }
        }).isInstanceOf(BodyTooLargeException.class).hasMessageContaining("exceeds 100 times the");
        // arithmetic: at most 100 decompressed bytes per compressed byte read (gzip reads 64 KiB ahead), plus a buffer
        long allowed = Math.max(BoundedBody.EXPANSION_FLOOR_BYTES, BoundedBody.MAX_EXPANSION * (long) bomb.length);
        assertThat(read[0]).isLessThanOrEqualTo(allowed);
        assertThat(allocatedBytes() - before).as("heap allocated while refusing").isLessThan(16L * 1024 * 1024);
    }

    @Test
    void aToolsBodyCompressedAsUsualReadsWhole() throws IOException {
        // k6-like line protocol: repeated tags, varying values and timestamps (compresses well under 100:1)
        StringBuilder lines = new StringBuilder();
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 50_000; i++) {
            lines.append("http_req_duration,expected_response=true,method=GET,name=http://sut/,status=200 value=")
                    .append(random.nextDouble(1, 900)).append(' ').append(1_765_000_000_000_000_000L + i * 1_000_000L)
                    .append('\n');
        }
        byte[] plain = lines.toString().getBytes(StandardCharsets.UTF_8);
        byte[] compressed = gzip(plain);
        InputStream body = BoundedBody.decoded(new ByteArrayInputStream(compressed), "gzip", LIMIT, "test limit", null);
        assertThat(body.readAllBytes()).isEqualTo(plain);
    }

    @Test
    void aDeflateBombIsRefusedByTheSameExpansionBound() throws IOException {
        byte[] bomb = deflate(new byte[(int) LIMIT]);
        InputStream body = BoundedBody.decoded(new ByteArrayInputStream(bomb), "Deflate", LIMIT, "test limit", null);
        assertThatThrownBy(body::readAllBytes).isInstanceOf(BodyTooLargeException.class)
                .hasMessageContaining("exceeds 100 times the")
                .satisfies(e -> assertThat(((BodyTooLargeException) e).decoded()).isTrue());
    }

    @Test
    void gzipDeflateIdentityAndNoneReadTheSameBytes() throws IOException {
        byte[] plain = "INSERT INTO t VALUES (1), (2)\n".repeat(1000).getBytes(StandardCharsets.UTF_8);
        assertThat(read(gzip(plain), "gzip")).isEqualTo(plain);
        assertThat(read(deflate(plain), " deflate ")).isEqualTo(plain);
        assertThat(read(plain, "identity")).isEqualTo(plain);
        assertThat(read(plain, null)).isEqualTo(plain);
        assertThat(BoundedBody.decodes("GZIP")).isTrue();
        assertThat(BoundedBody.decodes("deflate")).isTrue();
        assertThat(BoundedBody.decodes("identity")).isFalse();
    }

    @Test
    void theBytesSentAreBoundedAsTheBytesDecodedAre() throws IOException {
        byte[] plain = new byte[1001];
        InputStream body = BoundedBody.decoded(new ByteArrayInputStream(plain), "", 1000, "the test's limit", null);
        assertThatThrownBy(body::readAllBytes).isInstanceOf(BodyTooLargeException.class)
                .hasMessage("request body exceeds the limit of 1000 bytes (the test's limit); send smaller batches")
                .satisfies(e -> assertThat(((BodyTooLargeException) e).decoded()).isFalse());
        // 1001 bytes of text deflate to far fewer: the decoded side is what passes the limit
        InputStream decoded = BoundedBody.decoded(new ByteArrayInputStream(gzip(plain)), "gzip", 1000, "x", null);
        assertThatThrownBy(decoded::readAllBytes).isInstanceOf(BodyTooLargeException.class)
                .hasMessageStartingWith("decompressed request body exceeds the limit of 1000 bytes");
    }

    @Test
    void anUnknownEncodingIsRefusedBeforeAByteIsReadUnlessTheEndpointDecodesItItself() throws IOException {
        ByteArrayInputStream wire = new ByteArrayInputStream(new byte[] {1, 2, 3});
        assertThatThrownBy(() -> BoundedBody.decoded(wire, "br", LIMIT, "x", null))
                .isInstanceOf(BoundedBody.UnsupportedEncodingException.class)
                .hasMessage("Content-Encoding 'br' is not supported; send gzip, deflate or identity");
        assertThat(wire.available()).isEqualTo(3);
        assertThat(BoundedBody.decoded(wire, "snappy", LIMIT, "x", "snappy").readAllBytes())
                .containsExactly(1, 2, 3);
    }

    @Test
    void aCorruptOrTruncatedBodyIsCorruptNotTooLarge() throws IOException {
        byte[] gz = gzip("0123456789".repeat(100).getBytes(StandardCharsets.UTF_8));
        byte[] truncated = java.util.Arrays.copyOf(gz, gz.length / 2);
        assertThatThrownBy(() -> read(truncated, "gzip")).isInstanceOf(BoundedBody.CorruptBodyException.class)
                .hasMessageStartingWith("gzip body is corrupt or truncated");
        assertThatThrownBy(() -> read("not gzip at all".getBytes(StandardCharsets.UTF_8), "gzip"))
                .isInstanceOf(BoundedBody.CorruptBodyException.class);
        assertThatThrownBy(() -> read(gz, "deflate")).isInstanceOf(BoundedBody.CorruptBodyException.class)
                .hasMessageStartingWith("deflate body is corrupt or truncated");
    }

    private static byte[] read(byte[] wire, String encoding) throws IOException {
        return BoundedBody.decoded(new ByteArrayInputStream(wire), encoding, LIMIT, "x", null).readAllBytes();
    }

    private static byte[] deflate(byte[] plain) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream z = new DeflaterOutputStream(out)) {
            z.write(plain);
        }
        return out.toByteArray();
    }

    private static byte[] gzip(byte[] plain) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        }
        return out.toByteArray();
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
