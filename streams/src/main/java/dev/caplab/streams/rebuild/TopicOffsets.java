package dev.caplab.streams.rebuild;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/** End offsets of whole topics, every partition: where a replay stops, or where a reader of only new output starts. */
public final class TopicOffsets {

    private TopicOffsets() {
    }

    public static Map<TopicPartition, Long> latest(Admin client, List<String> topics) throws InterruptedException {
        try {
            Map<TopicPartition, OffsetSpec> request = client.describeTopics(topics).allTopicNames().get().values()
                    .stream().flatMap(d -> d.partitions().stream().map(p -> new TopicPartition(d.name(),
                            p.partition()))).collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
            return client.listOffsets(request).all().get().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read end offsets of " + topics + ": " + e.getCause(), e.getCause());
        }
    }
}
