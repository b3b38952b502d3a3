package dev.caplab.broker;

import dev.caplab.schema.topic.TopicCatalog;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * What each of caplab's roles may do on Kafka, as ACLs for Kafka's standard authorizer: the one place that says
 * which role reads and writes which topic, group and transactional id. Nothing here grants deleting or altering a
 * catalog topic, creating topics beyond a Streams application's own, or any cluster operation: those stay with the
 * broker (super user) or an operator.
 *
 * <p>Raw topics ({@link TopicCatalog#RUNS}, {@link TopicCatalog#SAMPLES}) are written by ingest and the tools;
 * derived ones only by Streams. {@code WRITE} and {@code READ} imply {@code DESCRIBE} in Kafka; an idempotent producer
 * needs no cluster ACL once it may write a topic.
 */
public final class CaplabAcls {

    /** Everything Kafka Streams writes: derived records, alerts and what it could not decode. */
    public static final List<String> DERIVED_TOPICS = List.of(TopicCatalog.STEP_AGGREGATES, TopicCatalog.VERDICTS,
            TopicCatalog.FITS, TopicCatalog.LATENESS, TopicCatalog.CONCLUSIONS, TopicCatalog.ALERTS,
            TopicCatalog.DEAD_LETTER);
    /** What ingest and the tools write. */
    public static final List<String> RAW_TOPICS = List.of(TopicCatalog.RUNS, TopicCatalog.SAMPLES);

    private CaplabAcls() {
    }

    /** The principal of a SASL/PLAIN (or SCRAM) user. */
    public static String principal(String user) {
        return "User:" + user;
    }

    /**
     * HTTP ingest: writes raw topics in transactions whose ids start with {@code transactionalIdPrefix}, and reads
     * the lifecycle topic without a group (its run directory: writes after a run's idle end start a new run).
     */
    public static List<AclBinding> ingest(String user, String transactionalIdPrefix) {
        List<AclBinding> acls = new ArrayList<>();
        RAW_TOPICS.forEach(t -> acls.add(topic(user, t, AclOperation.WRITE)));
        acls.add(topic(user, TopicCatalog.RUNS, AclOperation.READ));
        acls.add(allow(user, ResourceType.TRANSACTIONAL_ID, transactionalIdPrefix, PatternType.PREFIXED,
                AclOperation.WRITE));
        return acls;
    }

    /**
     * A Kafka Streams application whose id starts with {@code applicationIdPrefix} (its group, its
     * {@code exactly_once_v2} transactional ids and its changelog and repartition topics all start with the id):
     * reads the raw topics, writes lifecycle events it infers and every derived topic, and owns its internal topics.
     */
    public static List<AclBinding> streams(String user, String applicationIdPrefix) {
        List<AclBinding> acls = new ArrayList<>();
        RAW_TOPICS.forEach(t -> acls.add(topic(user, t, AclOperation.READ)));
        acls.add(topic(user, TopicCatalog.RUNS, AclOperation.WRITE));
        DERIVED_TOPICS.forEach(t -> acls.add(topic(user, t, AclOperation.WRITE)));
        acls.add(allow(user, ResourceType.GROUP, applicationIdPrefix, PatternType.PREFIXED, AclOperation.READ));
        acls.add(allow(user, ResourceType.TRANSACTIONAL_ID, applicationIdPrefix, PatternType.PREFIXED,
                AclOperation.WRITE));
        acls.add(allow(user, ResourceType.TOPIC, applicationIdPrefix, PatternType.PREFIXED, AclOperation.ALL));
        return acls;
    }

    /** The ClickHouse sink: reads {@code topics} in consumer group {@code group}, dead-letters what it refuses. */
    public static List<AclBinding> sink(String user, String group, List<String> topics) {
        List<AclBinding> acls = new ArrayList<>();
        topics.forEach(t -> acls.add(topic(user, t, AclOperation.READ)));
        acls.add(allow(user, ResourceType.GROUP, group, PatternType.LITERAL, AclOperation.READ));
        acls.add(topic(user, TopicCatalog.DEAD_LETTER, AclOperation.WRITE));
        return acls;
    }

    /**
     * The command-line tools given a write token ({@code caplab ingest}, {@code sample}, {@code run},
     * {@code stepper}): write raw topics (idempotent, not transactional) and read run conclusions without a group.
     */
    public static List<AclBinding> tools(String user) {
        List<AclBinding> acls = new ArrayList<>();
        RAW_TOPICS.forEach(t -> acls.add(topic(user, t, AclOperation.WRITE)));
        acls.add(topic(user, TopicCatalog.CONCLUSIONS, AclOperation.READ));
        return acls;
    }

    /**
     * The health probe of a {@code caplab serve} watching Streams and the sink in other processes: their groups'
     * committed offsets and the topics' end offsets.
     */
    public static List<AclBinding> groupLagProbe(String user, List<String> groups, List<String> topics) {
        List<AclBinding> acls = new ArrayList<>();
        groups.forEach(g -> acls.add(allow(user, ResourceType.GROUP, g, PatternType.LITERAL, AclOperation.DESCRIBE)));
        topics.forEach(t -> acls.add(topic(user, t, AclOperation.DESCRIBE)));
        return acls;
    }

    private static AclBinding topic(String user, String topic, AclOperation operation) {
        return allow(user, ResourceType.TOPIC, topic, PatternType.LITERAL, operation);
    }

    private static AclBinding allow(String user, ResourceType type, String name, PatternType pattern,
            AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal(user), "*", operation, AclPermissionType.ALLOW));
    }
}
