package dev.caplab.ingest.publish;

/** Kafka did not acknowledge events of a run: the caller must not report them as accepted. */
public final class PublishFailedException extends RuntimeException {

    private final String runId;
    private final String topic;

    public PublishFailedException(String runId, String topic, String what, Throwable cause) {
        super("Kafka did not acknowledge " + what + " of run " + runId + " on " + topic + ": " + cause.getMessage(),
                cause);
        this.runId = runId;
        this.topic = topic;
    }

    public String runId() {
        return runId;
    }

    public String topic() {
        return topic;
    }
}
