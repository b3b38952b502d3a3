package dev.caplab.ingest.influx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.publish.RoutedSamples;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The poison lines of issue #11, each refused with its line and field while the valid lines around it are kept. */
class LineProtocolLimitsTest {

    private static final Instant RECEIVED = Instant.parse("2026-12-03T12:00:00Z");
    private static final String VALID = "cpu,host=a value=1 1764763200\n";

    private static RoutedSamples parse(String body, TimestampPrecision precision, String db) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return new LineProtocolParser().parse(bytes, 0, bytes.length, precision, db, RECEIVED);
    }

    @Test
    void blankIdentifiersAreRefusedNamingTheirField() {
        RoutedSamples blankDb = parse(VALID + "cpu value=2 1764763200\n", TimestampPrecision.SECONDS, " ");
        assertThat(blankDb.errors()).extracting(ParseError::line, ParseError::field)
                .containsExactly(tuple(1L, "db"), tuple(2L, "db"));
        assertThat(blankDb.sampleCount()).isZero();

        RoutedSamples result = parse(VALID
                + "cpu,run=\\  value=2 1764763200\n"
                + VALID
                + "cpu,source=\\  value=3 1764763200\n"
                + "\\  value=4 1764763200\n"
                + "cpu,run_id=\\  value=5 1764763200\n"
                + VALID, TimestampPrecision.SECONDS, "r1");
        assertThat(result.errors()).extracting(ParseError::line, ParseError::field).containsExactly(
                tuple(2L, "run"), tuple(4L, "source"), tuple(5L, "measurement"), tuple(6L, "run_id"));
        assertThat(result.errors()).allSatisfy(e -> assertThat(e.reason()).contains("blank"));
        assertThat(result.samplesByRun()).containsOnlyKeys("r1");
        assertThat(result.samplesByRun().get("r1")).hasSize(3);
    }

    @Test
    void namesAndLabelsOverTheirLimitsAreRefused() {
        String bigTag = "x".repeat(70_000);
        RoutedSamples result = parse(VALID
                + "cpu,big=" + bigTag + " value=1 1764763200\n"
                + "m".repeat(600) + " value=1 1764763200\n"
                + "cpu " + "f".repeat(600) + "=1 1764763200\n"
                + VALID, TimestampPrecision.SECONDS, "r1");
        assertThat(result.errors()).extracting(ParseError::line, ParseError::field).containsExactly(
                tuple(2L, "big"), tuple(3L, "measurement"), tuple(4L, "f".repeat(600)));
        assertThat(result.errors().getFirst().reason()).contains("70000 bytes");
        assertThat(result.samplesByRun().get("r1")).hasSize(2);
    }

    @Test
    void aLineOfOneMebibyteIsRefusedWhole() {
        String line = "cpu " + "v".repeat(1 << 20) + "=1 1764763200\n";
        RoutedSamples result = parse(VALID + line + VALID, TimestampPrecision.SECONDS, "r1");
        assertThat(result.errors()).singleElement().satisfies(e -> {
            assertThat(e.line()).isEqualTo(2);
            assertThat(e.reason()).contains("bytes, over the limit");
        });
        assertThat(result.samplesByRun().get("r1")).hasSize(2);
    }

    @Test
    void timestampsOutsideTheWindowAreNeverClamped() {
        RoutedSamples result = parse(VALID
                + "cpu value=1 100000000000\n" // 1e11 s: year 5138, ClickHouse would have stored 2299-12-31
                + "cpu value=1 1764763200000\n" // a millisecond epoch read as seconds
                + "cpu value=1 -30610224000\n" // 1000-01-01, ClickHouse would have stored 1900-01-01
                + "cpu value=1 1764763\n" // seconds/1000: January 1970
                + VALID, TimestampPrecision.SECONDS, "r1");
        assertThat(result.errors()).extracting(ParseError::line).containsExactly(2L, 3L, 4L, 5L);
        assertThat(result.errors()).extracting(ParseError::field).containsOnly("timestamp");
        assertThat(result.errors().get(1).reason()).contains("looks like milliseconds: precision=ms");
        assertThat(result.samplesByRun().get("r1")).hasSize(2);

        RoutedSamples seconds = parse("cpu value=1 1764763200\n", TimestampPrecision.NANOSECONDS, "r1");
        assertThat(seconds.errors()).singleElement().extracting(ParseError::reason).asString()
                .contains("looks like seconds: precision=s");
    }
}
