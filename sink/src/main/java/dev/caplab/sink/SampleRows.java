package dev.caplab.sink;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.limits.SampleLimits;
import dev.caplab.schema.limits.SampleProblem;
import dev.caplab.schema.limits.SampleShape;
import dev.caplab.store.row.SampleRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The raw rows of one sample batch, sample by sample: a sample without the shape {@link SampleShape} allows, or one
 * whose row ClickHouse cannot store (a time outside its DateTime64), is set aside with its problem and series, and
 * every other sample of the batch becomes a row. A batch whose run id is not a valid name has no row at all: every
 * row belongs to its run.
 */
final class SampleRows {

    /** How the run id is named in a problem, as streams names it. */
    static final String RUN_ID = "run id";
    /** Problems listed in a reason; the count says how many samples were set aside in all. */
    static final int LISTED_PROBLEMS = 5;

    private final SampleShape shape;

    /** The shape ingest's door and streams' admission check, within the same limits. */
    SampleRows() {
        this(new SampleShape(SampleLimits.DEFAULTS));
    }

    SampleRows(SampleShape shape) {
        this.shape = shape;
    }

    /**
     * The rows of {@code batch} and the samples set aside.
     *
     * @throws IllegalArgumentException when the batch's run id is blank or too long: no sample of it has a row
     */
    Split split(SampleBatch batch) {
        String runId = batch.getRunId().toString();
        shape.nameProblem(RUN_ID, runId).ifPresent(p -> {
            throw new IllegalArgumentException(p.toString());
        });
        List<SampleRow> rows = new ArrayList<>(batch.getSamples().size());
        List<Sample> setAside = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Sample s : batch.getSamples()) {
            Optional<String> problem = shape.problem(s).map(p -> p.inSeries(s.getSource(), s.getMetric()));
            if (problem.isEmpty()) {
                try {
                    rows.add(RowMapping.sample(runId, s));
                } catch (IllegalArgumentException e) {
                    problem = Optional.of(new SampleProblem("row", e.getMessage())
                            .inSeries(s.getSource(), s.getMetric()));
                }
            }
            if (problem.isPresent()) {
                setAside.add(s);
                if (problems.size() < LISTED_PROBLEMS) {
                    problems.add(problem.get());
                }
            }
        }
        return new Split(batch, rows, setAside, problems);
    }

    /**
     * What one batch became.
     *
     * @param rows     the rows of its valid samples, in the batch's order
     * @param setAside the samples that have no row
     * @param problems why, for the first {@link #LISTED_PROBLEMS} of them
     */
    record Split(SampleBatch batch, List<SampleRow> rows, List<Sample> setAside, List<String> problems) {

        Split {
            rows = List.copyOf(rows);
            setAside = List.copyOf(setAside);
            problems = List.copyOf(problems);
        }

        /** The batch with only the samples set aside (run id, adapter and time of receipt as sent): a dead letter. */
        SampleBatch setAsideBatch() {
            return SampleBatch.newBuilder().setRunId(batch.getRunId()).setAdapter(batch.getAdapter())
                    .setReceivedAt(batch.getReceivedAt()).setSamples(setAside).build();
        }

        /** "1 of 6 samples set aside, not stored raw: source: must not be blank (series  , cpu.cores)". */
        String reason() {
            return setAside.size() + " of " + batch.getSamples().size() + " samples set aside, not stored raw: "
                    + String.join("; ", problems) + (setAside.size() > problems.size() ? "; …" : "");
        }
    }
}
