package dev.caplab.app.cli;

import dev.caplab.broker.CaplabAcls;
import dev.caplab.ingest.http.IngestHttpConfiguration;
import dev.caplab.ingest.publish.TransactionalPublisher;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.streams.StreamsSettings;
import dev.caplab.streams.rebuild.Rebuild;
import dev.caplab.sink.SinkSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.acl.AclBinding;
import picocli.CommandLine.Option;

/**
 * {@code caplab migrate --grant-*}: the Kafka users of a distributed deployment, one per role, and the ACLs
 * ({@link CaplabAcls}) each needs with caplab's default application id, group and transactional ids. The users
 * themselves (SASL/SCRAM or PLAIN credentials) are the cluster operator's; this only grants.
 */
public final class KafkaGrants {

    @Option(names = "--grant-serve", paramLabel = "USER",
            description = "Kafka user of caplab serve: write raw topics in its ingest transactions, watch the streams "
                    + "and sink groups' lag.")
    String serve;

    @Option(names = "--grant-streams", paramLabel = "USER",
            description = "Kafka user of caplab streams (and caplab rebuild): read raw topics, write derived ones, own "
                    + "its group, transactional ids and internal topics.")
    String streams;

    @Option(names = "--grant-sink", paramLabel = "USER",
            description = "Kafka user of caplab sink: read the raw and derived topics in its group, dead-letter what "
                    + "it refuses.")
    String sink;

    @Option(names = "--grant-tools", paramLabel = "USER",
            description = "Kafka user of caplab ingest, sample, run and stepper: write raw topics, read conclusions.")
    String tools;

    /** The ACLs of every user named; empty when none is. */
    public List<AclBinding> acls() {
        List<AclBinding> acls = new ArrayList<>();
        if (serve != null) {
            acls.addAll(CaplabAcls.ingest(serve,
                    TransactionalPublisher.transactionalIdPrefix(IngestHttpConfiguration.PRODUCER_CLIENT_ID)));
            acls.addAll(CaplabAcls.groupLagProbe(serve, List.of(StreamsSettings.DEFAULT_APPLICATION_ID,
                    SinkSettings.DEFAULT_GROUP), Stream.concat(Stream.of(TopicCatalog.RUNS, TopicCatalog.SAMPLES),
                    SinkSettings.TOPICS.stream()).distinct().toList()));
        }
        if (streams != null) {
            acls.addAll(CaplabAcls.streams(streams, StreamsSettings.DEFAULT_APPLICATION_ID));
            acls.addAll(CaplabAcls.streams(streams, Rebuild.APPLICATION_ID_PREFIX));
        }
        if (sink != null) {
            acls.addAll(CaplabAcls.sink(sink, SinkSettings.DEFAULT_GROUP, SinkSettings.TOPICS));
        }
        if (tools != null) {
            acls.addAll(CaplabAcls.tools(tools));
        }
        return acls.stream().distinct().toList();
    }
}
