package dev.caplab.sink;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * The offset range of a batch about to be written, committed (as offset metadata, at the batch's first offset)
 * before the write. After a crash between write and final commit, the restarted sink re-forms exactly this batch,
 * so its deterministic {@code insert_deduplication_token} matches and ClickHouse drops the repeat.
 *
 * <p>Batches never cross a multiple of the sink's range size, so every consumer group cuts a partition at the same
 * places. A batch that ends its aligned range ({@code closesRange}) takes the range's token, whatever part of the
 * range it holds: a live sink that wrote the start of the range early (caught up, an open range) and the rest later
 * and a replay that writes the whole range at once present the same token for the closing insert, and the replay's is
 * dropped. An open batch takes its own first-last token.
 *
 * @param rangeStart first offset of the aligned range the batch lies in
 * @param rangeEnd   first offset after that range
 */
public record BatchIntent(String topic, int partition, long firstOffset, long lastOffset, long rangeStart,
                          long rangeEnd, boolean closesRange) {

    private static final String PREFIX = "caplab-sink-intent:";
    private static final Pattern METADATA = Pattern.compile("(\\d+)-(\\d+)(?:;range=(\\d+)-(\\d+)(;closes)?)?");

    public BatchIntent {
        if (firstOffset < 0 || lastOffset < firstOffset) {
            throw new IllegalArgumentException("batch of " + topic + "-" + partition + ": bad range " + firstOffset
                    + ".." + lastOffset);
        }
        if (firstOffset < rangeStart || lastOffset >= rangeEnd) {
            throw new IllegalArgumentException("batch of " + topic + "-" + partition + " " + firstOffset + ".."
                    + lastOffset + " crosses its aligned range " + rangeStart + ".." + (rangeEnd - 1));
        }
    }

    /** An open batch: part of an aligned range whose end the consumer has not reached yet. */
    public static BatchIntent open(String topic, int partition, long firstOffset, long lastOffset, long rangeStart,
            long rangeEnd) {
        return new BatchIntent(topic, partition, firstOffset, lastOffset, rangeStart, rangeEnd, false);
    }

    /** The dedup token of this batch in {@code table}: topic, partition and offset range, nothing else. */
    public String token(String table) {
        return closesRange
                ? topic + "-" + partition + "-range-" + rangeStart + "-" + (rangeEnd - 1) + ":" + table
                : topic + "-" + partition + "-" + firstOffset + "-" + lastOffset + ":" + table;
    }

    public OffsetAndMetadata asCommit() {
        return new OffsetAndMetadata(firstOffset, PREFIX + firstOffset + "-" + lastOffset + ";range=" + rangeStart
                + "-" + rangeEnd + (closesRange ? ";closes" : ""));
    }

    /**
     * The intent recorded in a committed offset, if the previous owner crashed mid-batch. An intent without a range
     * (written before batches were aligned) comes back as an open batch, so its token is the one it was written with.
     */
    public static Optional<BatchIntent> from(String topic, int partition, OffsetAndMetadata committed) {
        if (committed == null || committed.metadata() == null || !committed.metadata().startsWith(PREFIX)) {
            return Optional.empty();
        }
        String text = committed.metadata().substring(PREFIX.length());
        Matcher m = METADATA.matcher(text);
        if (!m.matches()) {
            throw new IllegalStateException("unreadable sink intent '" + text + "' committed on " + topic + "-"
                    + partition + " at offset " + committed.offset());
        }
        long first = Long.parseLong(m.group(1));
        long last = Long.parseLong(m.group(2));
        return Optional.of(m.group(3) == null ? open(topic, partition, first, last, first, last + 1)
                : new BatchIntent(topic, partition, first, last, Long.parseLong(m.group(3)),
                        Long.parseLong(m.group(4)), m.group(5) != null));
    }
}
