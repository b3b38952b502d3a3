package dev.caplab.query.testing;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.store.access.AlertRepository;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.RunLatenessRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.StepRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import dev.caplab.sink.RowMapping;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.apache.avro.specific.SpecificRecord;

/**
 * The production topology on a TopologyTestDriver ({@link TopologyFixture}), for fixtures whose derived rows must be
 * what caplab derives from raw readings rather than what the fixture claims: lifecycle events and samples go in as
 * the broker would carry them, the wall clock is advanced by hand (grace, allowed lateness), and what the topology
 * emitted is stored through the sink's {@link RowMapping}, every emitted version as the sink writes it.
 */
public final class TopologyFeed implements AutoCloseable {

    /** Samples per batch, as ingest chunks them ({@code SampleChunks.MAX_SAMPLES}). */
    private static final int BATCH_SAMPLES = 1000;

    private final TopologyFixture topology;
    private final List<SpecificRecord> lifecycle = new ArrayList<>();
    private final List<StepAggregate> emittedAggregates = new ArrayList<>();
    private final List<StepVerdict> emittedVerdicts = new ArrayList<>();
    private final List<CapacityFit> emittedFits = new ArrayList<>();
    private final List<RunConclusion> emittedConclusions = new ArrayList<>();
    private final List<RunLateness> emittedLateness = new ArrayList<>();
    private final List<Alert> emittedAlerts = new ArrayList<>();

    /** A topology with {@code settings}, its state in a temporary directory. */
    public TopologyFeed(TopologySettings settings) {
        try {
            topology = new TopologyFixture(settings, Files.createTempDirectory("caplab-topology-feed"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A lifecycle event (RunStarted, StepStarted, StepEnded, RunEnded) of {@code runId}. */
    public void lifecycle(String runId, SpecificRecord event) {
        lifecycle.add(event);
        topology.lifecycle(runId, event);
        drain();
    }

    /** Samples of {@code runId}, in batches of at most {@value #BATCH_SAMPLES}. */
    public void samples(String runId, List<Sample> all) {
        for (int from = 0; from < all.size(); from += BATCH_SAMPLES) {
            topology.samples(runId, all.subList(from, Math.min(all.size(), from + BATCH_SAMPLES)));
        }
        drain();
    }

    /** Lets {@code time} of wall clock pass (grace, throttled amendments, allowed lateness). */
    public void advance(Duration time) {
        topology.advanceWallClock(time);
        drain();
    }

    /**
     * Stores what the sink would: the runs and steps rows of the lifecycle events, and every aggregate, verdict, fit,
     * conclusion, lateness count and alert the topology emitted.
     */
    public void storeAll(DataSource ds, String dedupPrefix) {
        long sequence = 0;
        List<dev.caplab.store.row.RunRow> runRows = new ArrayList<>();
        List<dev.caplab.store.row.StepRow> stepRows = new ArrayList<>();
        for (SpecificRecord e : lifecycle) {
            sequence++;
            if (e instanceof RunStarted s) {
                runRows.add(RowMapping.run(s, sequence));
            } else if (e instanceof StepStarted s) {
                stepRows.add(RowMapping.step(s, sequence));
            }
        }
        new RunRepository(ds).insertBatch(runRows, dedupPrefix + "-runs");
        new StepRepository(ds).insertBatch(stepRows, dedupPrefix + "-steps");
        sequence = 0;
        for (SpecificRecord e : lifecycle) {
            sequence++;
            if (e instanceof StepEnded s) {
                new StepRepository(ds).markEnded(s.getRunId().toString(), s.getStepIndex(), s.getEndedAt(), sequence);
            } else if (e instanceof RunEnded r) {
                new RunRepository(ds).markEnded(r.getRunId().toString(), r.getEndedAt(), r.getStatus().name(),
                        r.getReason() == null ? null : r.getReason().toString(), sequence);
            }
        }
        storeDerived(ds, dedupPrefix, a -> true);
        new StepVerdictRepository(ds).insertBatch(emittedVerdicts.stream().map(RowMapping::verdict).toList(),
                dedupPrefix + "-verdicts");
        new RunConclusionRepository(ds).insertBatch(emittedConclusions.stream().map(RowMapping::conclusion)
                .toList(), dedupPrefix + "-conclusions");
        new RunLatenessRepository(ds).insertBatch(emittedLateness.stream().map(RowMapping::lateness).toList(),
                dedupPrefix + "-lateness");
        new AlertRepository(ds).insertBatch(emittedAlerts.stream().map(RowMapping::alert).toList(),
                dedupPrefix + "-alerts");
    }

    /**
     * Stores only the emitted aggregates {@code aggregate} accepts and the fits of the same series, for a run whose
     * other rows come from elsewhere.
     */
    public void storeDerived(DataSource ds, String dedupPrefix, Predicate<StepAggregate> aggregate) {
        List<StepAggregate> kept = emittedAggregates.stream().filter(aggregate).toList();
        new StepAggregateRepository(ds).insertBatch(kept.stream().map(RowMapping::aggregate).toList(),
                dedupPrefix + "-aggregates");
        List<CapacityFit> keptFits = emittedFits.stream().filter(f -> kept.stream().anyMatch(a ->
                a.getSource().toString().equals(f.getSource().toString())
                        && a.getMetric().toString().equals(f.getMetric().toString()))).toList();
        new CapacityFitRepository(ds).insertBatch(keptFits,
                dedupPrefix + "-fits");
    }

    /** The newest conclusion the topology emitted for {@code runId}, as the sink stores it. */
    public java.util.Optional<RunConclusion> latestConclusion(String runId) {
        return emittedConclusions.stream().filter(c -> c.getRunId().toString().equals(runId))
                .max(java.util.Comparator.comparingLong(RunConclusion::getVersion)).map(RowMapping::conclusion);
    }

    private void drain() {
        emittedAggregates.addAll(topology.aggregates.readValuesToList());
        emittedVerdicts.addAll(topology.verdicts.readValuesToList());
        emittedFits.addAll(topology.fits.readValuesToList());
        emittedConclusions.addAll(topology.conclusions.readValuesToList());
        emittedLateness.addAll(topology.lateness.readValuesToList());
        emittedAlerts.addAll(topology.alerts.readValuesToList());
    }

    @Override
    public void close() {
        topology.close();
    }
}
