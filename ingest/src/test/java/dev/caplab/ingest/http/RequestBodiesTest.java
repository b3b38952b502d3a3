package dev.caplab.ingest.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class RequestBodiesTest {

    private static final long LIMIT = 64L * 1024 * 1024;

    @Test
    void aSmallGzipBodyThatInflatesToTheBodyLimitIsRefusedAfterAFewMegabytes() throws IOException {
        byte[] bomb = gzip(new byte[(int) LIMIT]); // 64 MiB of zeros: deflate makes about 65 KiB of it
        assertThat(bomb.length).as("the bomb is small on the wire").isLessThan(128 * 1024);
        long before = allocatedBytes();
        InputStream body = RequestBodies.decoded(new ByteArrayInputStream(bomb), "gzip", LIMIT, null);
        byte[] buffer = new byte[8192];
        long[] read = {0};
        assertThatThrownBy(() -> {
            for (int n; (n = body.read(buffer)) >= 0; ) {
                read[0] += n;
            }
        }).isInstanceOf(BodyTooLargeException.class).hasMessageContaining("exceeds 100 times the");
        // arithmetic: at most 100 decompressed bytes per compressed byte read (gzip reads 64 KiB ahead), plus a buffer
        long allowed = Math.max(RequestBodies.EXPANSION_FLOOR_BYTES, RequestBodies.MAX_EXPANSION * (long) bomb.length);
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
        InputStream body = RequestBodies.decoded(new ByteArrayInputStream(compressed), "gzip", LIMIT, null);
        assertThat(body.readAllBytes()).isEqualTo(plain);
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
