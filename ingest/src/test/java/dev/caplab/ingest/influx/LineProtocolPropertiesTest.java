package dev.caplab.ingest.influx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.schema.event.Sample;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class LineProtocolPropertiesTest {

    private static final Instant RECEIVED = Instant.parse("2026-03-01T10:00:00Z");

    @Property(tries = 300)
    void arbitraryBytesNeverThrowAndEveryLineIsSampleOrError(@ForAll @Size(max = 400) byte[] body) {
        RoutedSamples result = new LineProtocolParser().parse(body, 0, body.length, TimestampPrecision.NANOSECONDS,
                "r", RECEIVED);
        assertThat(result.errors()).allSatisfy(e -> assertThat(e.line()).isPositive());
    }

    @Property(tries = 200)
    void generatedFloatsRoundTrip(@ForAll("finiteDoubles") double value) {
        byte[] line = ("m v=" + value + " 1709280000").getBytes(StandardCharsets.US_ASCII);
        RoutedSamples result = new LineProtocolParser().parse(line, 0, line.length, TimestampPrecision.SECONDS, "r",
                RECEIVED);
        assertThat(result.errors()).isEmpty();
        assertThat(result.samplesByRun().get("r").getFirst().getValue()).isEqualTo(value);
    }

    @Property(tries = 200)
    void truncatedBodyKeepsEveryCompleteLineBeforeTheCut(@ForAll @IntRange(min = 1, max = 20) int lines,
            @ForAll @IntRange(min = 0, max = 2000) int cutSeed) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            body.append("cpu,host=h\\ ").append(i).append(",run=r usage=").append(i).append(".5,n=")
                    .append(i).append("i ").append(1_709_280_000_000_000_000L + i).append('\n');
        }
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        int cut = cutSeed % (bytes.length + 1);
        int completeLines = 0;
        for (int i = 0; i < cut; i++) {
            if (bytes[i] == '\n') {
                completeLines++;
            }
        }
        RoutedSamples result = new LineProtocolParser().parse(bytes, 0, cut, TimestampPrecision.NANOSECONDS, null,
                RECEIVED);
        List<Sample> samples = result.samplesByRun().getOrDefault("r", List.of());
        assertThat(samples.size()).isBetween(2 * completeLines, 2 * completeLines + 2);
        assertThat(result.errors().size()).isLessThanOrEqualTo(1);
        for (int i = 0; i < completeLines; i++) {
            assertThat(samples.get(2 * i).getValue()).isEqualTo(i + 0.5);
            assertThat(samples.get(2 * i).getLabels()).containsEntry("host", "h " + i);
        }
    }

    @Provide
    Arbitrary<Double> finiteDoubles() {
        return Arbitraries.doubles().ofScale(Arbitraries.integers().between(0, 8).sample())
                .between(-1e12, 1e12).injectDuplicates(0.0)
                .edgeCases(c -> c.add(Double.MIN_VALUE).add(Double.MAX_VALUE).add(-0.0));
    }
}
