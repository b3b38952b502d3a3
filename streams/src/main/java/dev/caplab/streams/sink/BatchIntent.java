package dev.caplab.streams.sink;

import java.util.Optional;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * The offset range of a batch about to be written, committed (as offset metadata, at the batch's first offset)
 * before the write. After a crash between write and final commit, the restarted sink re-forms exactly this batch,
 * so its deterministic {@code insert_deduplication_token} matches and ClickHouse drops the repeat.
 */
public record BatchIntent(String topic, int partition, long firstOffset, long lastOffset) {

    private static final String PREFIX = "caplab-sink-intent:";

    public BatchIntent {
        if (firstOffset < 0 || lastOffset < firstOffset) {
            throw new IllegalArgumentException("batch of " + topic + "-" + partition + ": bad range " + firstOffset
                    + ".." + lastOffset);
        }
    }

    /** The dedup token of this batch in {@code table}: topic, partition and offset range, nothing else. */
    public String token(String table) {
        return topic + "-" + partition + "-" + firstOffset + "-" + lastOffset + ":" + table;
    }

    public OffsetAndMetadata asCommit() {
        return new OffsetAndMetadata(firstOffset, PREFIX + firstOffset + "-" + lastOffset);
    }

    /** The intent recorded in a committed offset, if the previous owner crashed mid-batch. */
    public static Optional<BatchIntent> from(String topic, int partition, OffsetAndMetadata committed) {
        if (committed == null || committed.metadata() == null || !committed.metadata().startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] range = committed.metadata().substring(PREFIX.length()).split("-");
        return Optional.of(new BatchIntent(topic, partition, Long.parseLong(range[0]), Long.parseLong(range[1])));
    }
}
