package dev.caplab.ingest.parse;

import dev.caplab.schema.limits.SampleLimits;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What one request or file line may carry, so that whatever ingest accepts can be published and processed downstream.
 * Every limit is checked at the door ({@link SampleChecks}; the sample's shape by schema's
 * {@link dev.caplab.schema.limits.SampleShape}); beyond it the line (or, for the per-request count, the request) is
 * refused with an error naming the line and field, never clamped or truncated. The defaults
 * ({@link #DEFAULTS}) are chosen against the downstream ceilings:
 * <ul>
 *   <li>Avro strings are length-prefixed, but streams' state and ClickHouse rows pass names through
 *       {@code DataOutput.writeUTF}, which fails above 65,535 bytes: every name and label stays far below.</li>
 *   <li>One {@code SampleBatch} record must stay below the broker's {@code message.max.bytes} (Kafka's default
 *       1 MiB, which caplab's topics keep): a sample is at most {@link #maxSampleBytes()} and records are cut at
 *       {@link #maxRecordBytes} (checked in the constructor), so every valid request can be published.</li>
 *   <li>ClickHouse stores {@code ts} as {@code DateTime64(6, 'UTC')} (V002__samples.sql), whose range is
 *       1900-01-01 .. 2299-12-31 and which clamps silently outside it; the Avro field is {@code timestamp-micros}.
 *       The accepted window is narrower, [{@link #earliest}, now + {@link #maxAhead}]: a timestamp outside it is
 *       a wrong precision or a broken clock (a millisecond epoch read as seconds is year 55,000; seconds read as
 *       milliseconds is January 1970), never a load test. Recorded demo data (2026) and old files pass.</li>
 * </ul>
 *
 * @param maxSamplesPerRequest   samples one HTTP request may carry; beyond it 413 and nothing is published
 * @param maxValuesPerRequest    values a structured (protobuf, OTLP JSON) body may hold in all its repeated fields,
 *                               and label entries the samples it expands to may hold together (a histogram's labels
 *                               are copied into each of its bucket samples); counted before decoding, beyond it 413
 * @param maxLineBytes           bytes of one input line (line protocol, k6 JSON, CSV row)
 * @param sample                 the shape of one sample (names, labels, summary quantiles), the same
 *                               {@link SampleLimits} streams guards with; a run id is a name too
 * @param earliest               first accepted sample time
 * @param maxAhead               how far after the receiving clock a sample time may lie (clock skew)
 * @param maxRecordBytes         estimated encoded bytes of one Kafka record of samples
 */
public record IngestLimits(int maxSamplesPerRequest, long maxValuesPerRequest, int maxLineBytes, SampleLimits sample,
        Instant earliest, Duration maxAhead, int maxRecordBytes) {

    /**
     * 500,000 samples per request (a k6 or Telegraf flush of 5,000 lines is ~50,000) and 16 values or label entries
     * per sample on average (8,000,000); 512 KiB per line; the sample
     * shape of {@link SampleLimits#DEFAULTS}, which streams enforces too; times from 2000-01-01 to now + 1 day;
     * records of at most 512 KiB.
     */
    public static final IngestLimits DEFAULTS = of(SampleLimits.DEFAULTS);

    /** The default request, line, time and record limits around the given sample shape. */
    public static IngestLimits of(SampleLimits sample) {
        return new IngestLimits(500_000, 16L * 500_000, 512 * 1024, sample, Instant.parse("2000-01-01T00:00:00Z"),
                Duration.ofDays(1), 512 * 1024);
    }

    /** Bytes a sample's fixed fields and per-label framing take at most besides its strings (Avro varints). */
    static final int SAMPLE_OVERHEAD_BYTES = 64;
    static final int LABEL_OVERHEAD_BYTES = 10;

    public IngestLimits {
        positive("maxSamplesPerRequest", maxSamplesPerRequest);
        positive("maxValuesPerRequest", maxValuesPerRequest);
        positive("maxLineBytes", maxLineBytes);
        Objects.requireNonNull(sample, "sample");
        positive("maxRecordBytes", maxRecordBytes);
        if (earliest.isBefore(Instant.parse("1900-01-01T00:00:00Z")) || maxAhead.isNegative()
                || maxAhead.compareTo(Duration.ofDays(3650)) > 0) {
            throw new IllegalArgumentException("the timestamp window must lie within ClickHouse DateTime64's range");
        }
        long sampleBytes = 2L * sample.maxNameBytes() + sample.maxLabelBytesPerSample()
                + (long) sample.maxLabelsPerSample() * LABEL_OVERHEAD_BYTES + SAMPLE_OVERHEAD_BYTES;
        if (sampleBytes > maxRecordBytes) {
            throw new IllegalArgumentException("a sample within these limits (" + sampleBytes
                    + " bytes) would not fit one record of " + maxRecordBytes + " bytes");
        }
    }

    /** The largest encoded sample these limits let through (summaries aside: adapters bound their quantiles). */
    public int maxSampleBytes() {
        return 2 * sample.maxNameBytes() + sample.maxLabelBytesPerSample()
                + sample.maxLabelsPerSample() * LABEL_OVERHEAD_BYTES + SAMPLE_OVERHEAD_BYTES;
    }

    /** The last accepted sample time for a request received at {@code now}. */
    public Instant latest(Instant now) {
        return now.plus(maxAhead);
    }

    private static void positive(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1, was " + value);
        }
    }
}
