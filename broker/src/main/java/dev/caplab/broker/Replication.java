package dev.caplab.broker;

/**
 * How many copies of every partition a cluster keeps and how many must hold a write before it is acknowledged: the
 * one rule for catalog topics, Streams' internal topics (through the broker defaults) and Kafka's own offsets and
 * transaction-state topics.
 */
public record Replication(short factor) {

    /** The single embedded broker: one copy, acknowledged by it alone. */
    public static final Replication SINGLE = new Replication((short) 1);

    public Replication {
        if (factor < 1) {
            throw new IllegalArgumentException("replication factor must be >= 1, was " + factor);
        }
    }

    /**
     * All replicas but one: with {@code acks=all} an acknowledged write lives on at least two disks once there are
     * three copies, and one node may be down without writes being refused (3 → 2, 2 → 1, 1 → 1).
     */
    public int minInSyncReplicas() {
        return Math.max(1, factor - 1);
    }
}
