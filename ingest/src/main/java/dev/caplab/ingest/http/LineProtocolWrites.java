package dev.caplab.ingest.http;

import dev.caplab.ingest.influx.LineProtocolParser;
import dev.caplab.ingest.influx.TimestampPrecision;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.publish.RoutedSamples;
import java.time.Clock;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * One line-protocol write, whichever InfluxDB API it came through ({@code /write}, {@code /api/v2/write}): the whole
 * body parsed and checked first ({@link SampleChecks}), then its valid lines published in one Kafka transaction.
 * The caller answers from the result: no errors, or a partial write whose listed lines were not stored.
 */
final class LineProtocolWrites {

    static final String ADAPTER = "influx-line";

    private final AckedPublisher publisher;
    private final SampleChecks checks;
    private final Clock clock;
    private final ThreadLocal<LineProtocolParser> parsers;

    LineProtocolWrites(AckedPublisher publisher, SampleChecks checks, Clock clock) {
        this.publisher = publisher;
        this.checks = checks;
        this.clock = clock;
        this.parsers = ThreadLocal.withInitial(() -> new LineProtocolParser(checks));
    }

    /** Parses, checks and publishes {@code body}; lines without a run tag go to {@code defaultRunId}. */
    RoutedSamples write(byte[] body, TimestampPrecision precision, String defaultRunId) {
        RoutedSamples.Builder parsed = new RoutedSamples.Builder(checks.limits().maxSamplesPerRequest());
        parsers.get().parseInto(body, 0, body.length, precision, defaultRunId, clock.instant(), parsed);
        RoutedSamples routed = parsed.build();
        // annotations (JMeter's test start and end markers) and samples in one transaction
        publisher.publish(List.<SpecificRecord>copyOf(routed.annotations()), routed, ADAPTER);
        return routed;
    }
}
