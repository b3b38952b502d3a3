package dev.caplab.streams.run;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.limits.SampleProblem;
import dev.caplab.schema.limits.SampleShape;
import dev.caplab.streams.aggregate.SeriesId;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The series of the samples a processor sees, each checked against {@link SampleShape} and given its {@link SeriesId}
 * once, not per sample: a run sends the same few series thousands of times, and sorting labels, building the
 * series key and measuring every name's UTF-8 length per sample was the largest part of the stream thread's time.
 * The decoder already hands out one String per name and one map per label set, so a lookup is cheap. Bounded:
 * forgotten wholesale past {@link #MAX_SERIES} series (it is only a cache; the result never depends on it).
 */
final class SeriesInterner {

    static final int MAX_SERIES = 65_536;

    /** A series, or why its samples cannot be aggregated. */
    record Checked(SeriesId series, Optional<SampleProblem> problem) {
    }

    private record Raw(String source, String metric, Map<String, String> labels) {
    }

    private final SampleShape shape;
    private final Map<Raw, Checked> known = new HashMap<>();

    SeriesInterner(SampleShape shape) {
        this.shape = shape;
    }

    Checked of(Sample s) {
        Raw raw = new Raw(s.getSource(), s.getMetric(), s.getLabels());
        Checked checked = known.get(raw);
        if (checked == null) {
            if (known.size() >= MAX_SERIES) {
                known.clear();
            }
            Optional<SampleProblem> problem = shape.seriesProblem(raw.source(), raw.metric(), raw.labels());
            checked = new Checked(problem.isPresent() ? null
                    : SeriesId.of(raw.source(), raw.metric(), raw.labels()), problem);
            // a map a later record changes must not alias a cached key
            known.put(new Raw(raw.source(), raw.metric(), Map.copyOf(raw.labels())), checked);
        }
        return checked;
    }
}
