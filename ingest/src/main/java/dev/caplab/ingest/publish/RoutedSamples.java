package dev.caplab.ingest.publish;

import dev.caplab.ingest.parse.ParseError;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.Sample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What a parser made of input that may carry several runs (a {@code run} tag per line): the valid samples grouped by
 * run id, in input order, every rejected line, and the annotations some lines are (JMeter's test start and end).
 * Publishing it publishes every run's samples; annotations are lifecycle events, published by the HTTP path with them.
 */
public record RoutedSamples(Map<String, List<Sample>> samplesByRun, List<ParseError> errors,
                            List<Annotation> annotations) {

    public RoutedSamples {
        samplesByRun = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(samplesByRun));
        errors = List.copyOf(errors);
        annotations = List.copyOf(annotations);
    }

    public RoutedSamples(Map<String, List<Sample>> samplesByRun, List<ParseError> errors) {
        this(samplesByRun, errors, List.of());
    }

    public int sampleCount() {
        return samplesByRun.values().stream().mapToInt(List::size).sum();
    }

    public boolean hasErrors() {
        return !errors.isEmpty();
    }

    /** Publishes every run's samples; completes when Kafka acknowledged all of them. */
    public CompletableFuture<Void> publishTo(SampleSink sink, String adapter) {
        return CompletableFuture.allOf(samplesByRun.entrySet().stream()
                .map(e -> sink.publish(e.getKey(), adapter, e.getValue()))
                .toArray(CompletableFuture[]::new));
    }

    /** Collects samples and errors while a parser runs; not thread-safe. */
    public static final class Builder {

        private final Map<String, List<Sample>> byRun = new LinkedHashMap<>();
        private final List<ParseError> errors = new ArrayList<>();
        private final List<Annotation> annotations = new ArrayList<>();
        private final int maxSamples;
        private int count;
        private String lastRunId;
        private List<Sample> lastList;

        public Builder() {
            this(Integer.MAX_VALUE);
        }

        /** A builder that throws {@link TooManySamplesException} on the sample after {@code maxSamples}. */
        public Builder(int maxSamples) {
            this.maxSamples = maxSamples;
        }

        public void add(String runId, Sample sample) {
            if (++count > maxSamples) {
                throw new TooManySamplesException(maxSamples);
            }
            // consecutive lines of one run are the norm: skip the map lookup for them
            if (!runId.equals(lastRunId)) {
                lastList = byRun.computeIfAbsent(runId, r -> new ArrayList<>());
                lastRunId = runId;
            }
            lastList.add(sample);
        }

        public void error(ParseError error) {
            errors.add(error);
        }

        public void annotate(Annotation annotation) {
            annotations.add(annotation);
        }

        public RoutedSamples build() {
            return new RoutedSamples(byRun, errors, annotations);
        }
    }

    /** A request carries more samples than one request may: it is refused whole, nothing is published. */
    public static final class TooManySamplesException extends RuntimeException {

        public TooManySamplesException(int maxSamples) {
            super("more than " + maxSamples + " samples in one request: split it into smaller requests");
        }
    }
}
