package dev.caplab.ingest.publish;

import dev.caplab.schema.event.Sample;
import java.util.ArrayList;
import java.util.List;

/** Splits a run's samples into SampleBatch-sized chunks, so no Kafka record grows with the size of a request. */
public final class SampleChunks {

    /** Samples per SampleBatch: about 100 kB encoded, far below the producer's request limit. */
    public static final int MAX_SAMPLES = 1_000;

    private SampleChunks() {
    }

    /** Consecutive chunks of at most {@code maxSamples}, in order; views of the input, not copies. */
    public static List<List<Sample>> of(List<Sample> samples, int maxSamples) {
        if (maxSamples < 1) {
            throw new IllegalArgumentException("maxSamples must be >= 1, was " + maxSamples);
        }
        List<List<Sample>> chunks = new ArrayList<>((samples.size() + maxSamples - 1) / maxSamples);
        for (int from = 0; from < samples.size(); from += maxSamples) {
            chunks.add(samples.subList(from, Math.min(samples.size(), from + maxSamples)));
        }
        return chunks;
    }
}
