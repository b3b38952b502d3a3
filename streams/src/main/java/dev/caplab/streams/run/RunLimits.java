package dev.caplab.streams.run;

import dev.caplab.schema.limits.SampleLimits;
import java.util.Objects;

/**
 * What one run may reach in the topology, and so the largest state record it can have. Beyond each limit the run
 * gets an alert and processing goes on; nothing here stops the pipeline.
 *
 * <ul>
 *   <li>{@code sample}: the shape of one sample, the same {@link SampleLimits} ingest refuses beyond at the door
 *       (names, label keys and values, labels per sample and their total bytes). A sample that reached Kafka
 *       beyond it anyway is left out of aggregation (the batch is dead-lettered with the reason, the run alerted);
 *       a lifecycle record with a run id beyond the name limit is dead-lettered whole.</li>
 *   <li>{@code maxLevelChanges}: load-level <em>changes</em> kept for step inference (samples of an unchanged level
 *       cost nothing). Later changes are ignored for inference, once alerted.</li>
 *   <li>{@code maxBaselineSeries}, {@code maxFitSeries}: series remembered for baseline deltas and for refits;
 *       the rest get no baseline delta / no fit, once alerted.</li>
 *   <li>{@code maxStateBytes}: hard bound of one encoded run-state record. An input that would grow the non-derived
 *       part (lifecycle, steps, level changes) past half of it is dead-lettered; derived parts (baselines, fit
 *       points) are shed first when the whole would exceed it.</li>
 * </ul>
 */
public record RunLimits(SampleLimits sample, int maxLevelChanges, int maxBaselineSeries, int maxFitSeries,
                        int maxStateBytes) {

    /** 512 KiB: half of Kafka's default 1 MiB message size, so a state record always fits its changelog. */
    public static final int DEFAULT_MAX_STATE_BYTES = 512 * 1024;

    public RunLimits {
        Objects.requireNonNull(sample, "sample");
        for (int v : new int[] {maxLevelChanges, maxBaselineSeries, maxFitSeries, maxStateBytes}) {
            if (v < 1) {
                throw new IllegalArgumentException("every run limit must be >= 1: " + this);
            }
        }
    }

    /** {@link SampleLimits#DEFAULTS}, 2,000 level changes, 1,000 baselines, 64 fit series, 512 KiB of state. */
    public static RunLimits defaults() {
        return new RunLimits(SampleLimits.DEFAULTS, 2000, 1000, 64, DEFAULT_MAX_STATE_BYTES);
    }

    /** The part of {@link #maxStateBytes()} inputs may fill; derived parts get the rest. */
    public int maxCoreStateBytes() {
        return maxStateBytes / 2;
    }
}
