package dev.caplab.schema.limits;

/**
 * Why a sample does not have the shape {@link SampleShape} allows: the offending field and the reason. Each caller
 * reacts in its own way: ingest refuses the line naming it, streams leaves the sample out of aggregation, the sink
 * sets it aside instead of storing it raw.
 *
 * @param field the field at fault ({@code source}, {@code metric}, {@code labels}, a label's key (its first 64
 *              characters), {@code summary.count}, {@code summary.quantiles}, or what a caller named it)
 * @param reason what is wrong with it, with the limit it broke
 */
public record SampleProblem(String field, String reason) {

    /** "source: must not be blank". */
    @Override
    public String toString() {
        return field + ": " + reason;
    }

    /**
     * "labels: 129 labels, over the limit of 128 (series host-1, cpu.cores)": the problem and the series it is in,
     * source and metric cut to a name fit for a message.
     */
    public String inSeries(CharSequence source, CharSequence metric) {
        return this + " (series " + SampleShape.excerpt(source) + ", " + SampleShape.excerpt(metric) + ")";
    }
}
