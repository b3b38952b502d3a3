package dev.caplab.ingest.runs;

import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.vocabulary.RunGenerationIds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which run each sample of a write belongs to. A run nobody started ends after {@code --run-idle-end} without input;
 * a sample later than that end begins the next generation of the id the client sent: {@code <run>.2}, then
 * {@code <run>.3}, each the first id of that chain not yet known. So each {@code k6 run} against one {@code /write?db=}
 * becomes its own run. A sample inside an ended run's span goes to that run as late data; a declared run (its
 * RunStarted came from a client) is never split: samples after its end are stored there, in no step, and said so.
 * A run a client deleted takes no sample at all, declared or not, whatever its time: samples sent to its id begin
 * the next generation as a new test would (the store leaves out anything of a deleted run).
 *
 * <p>The decision is made once, here, and recorded as the Kafka key of the samples, so a replay or rebuild of the
 * event log gives the same run ids; every later stage reads them from the log. It depends only on the lifecycle events
 * already seen ({@link RunDirectory}) and the samples' own times.
 */
public final class RunGenerations {

    /** Between a run id and its generation number: {@code k6} then {@code k6.2}, {@code k6.3}. */
    public static final String SEPARATOR = RunGenerationIds.SEPARATOR;
    /** How long after a start writes may wait for the directory to be read (a few runs' events take ms). */
    public static final java.time.Duration LOAD_WAIT = java.time.Duration.ofSeconds(10);

    private final RunDirectory directory;

    public RunGenerations(RunDirectory directory) {
        this.directory = directory;
    }

    /** The samples re-keyed by the run each belongs to, and where they landed. */
    public record Routing(RoutedSamples routed, List<Landing> landings) {
        public Routing {
            landings = List.copyOf(landings);
        }
    }

    /**
     * Routes {@code routed}'s samples; run ids in {@code declaredHere} (a RunStarted in the same request) keep theirs.
     */
    public Routing route(RoutedSamples routed, Set<String> declaredHere) {
        if (!routed.samplesByRun().isEmpty()) {
            directory.awaitLoaded(LOAD_WAIT);
        }
        Map<String, List<Sample>> byRun = new LinkedHashMap<>();
        Map<String, Landing> landings = new LinkedHashMap<>();
        for (Map.Entry<String, List<Sample>> run : routed.samplesByRun().entrySet()) {
            String sentTo = run.getKey();
            List<String> chain = declaredHere.contains(sentTo) ? List.of() : chain(sentTo);
            List<Sample> samples = run.getValue();
            RunDirectory.RunFacts first = chain.isEmpty() ? null : directory.facts(chain.getFirst()).orElseThrow();
            if (first == null || !first.ended() && !first.deleted()) {
                // the run (or a run nobody knows yet) is running: every sample lands in it, whatever its time
                Landing all = new Landing(sentTo, sentTo, Landing.Kind.RUNNING, samples.size(), null);
                byRun.computeIfAbsent(sentTo, r -> new ArrayList<>()).addAll(samples);
                landings.merge(sentTo + "\n" + all.kind(), all, Landing::plus);
                continue;
            }
            for (Sample s : samples) {
                Landing where = place(sentTo, chain, s.getTimestamp());
                byRun.computeIfAbsent(where.runId(), r -> new ArrayList<>()).add(s);
                landings.merge(where.runId() + "\n" + where.kind(), where, Landing::plus);
            }
        }
        return new Routing(new RoutedSamples(byRun, routed.errors(), routed.annotations()),
                List.copyOf(landings.values()));
    }

    /** The known generations of {@code sentTo}, in order: itself, then {@code .2}, {@code .3}... while known. */
    private List<String> chain(String sentTo) {
        List<String> chain = new ArrayList<>();
        if (directory.facts(sentTo).isEmpty()) {
            return chain;
        }
        chain.add(sentTo);
        for (int n = 2; directory.facts(generation(sentTo, n)).isPresent(); n++) {
            chain.add(generation(sentTo, n));
        }
        return chain;
    }

    private Landing place(String sentTo, List<String> chain, Instant t) {
        for (String id : chain) {
            RunDirectory.RunFacts f = directory.facts(id).orElseThrow();
            if (f.deleted()) {
                continue; // a deleted run takes nothing: the sample belongs to a later one
            }
            if (f.endedUndeclared() && t.isAfter(f.endedAt())) {
                continue; // that test is over: the sample belongs to a later one
            }
            if (!f.ended()) {
                return new Landing(id, sentTo, Landing.Kind.RUNNING, 1, null);
            }
            return new Landing(id, sentTo, t.isAfter(f.endedAt()) ? Landing.Kind.AFTER_END : Landing.Kind.LATE, 1,
                    f.endedAt());
        }
        if (chain.isEmpty()) {
            return new Landing(sentTo, sentTo, Landing.Kind.RUNNING, 1, null);
        }
        RunDirectory.RunFacts last = directory.facts(chain.getLast()).orElseThrow();
        if (last.deleted()) {
            return new Landing(generation(sentTo, chain.size() + 1), sentTo, Landing.Kind.AFTER_DELETION, 1,
                    last.deletedAt());
        }
        return new Landing(generation(sentTo, chain.size() + 1), sentTo, Landing.Kind.NEW_RUN, 1,
                last.endedAt());
    }

    /** The {@code n}th run of tests sent to {@code runId} ({@code n} ≥ 2). */
    public static String generation(String runId, int n) {
        return RunGenerationIds.generation(runId, n);
    }
}
