package dev.caplab.ingest.census;

import dev.caplab.ingest.parse.IngestLimits;

/**
 * How many values a structured body (protobuf or JSON) may hold, counted before it is decoded: in one repeated
 * field (one array) and in all of them together, and how deeply its messages may nest. A value is one element of a
 * repeated field, whatever its type (a bucket count, a label, a data point).
 *
 * @param maxValuesPerField   elements of one repeated field in one message (one JSON array)
 * @param maxValuesPerRequest elements of every repeated field of the body together
 * @param maxDepth            nesting of messages (objects and arrays) below the root
 */
public record CensusLimits(int maxValuesPerField, long maxValuesPerRequest, int maxDepth) {

    /** OTLP nests attributes' values (kvlist, array) to any depth; metrics themselves need about 12 levels. */
    public static final int DEFAULT_MAX_DEPTH = 32;

    public CensusLimits {
        if (maxValuesPerField < 1 || maxValuesPerRequest < 1 || maxDepth < 1) {
            throw new IllegalArgumentException("census limits must be >= 1: " + maxValuesPerField + ", "
                    + maxValuesPerRequest + ", " + maxDepth);
        }
    }

    /**
     * One field may hold at most as many values as the request may carry samples (each bucket, bound or point is at
     * least one sample); the body at most {@link IngestLimits#maxValuesPerRequest()} values.
     */
    public static CensusLimits of(IngestLimits limits) {
        return new CensusLimits(limits.maxSamplesPerRequest(), limits.maxValuesPerRequest(), DEFAULT_MAX_DEPTH);
    }

    String perField() {
        return "more than " + maxValuesPerField + " values in one field (the per-request sample limit), counted "
                + "before decoding; split the request; nothing was stored";
    }

    String perRequest() {
        return "more than " + maxValuesPerRequest + " values in all fields of one request, counted before "
                + "decoding; split it into smaller requests; nothing was stored";
    }

    String depth() {
        return "nested deeper than " + maxDepth + " levels; nothing was stored";
    }
}
