package dev.caplab.broker;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * One KRaft node in this JVM, broker and controller combined: its configuration, its formatted log directory, and
 * start and stop. One node is the embedded broker; several with the same cluster id and voters form a test cluster.
 */
public final class KraftNode implements AutoCloseable {

    private static final String CONTROLLER_LISTENER = "CONTROLLER";

    /**
     * Where a node listens and what it belongs to: {@code voters} is the static controller quorum
     * ({@code 1@host:port,2@host:port,...}), the same string on every node of a cluster.
     */
    public record Spec(int nodeId, String host, int port, int controllerPort, String voters, Path logDir,
                       Replication replication) {

        public Spec {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(voters, "voters");
            Objects.requireNonNull(replication, "replication");
            logDir = logDir.toAbsolutePath();
        }

        /** host:port of the client listener. */
        public String bootstrapServers() {
            return host + ":" + port;
        }
    }

    /** One entry of a voters string. */
    public static String voter(int nodeId, String host, int controllerPort) {
        return nodeId + "@" + host + ":" + controllerPort;
    }

    private final Spec spec;
    private final Properties overrides;
    private KafkaRaftServer server;

    private KraftNode(Spec spec, Properties overrides) {
        this.spec = spec;
        this.overrides = overrides;
    }

    /**
     * Formats the log directory with {@code clusterId} unless an earlier start did (its id and data are kept), then
     * starts the node; returns once its broker is up, which needs a quorum of the voters running.
     * {@code overrides} are broker properties applied last (a test cluster's timeouts).
     */
    public static KraftNode start(Spec spec, String clusterId, Properties overrides) {
        KraftNode node = new KraftNode(spec, overrides);
        format(spec, clusterId);
        node.startServer();
        return node;
    }

    public Spec spec() {
        return spec;
    }

    /** True between a start and the next {@link #close()}. */
    public synchronized boolean running() {
        return server != null;
    }

    /** Starts the node again on the same ports and log directory after {@link #close()}. */
    public void restart() {
        if (running()) {
            throw new IllegalStateException("Kafka node " + spec.nodeId() + " is already running");
        }
        startServer();
    }

    /** Stops the node and waits until its log is closed; a stopped node is left alone. */
    @Override
    public void close() {
        KafkaRaftServer stopping;
        synchronized (this) {
            stopping = server;
            server = null;
        }
        if (stopping != null) {
            stopping.shutdown();
            stopping.awaitShutdown();
        }
    }

    private void startServer() {
        Properties props = properties(spec);
        props.putAll(overrides);
        KafkaRaftServer started = new KafkaRaftServer(new KafkaConfig(props), Time.SYSTEM);
        started.startup();
        synchronized (this) {
            server = started;
        }
    }

    private static Properties properties(Spec s) {
        String rf = String.valueOf(s.replication().factor());
        String minIsr = String.valueOf(s.replication().minInSyncReplicas());
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(s.nodeId()));
        p.put("controller.quorum.voters", s.voters());
        p.put("listeners", "PLAINTEXT://" + s.host() + ":" + s.port() + "," + CONTROLLER_LISTENER + "://" + s.host()
                + ":" + s.controllerPort());
        p.put("advertised.listeners", "PLAINTEXT://" + s.bootstrapServers());
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", s.logDir().toString());
        p.put("metadata.log.dir", s.logDir().toString());
        // Internal topics and topics created without a factor (Streams' changelogs) follow the cluster's replication.
        p.put("offsets.topic.replication.factor", rf);
        p.put("offsets.topic.num.partitions", "6");
        p.put("transaction.state.log.replication.factor", rf);
        p.put("transaction.state.log.min.isr", minIsr);
        p.put("transaction.state.log.num.partitions", "6");
        p.put("share.coordinator.state.topic.replication.factor", rf);
        p.put("share.coordinator.state.topic.min.isr", minIsr);
        p.put("default.replication.factor", rf);
        p.put("min.insync.replicas", minIsr);
        p.put("group.initial.rebalance.delay.ms", "0");
        // The active controller appends a no-op record to the metadata log when it has written nothing for this long
        // (default 500 ms), so that the log's high watermark keeps moving: each one is an append, a flush and a pass
        // of every metadata listener, twice a second on an idle broker. It lets brokers tell a stalled controller
        // from an idle one (KIP-835); the combined node is its own controller.
        p.put("metadata.max.idle.interval.ms", "5000");
        // Topics come from the catalog (or Kafka Streams' admin calls), never from a typo in a producer.
        p.put("auto.create.topics.enable", "false");
        return p;
    }

    private static void format(Spec s, String clusterId) {
        Path logDir = s.logDir();
        if (Files.exists(logDir.resolve("meta.properties"))) {
            return; // formatted by an earlier start: keep its cluster id and data
        }
        try {
            Files.createDirectories(logDir);
            new Formatter()
                    .setClusterId(clusterId)
                    .setNodeId(s.nodeId())
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .setMetadataLogDirectory(logDir.toString())
                    .setDirectories(List.of(logDir.toString()))
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .run();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create Kafka log dir " + logDir, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot format Kafka log dir " + logDir + " of node " + s.nodeId()
                    + " (controller " + s.host() + ":" + s.controllerPort() + ")", e);
        }
    }
}
