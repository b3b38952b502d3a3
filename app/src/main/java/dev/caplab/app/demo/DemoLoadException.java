package dev.caplab.app.demo;

/** The demo runs could not be read from or written to Kafka; names the cluster and, where known, the run. */
public final class DemoLoadException extends RuntimeException {

    private final String bootstrapServers;
    private final String runId;

    public DemoLoadException(String bootstrapServers, String runId, String what, Throwable cause) {
        super("demo data on " + bootstrapServers + (runId == null ? "" : ", run " + runId) + ": " + what
                + (cause == null ? "" : ": " + cause.getMessage()), cause);
        this.bootstrapServers = bootstrapServers;
        this.runId = runId;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The run being written when it failed, or null when the failure was not about one run. */
    public String runId() {
        return runId;
    }
}
