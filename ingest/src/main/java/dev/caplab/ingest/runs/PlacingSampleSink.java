package dev.caplab.ingest.runs;

import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.ingest.publish.SampleSink;
import dev.caplab.schema.event.Sample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A sample sink for publishers outside the HTTP path ({@code caplab ingest}, {@code caplab sample}): each publish's
 * samples go to the run {@link RunGenerations} places them in, as the HTTP write endpoints do (a new run after an
 * idle end, late data in an ended one), and where they landed is kept for the command to say. Thread-safe.
 */
public final class PlacingSampleSink implements SampleSink {

    private final SampleSink delegate;
    private final RunGenerations generations;
    private final Map<String, Landing> landings = new LinkedHashMap<>();

    public PlacingSampleSink(SampleSink delegate, RunGenerations generations) {
        this.delegate = delegate;
        this.generations = generations;
    }

    @Override
    public CompletableFuture<Void> publish(String runId, String adapter, List<Sample> samples) {
        RunGenerations.Routing routing = generations.route(new RoutedSamples(Map.of(runId, samples), List.of()),
                Set.of());
        synchronized (landings) {
            routing.landings().forEach(l -> landings.merge(l.runId() + "\n" + l.kind(), l, Landing::plus));
        }
        return routing.routed().publishTo(delegate, adapter);
    }

    /** Where every sample published so far went, one entry per run and kind, in the order they first came. */
    public List<Landing> landings() {
        synchronized (landings) {
            return new ArrayList<>(landings.values());
        }
    }
}
