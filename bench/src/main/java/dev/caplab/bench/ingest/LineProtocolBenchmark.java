package dev.caplab.bench.ingest;

import dev.caplab.app.load.K6LikeLines;
import dev.caplab.ingest.influx.LineProtocolParser;
import dev.caplab.ingest.influx.TimestampPrecision;
import dev.caplab.ingest.publish.RoutedSamples;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Line-protocol parsing alone: one 5,000-line k6-like batch (a /write request) per call; score = points/s. */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = "-Xmx1g")
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@State(Scope.Thread)
public class LineProtocolBenchmark {

    private static final int LINES = 5_000;
    private static final Instant RECEIVED = Instant.parse("2026-03-01T10:00:00Z");

    private final LineProtocolParser parser = new LineProtocolParser();
    private byte[] batch;

    @Setup
    public void setUp() {
        batch = K6LikeLines.batch(0, LINES);
    }

    @Benchmark
    @OperationsPerInvocation(LINES)
    public RoutedSamples parseBatch() {
        return parser.parse(batch, 0, batch.length, TimestampPrecision.NANOSECONDS, "bench-run", RECEIVED);
    }
}
