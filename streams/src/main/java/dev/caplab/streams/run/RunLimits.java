package dev.caplab.streams.run;

/**
 * What one run may reach in the topology, and so the largest state record it can have. Beyond each limit the run
 * gets an alert and processing goes on; nothing here stops the pipeline.
 *
 * <ul>
 *   <li>{@code maxNameBytes}: UTF-8 bytes of a run id, source, metric or label key. A sample beyond it is left out
 *       of aggregation (the batch is dead-lettered with the reason, the run alerted); a lifecycle record is
 *       dead-lettered whole.</li>
 *   <li>{@code maxLabelValueBytes}, {@code maxLabelsPerSample}: likewise for label values, and for the count of
 *       labels (and of summary quantiles) on one sample.</li>
 *   <li>{@code maxLevelChanges}: load-level <em>changes</em> kept for step inference (samples of an unchanged level
 *       cost nothing). Later changes are ignored for inference, once alerted.</li>
 *   <li>{@code maxBaselineSeries}, {@code maxFitSeries}: series remembered for baseline deltas and for refits;
 *       the rest get no baseline delta / no fit, once alerted.</li>
 *   <li>{@code maxStateBytes}: hard bound of one encoded run-state record. An input that would grow the non-derived
 *       part (lifecycle, steps, level changes) past half of it is dead-lettered; derived parts (baselines, fit
 *       points) are shed first when the whole would exceed it.</li>
 * </ul>
 */
public record RunLimits(int maxNameBytes, int maxLabelValueBytes, int maxLabelsPerSample, int maxLevelChanges,
                        int maxBaselineSeries, int maxFitSeries, int maxStateBytes) {

    /** 512 KiB: half of Kafka's default 1 MiB message size, so a state record always fits its changelog. */
    public static final int DEFAULT_MAX_STATE_BYTES = 512 * 1024;

    public RunLimits {
        for (int v : new int[] {maxNameBytes, maxLabelValueBytes, maxLabelsPerSample, maxLevelChanges,
                maxBaselineSeries, maxFitSeries, maxStateBytes}) {
            if (v < 1) {
                throw new IllegalArgumentException("every run limit must be >= 1: " + this);
            }
        }
    }

    /** 1 KiB names, 4 KiB label values, 64 labels, 2,000 level changes, 1,000 baselines, 64 fit series, 512 KiB. */
    public static RunLimits defaults() {
        return new RunLimits(1024, 4096, 64, 2000, 1000, 64, DEFAULT_MAX_STATE_BYTES);
    }

    /** The part of {@link #maxStateBytes()} inputs may fill; derived parts get the rest. */
    public int maxCoreStateBytes() {
        return maxStateBytes / 2;
    }
}
