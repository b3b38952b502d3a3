package dev.caplab.streams.run;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.limits.SampleProblem;
import dev.caplab.schema.limits.SampleShape;
import dev.caplab.streams.aggregate.BufferedSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The admission stage: which samples of a batch have the shape {@link SampleShape} allows within
 * {@link RunLimits#sample()} (names, labels, summary), their series checked once ({@link SeriesInterner}); the others
 * are left out of aggregation and the batch is dead-lettered with the first problem.
 */
final class SampleAdmission {

    /**
     * The samples admitted, and how many of {@code total} were left out.
     *
     * @param firstProblem why the first left-out sample was; null when none was
     */
    record Admitted(List<BufferedSample> samples, int total, int leftOut, String firstProblem) {

        /** Why part of the batch was left out, for its dead letter and alert; empty when nothing was. */
        Optional<String> leftOutReason() {
            return leftOut == 0 ? Optional.empty() : Optional.of(leftOut + " of " + total
                    + " samples left out of aggregation, first: " + firstProblem);
        }
    }

    private final SampleShape shape;
    private final SeriesInterner series;

    SampleAdmission(RunLimits limits) {
        this.shape = new SampleShape(limits.sample());
        this.series = new SeriesInterner(shape);
    }

    Admitted admit(List<Sample> samples) {
        List<BufferedSample> admitted = new ArrayList<>(samples.size());
        int leftOut = 0;
        String firstProblem = null;
        for (Sample s : samples) {
            SeriesInterner.Checked checked = series.of(s);
            Optional<SampleProblem> problem = checked.problem();
            if (problem.isEmpty()) {
                problem = shape.summaryProblem(s.getSummary());
            }
            if (problem.isPresent()) {
                leftOut++;
                firstProblem = firstProblem == null ? problem.get().inSeries(s.getSource(), s.getMetric())
                        : firstProblem;
            } else {
                admitted.add(BufferedSample.of(s, checked.series()));
            }
        }
        return new Admitted(admitted, samples.size(), leftOut, firstProblem);
    }
}
