package dev.caplab.streams.input;

/** Header names on dead-letter records: why the record was rejected and where it came from. */
public final class DeadLetterHeaders {

    public static final String REASON = "caplab.dead-letter.reason";
    public static final String TOPIC = "caplab.dead-letter.topic";
    public static final String PARTITION = "caplab.dead-letter.partition";
    public static final String OFFSET = "caplab.dead-letter.offset";

    private DeadLetterHeaders() {
    }
}
