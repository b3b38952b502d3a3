package dev.caplab.schema.vocabulary;

/** Defaults of capacity planning that the streams tier, the fit CLI, plans and the API must agree on. */
public final class Planning {

    /**
     * Plan to use at most this share of a resource's ceiling: servers degrade before a resource is exhausted (latency
     * rose from about 65 % of a VM's CPU quota in the tests this default was taken from), so 60 % keeps planned use
     * below where degradation begins.
     */
    public static final double DEFAULT_MARGIN = 0.6;
    /** The same default as text, for command-line option defaults that must be constants. */
    public static final String DEFAULT_MARGIN_TEXT = "0.6";

    private Planning() {
    }
}
