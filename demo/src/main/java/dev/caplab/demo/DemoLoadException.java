package dev.caplab.demo;

/** The demo runs could not be sent to caplab's HTTP API; names the instance, the run when known, and the answer. */
public final class DemoLoadException extends RuntimeException {

    private final String runId;

    public DemoLoadException(IngestTarget target, String runId, String what, Throwable cause) {
        super("demo data to " + target.baseUrl() + (runId == null ? "" : ", run " + runId) + ": " + what
                + (cause == null ? "" : ": " + cause.getMessage()), cause);
        this.runId = runId;
    }

    /** The run being sent when it failed, or null when the failure was not about one run. */
    public String runId() {
        return runId;
    }
}
