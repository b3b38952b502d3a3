package dev.caplab.schema.topic;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;

/** Header names on dead-letter records: why the record was rejected and where it came from. */
public final class DeadLetterHeaders {

    public static final String REASON = "caplab.dead-letter.reason";
    public static final String TOPIC = "caplab.dead-letter.topic";
    public static final String PARTITION = "caplab.dead-letter.partition";
    public static final String OFFSET = "caplab.dead-letter.offset";
    /** Which stage rejected it: decode, run processor, streams handler, sink. */
    public static final String STAGE = "caplab.dead-letter.stage";

    private DeadLetterHeaders() {
    }

    /** Adds the reason and origin to {@code headers}; returns them. */
    public static Headers add(Headers headers, String stage, String reason, String topic, int partition, long offset) {
        headers.add(REASON, utf8(reason));
        headers.add(STAGE, utf8(stage));
        headers.add(TOPIC, utf8(topic));
        headers.add(PARTITION, utf8(Integer.toString(partition)));
        headers.add(OFFSET, utf8(Long.toString(offset)));
        return headers;
    }

    private static byte[] utf8(String s) {
        return (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
    }
}
