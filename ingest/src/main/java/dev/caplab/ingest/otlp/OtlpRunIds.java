package dev.caplab.ingest.otlp;

/** Where an OTLP request's run id may come from, in order; the one wording of the refusal when none does. */
public final class OtlpRunIds {

    /** Query parameter giving the default run of a request. */
    public static final String PARAMETER = "run";
    /** Header giving the default run when the query parameter is absent (OTLP exporters set headers, not URLs). */
    public static final String HEADER = "X-Caplab-Run";

    static final String MISSING = "no run id: set the resource (or data point) attribute caplab.run.id (or run), "
            + "the URL parameter ?run=, or the header " + HEADER;

    private OtlpRunIds() {
    }

    /** The request's default run: the parameter, else the header, else null. */
    public static String defaultRun(String parameter, String header) {
        if (parameter != null && !parameter.isBlank()) {
            return parameter.strip();
        }
        return header != null && !header.isBlank() ? header.strip() : null;
    }

    /** The refusal of a request none of whose points named a run. */
    public static String missing() {
        return MISSING;
    }
}
