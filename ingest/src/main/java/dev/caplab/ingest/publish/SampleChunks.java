package dev.caplab.ingest.publish;

import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SummaryStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Splits a run's samples into SampleBatch-sized chunks, so no Kafka record grows with the size of a request: at most
 * {@link #MAX_SAMPLES} samples and at most {@link IngestLimits#maxRecordBytes()} estimated bytes per chunk. A sample
 * larger than the byte budget on its own still gets a chunk of its own; {@link IngestLimits} keeps any sample that
 * passed the door below the broker's record limit.
 */
public final class SampleChunks {

    /** Samples per SampleBatch: about 100 kB encoded for typical samples. */
    public static final int MAX_SAMPLES = 1_000;
    /**
     * Framing of one sample (timestamp, kind, value, lengths) and of one map entry, in bytes, rounded up: an entry's
     * two lengths take at most 10, so its 20 also cover its map's block header (count and byte size, at most 10).
     */
    private static final int SAMPLE_FRAMING_BYTES = 32;
    private static final int ENTRY_FRAMING_BYTES = 20;

    private SampleChunks() {
    }

    /** Consecutive chunks of at most {@code maxSamples}, in order, with no byte bound; views of the input. */
    public static List<List<Sample>> of(List<Sample> samples, int maxSamples) {
        return of(samples, maxSamples, Long.MAX_VALUE);
    }

    /**
     * Consecutive chunks of at most {@code maxSamples} samples and at most {@code maxBytes} estimated encoded bytes
     * (a lone sample above {@code maxBytes} is a chunk by itself), in order; views of the input, not copies.
     */
    public static List<List<Sample>> of(List<Sample> samples, int maxSamples, long maxBytes) {
        if (maxSamples < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("maxSamples and maxBytes must be >= 1, were " + maxSamples + ", "
                    + maxBytes);
        }
        List<List<Sample>> chunks = new ArrayList<>();
        int from = 0;
        long bytes = 0;
        for (int i = 0; i < samples.size(); i++) {
            long size = estimatedBytes(samples.get(i));
            if (i > from && (i - from == maxSamples || bytes + size > maxBytes)) {
                chunks.add(samples.subList(from, i));
                from = i;
                bytes = 0;
            }
            bytes += size;
        }
        if (from < samples.size()) {
            chunks.add(samples.subList(from, samples.size()));
        }
        return chunks;
    }

    /**
     * An upper bound of a sample's Avro encoding: 3 bytes per UTF-16 char (UTF-8 never needs more), plus framing.
     * Cheap on purpose: it runs for every published sample.
     */
    static long estimatedBytes(Sample sample) {
        long bytes = SAMPLE_FRAMING_BYTES + 3L * (sample.getSource().length() + sample.getMetric().length());
        for (Map.Entry<? extends CharSequence, ? extends CharSequence> label : sample.getLabels().entrySet()) {
            bytes += ENTRY_FRAMING_BYTES + 3L * (label.getKey().length()
                    + (label.getValue() == null ? 0 : label.getValue().length()));
        }
        SummaryStats summary = sample.getSummary();
        if (summary != null) {
            bytes += 4 * SAMPLE_FRAMING_BYTES;
            for (CharSequence quantile : summary.getQuantiles().keySet()) {
                bytes += ENTRY_FRAMING_BYTES + 3L * quantile.length();
            }
        }
        return bytes;
    }
}
