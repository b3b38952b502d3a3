package dev.caplab.app.web;

import dev.caplab.schema.health.RoleStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A role running in another process, seen through its consumer group: lag (log end minus committed offset, over
 * the topics it reads) and whether its committed offsets still move. Down when it has lag but committed nothing
 * new for {@link #STALL}: that role has stopped processing (or is too slow to keep up), which the serving process
 * cannot tell apart.
 */
final class GroupLagProbe {

    static final Duration STALL = Duration.ofMinutes(2);
    private final String role;
    private final String groupId;
    private final List<String> topics;
    private final Admin admin;
    private final Clock clock;
    private long lastCommitted = -1;
    private long lastMovedMillis;

    GroupLagProbe(String role, String groupId, List<String> topics, Admin admin, Clock clock) {
        this.role = role;
        this.groupId = groupId;
        this.topics = List.copyOf(topics);
        this.admin = admin;
        this.clock = clock;
        this.lastMovedMillis = clock.millis();
    }

    synchronized RoleStatus check() {
        try {
            long timeout = BrokerProbe.TIMEOUT.toMillis();
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata().get(timeout, TimeUnit.MILLISECONDS);
            Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
            committed.keySet().stream().filter(tp -> topics.contains(tp.topic()))
                    .forEach(tp -> ends.put(tp, OffsetSpec.latest()));
            if (ends.isEmpty()) {
                return new RoleStatus(role, true, "group " + groupId + " has committed nothing yet");
            }
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end = admin.listOffsets(ends).all()
                    .get(timeout, TimeUnit.MILLISECONDS);
            long lag = 0;
            long sum = 0;
            for (TopicPartition tp : ends.keySet()) {
                long c = committed.get(tp).offset();
                sum += c;
                lag += Math.max(0, end.get(tp).offset() - c);
            }
            long now = clock.millis();
            if (sum != lastCommitted || lag == 0) {
                lastCommitted = sum;
                lastMovedMillis = now;
            }
            boolean stalled = lag > 0 && now - lastMovedMillis >= STALL.toMillis();
            return new RoleStatus(role, !stalled, "group " + groupId + " lag " + lag + " records"
                    + (stalled ? ", no commit for " + Duration.ofMillis(now - lastMovedMillis).toSeconds() + " s" : "")
                    + " (another process: seen through its consumer group)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new RoleStatus(role, false, "interrupted");
        } catch (Exception e) {
            return new RoleStatus(role, false, "group " + groupId + " unreadable: " + e);
        }
    }
}
