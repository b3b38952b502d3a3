package dev.caplab.broker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.Uuid;

/**
 * A Kafka cluster of several KRaft nodes in this JVM for fault tests: every node is broker and controller, the
 * controllers form a static quorum of all nodes, and replication is {@code nodes} copies with
 * {@code min.insync.replicas} one fewer (3 and 2), for catalog, internal and Streams topics alike. A node can be
 * killed and restarted on its ports and log directory; a kill skips the controlled shutdown, so the controller only
 * learns of it when the node's heartbeats stop, as after a crash.
 */
public final class EmbeddedKafkaCluster implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final String HOST = "127.0.0.1";
    private final Map<Integer, KraftNode> nodes;

    private EmbeddedKafkaCluster(Map<Integer, KraftNode> nodes) {
        this.nodes = nodes;
    }

    /** Formats {@code count} nodes under {@code dir/node-<id>} with one cluster id and starts them together. */
    public static EmbeddedKafkaCluster start(int count, Path dir) {
        String[] whats = IntStream.range(0, 2 * count).mapToObj(i -> "Kafka node " + (i / 2 + 1)
                + (i % 2 == 0 ? "" : " controller")).toArray(String[]::new);
        int[] ports = Ports.claim(HOST, whats, new int[2 * count]);
        Replication replication = new Replication((short) count);
        String voters = IntStream.rangeClosed(1, count).mapToObj(id -> KraftNode.voter(id, HOST, ports[2 * id - 1]))
                .collect(Collectors.joining(","));
        List<KraftNode.Spec> specs = IntStream.rangeClosed(1, count).mapToObj(id -> new KraftNode.Spec(id, HOST,
                ports[2 * id - 2], ports[2 * id - 1], voters, dir.resolve("node-" + id), replication)).toList();
        String clusterId = Uuid.randomUuid().toString();
        // A broker's start waits for a controller quorum, so the nodes can only come up together.
        List<CompletableFuture<KraftNode>> starting = specs.stream()
                .map(s -> CompletableFuture.supplyAsync(() -> KraftNode.start(s, clusterId, crashLikeStops()),
                        runnable -> Thread.ofPlatform().name("kafka-node-" + s.nodeId() + "-start").start(runnable)))
                .toList();
        Map<Integer, KraftNode> started = new LinkedHashMap<>();
        try {
            for (CompletableFuture<KraftNode> f : starting) {
                KraftNode node = f.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                started.put(node.spec().nodeId(), node);
            }
        } catch (ExecutionException | TimeoutException e) {
            starting.forEach(f -> f.thenAccept(KraftNode::close));
            throw new IllegalStateException("cluster of " + count + " Kafka nodes (voters " + voters
                    + ") did not start within " + START_TIMEOUT, e instanceof ExecutionException ? e.getCause() : e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting Kafka nodes " + voters, e);
        }
        return new EmbeddedKafkaCluster(started);
    }

    /** Every node's client listener, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return nodes.values().stream().map(n -> n.spec().bootstrapServers()).collect(Collectors.joining(","));
    }

    public Replication replication() {
        return nodes.values().iterator().next().spec().replication();
    }

    /** Stops node {@code nodeId} without a controlled shutdown: its leaderships stay with it until it is fenced. */
    public void kill(int nodeId) {
        node(nodeId).close();
    }

    /** Starts a killed node again on its ports and log directory; returns once its broker is up. */
    public void restart(int nodeId) {
        node(nodeId).restart();
    }

    public boolean running(int nodeId) {
        return node(nodeId).running();
    }

    /** Stops every running node, all at once: a node left alone without a quorum would wait for it. */
    @Override
    public void close() {
        parallel(KraftNode::close);
    }

    private KraftNode node(int nodeId) {
        KraftNode node = nodes.get(nodeId);
        if (node == null) {
            throw new IllegalArgumentException("no Kafka node " + nodeId + " in cluster of " + nodes.keySet());
        }
        return node;
    }

    private void parallel(Consumer<KraftNode> action) {
        CompletableFuture.allOf(nodes.values().stream()
                .map(n -> CompletableFuture.runAsync(() -> action.accept(n),
                        r -> Thread.ofPlatform().name("kafka-node-" + n.spec().nodeId() + "-stop").start(r)))
                .toArray(CompletableFuture[]::new)).join();
    }

    private static Properties crashLikeStops() {
        Properties p = new Properties();
        p.put("controlled.shutdown.enable", "false");
        return p;
    }
}
