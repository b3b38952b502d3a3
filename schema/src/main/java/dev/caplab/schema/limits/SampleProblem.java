package dev.caplab.schema.limits;

/**
 * Why a sample does not have the shape {@link SampleShape} allows: the offending field and the reason. Each caller
 * reacts in its own way: ingest refuses the line naming it, streams leaves the sample out of aggregation.
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
}
