package dev.caplab.analysis.cliff;

/** Which rule flagged the cliff. */
public enum CliffReason {
    /** No cliff. */
    NONE,
    /** The segmented model's slope after a breakpoint is at least slopeFactor times the slope before it. */
    SEGMENT_SLOPE_RATIO,
    /** The step exceeds the earlier steps' line by the relative tolerance and lies above its prediction interval. */
    ABOVE_PREDICTION_INTERVAL,
    /** The step exceeds the line by the relative tolerance and the slope into it is at least slopeFactor times the line's. */
    STEEP_LAST_SLOPE
}
