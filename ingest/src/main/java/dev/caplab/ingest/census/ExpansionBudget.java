package dev.caplab.ingest.census;

import dev.caplab.ingest.parse.IngestLimits;

/**
 * What a decoded request will expand into, counted from its messages' sizes before any sample is built: a histogram
 * point of n buckets becomes n samples, each with a copy of the point's labels. Past
 * {@link IngestLimits#maxSamplesPerRequest()} samples or {@link IngestLimits#maxValuesPerRequest()} label entries
 * the request is refused ({@link TooManyValuesException}, naming the part that crossed the limit) before anything
 * is expanded, so the work of a request is bounded by its limits, not by what its few bytes claim.
 */
public final class ExpansionBudget {

    private final int maxSamples;
    private final long maxLabelEntries;
    private long samples;
    private long labelEntries;

    public ExpansionBudget(IngestLimits limits) {
        this.maxSamples = limits.maxSamplesPerRequest();
        this.maxLabelEntries = limits.maxValuesPerRequest();
    }

    /** Counts {@code count} samples of {@code field}, each carrying {@code labelsEach} labels. */
    public void add(String field, long count, long labelsEach) {
        samples += count;
        if (samples > maxSamples) {
            throw new TooManyValuesException(field, "the request expands to more than " + maxSamples
                    + " samples (the per-request limit), counted before expansion; split it; nothing was stored");
        }
        labelEntries += count * labelsEach;
        if (labelEntries > maxLabelEntries) {
            throw new TooManyValuesException(field, "the request's samples would carry more than " + maxLabelEntries
                    + " label entries together, counted before expansion; send fewer labels or split it; nothing "
                    + "was stored");
        }
    }
}
