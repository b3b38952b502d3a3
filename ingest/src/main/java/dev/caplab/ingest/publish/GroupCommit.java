package dev.caplab.ingest.publish;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Group commit: requests that arrive while a transaction is in flight join the next one, so N concurrent requests
 * cost the broker one transaction (its AddPartitionsToTxn, EndTxn, markers and three transaction-log writes) instead
 * of N. Each request stays all-or-nothing: its records are all in the group's one transaction, and a group that
 * fails fails every member with nothing of the group visible to read_committed consumers. A request's own bad input
 * cannot fail the others, because {@link RequestRecords} validated it and cut it below the record limit first.
 *
 * <p>No thread of its own: the first waiting request whose caller finds fewer than {@code maxInFlight} transactions
 * running commits everything queued at that moment, as databases' group commit does. Requests announced with
 * {@link #arriving()} (received, still being parsed) are waited for up to {@code maxWait} first: with few clients a
 * transaction rarely overlaps another request's publish (a 5,000-line body takes longer to parse than to commit),
 * so without the wait two clients almost never share one. An idle publisher (nothing else announced) commits a lone
 * request at once: no added latency.
 */
public final class GroupCommit {

    /** A group stops taking members past this many value bytes, so one transaction stays far from its timeout. */
    public static final long MAX_GROUP_BYTES = 64L * 1024 * 1024;

    private final TransactionalPublisher publisher;
    private final int maxInFlight;
    private final long maxGroupBytes;
    private final Duration queueTimeout;
    private final long maxWaitNanos;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a group finished, a request queued or an announced request left. */
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Member> queued = new ArrayDeque<>();
    private final ThreadLocal<Arrival> arrival = new ThreadLocal<>();
    private int inFlight;
    /** Requests announced by {@link #arriving()} that have neither queued nor left. */
    private int announced;

    /** One request's records, waiting for the outcome of the group it joins. */
    private static final class Member {
        final List<ProducerRecord<String, byte[]>> records;
        final String what;
        final long bytes;
        boolean done;
        RuntimeException failure;

        Member(List<ProducerRecord<String, byte[]>> records, String what) {
            this.records = records;
            this.what = what;
            long sum = 0;
            for (ProducerRecord<String, byte[]> record : records) {
                sum += record.value() == null ? 0 : record.value().length;
            }
            this.bytes = sum;
        }
    }

    /**
     * @param maxInFlight transactions committing at once; 1 groups every overlap, more trade broker work for less
     *     waiting at low concurrency. At most {@link TransactionalPublisher}'s pool size.
     * @param queueTimeout how long a request may wait for a group before it fails (nothing of it sent)
     * @param maxWait how long a group waits for announced requests before it commits without them
     */
    public GroupCommit(TransactionalPublisher publisher, int maxInFlight, long maxGroupBytes, Duration queueTimeout,
            Duration maxWait) {
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        if (maxInFlight < 1 || maxInFlight > publisher.poolSize()) {
            throw new IllegalArgumentException("maxInFlight must be within 1.." + publisher.poolSize() + ", was "
                    + maxInFlight);
        }
        if (maxGroupBytes < 1) {
            throw new IllegalArgumentException("maxGroupBytes must be >= 1, was " + maxGroupBytes);
        }
        this.maxInFlight = maxInFlight;
        this.maxGroupBytes = maxGroupBytes;
        this.queueTimeout = Objects.requireNonNull(queueTimeout, "queueTimeout");
        this.maxWaitNanos = maxWait.toNanos();
    }

    /**
     * Announces a request on this thread that will probably publish soon (a write received, its body being parsed),
     * so a group about to commit waits for it; close it when the request is answered. Its publish on this thread
     * ends the announcement.
     */
    public Arrival arriving() {
        lock.lock();
        try {
            announced++;
        } finally {
            lock.unlock();
        }
        Arrival a = new Arrival();
        arrival.set(a);
        return a;
    }

    /** A request announced by {@link #arriving()}; closing it withdraws the announcement if it never published. */
    public final class Arrival implements AutoCloseable {
        private boolean arrived;

        private Arrival() {
        }

        /** Called with the lock held. */
        private void arrive() {
            if (!arrived) {
                arrived = true;
                announced--;
            }
        }

        @Override
        public void close() {
            arrival.remove();
            lock.lock();
            try {
                arrive();
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Publishes {@code records} (one request's, described by {@code what}) in a transaction shared with the requests
     * queued beside it and returns once it committed; throws {@link PublishFailedException} naming this request
     * otherwise, with nothing of its group visible (except after an ambiguous commit timeout, as for one request).
     */
    public void publish(List<ProducerRecord<String, byte[]>> records, String what) {
        if (records.isEmpty()) {
            return;
        }
        Member me = new Member(records, what);
        long deadline = System.nanoTime() + queueTimeout.toNanos();
        Arrival announcedHere = arrival.get();
        lock.lock();
        try {
            queued.add(me);
            if (announcedHere != null) {
                announcedHere.arrive();
            }
            changed.signalAll();
            while (!me.done) {
                boolean waiting = queued.contains(me);
                if (waiting && inFlight < maxInFlight) {
                    commitNextGroup();
                } else if (waiting) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        queued.remove(me);
                        throw failure(me, "waited " + queueTimeout + " for a transaction",
                                new TimeoutException(inFlight + " transactions in flight for " + queueTimeout));
                    }
                    changed.awaitNanos(left);
                } else {
                    // taken into a group in flight: its outcome is bounded by the producer's own timeouts
                    changed.awaitUninterruptibly();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            queued.remove(me);
            throw failure(me, "interrupted while waiting for a transaction", e);
        } finally {
            lock.unlock();
        }
        if (me.failure != null) {
            throw me.failure;
        }
    }

    /** Requests waiting for a transaction (not yet in one): for tests that make requests overlap. */
    int queuedRequests() {
        lock.lock();
        try {
            return queued.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits (bounded) for the announced requests, then takes the queue's head group and commits it with the lock
     * released; called and returning with the lock held.
     */
    private void commitNextGroup() {
        inFlight++;
        long waitUntil = System.nanoTime() + maxWaitNanos;
        long left = maxWaitNanos;
        while (announced > 0 && queuedBytes() < maxGroupBytes && left > 0) {
            try {
                changed.awaitNanos(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break; // commit what is queued now
            }
            left = waitUntil - System.nanoTime();
        }
        List<Member> group = new ArrayList<>();
        long bytes = 0;
        while (!queued.isEmpty() && (group.isEmpty() || bytes + queued.peek().bytes <= maxGroupBytes)) {
            Member next = queued.poll();
            group.add(next);
            bytes += next.bytes;
        }
        RuntimeException failed = null;
        lock.unlock();
        try {
            publisher.publish(records(group), describe(group));
        } catch (RuntimeException e) {
            // whatever went wrong, no member may answer as committed
            failed = e;
        } finally {
            lock.lock();
            inFlight--;
            for (Member member : group) {
                member.done = true;
                if (failed != null) {
                    member.failure = group.size() == 1 && failed instanceof PublishFailedException ? failed
                            : failure(member, "in a group of " + group.size() + " requests", failed);
                }
            }
            changed.signalAll();
        }
    }

    private long queuedBytes() {
        long bytes = 0;
        for (Member member : queued) {
            bytes += member.bytes;
        }
        return bytes;
    }

    private static List<ProducerRecord<String, byte[]>> records(List<Member> group) {
        if (group.size() == 1) {
            return group.getFirst().records;
        }
        List<ProducerRecord<String, byte[]>> all = new ArrayList<>();
        for (Member member : group) {
            all.addAll(member.records);
        }
        return all;
    }

    private static String describe(List<Member> group) {
        return group.size() == 1 ? group.getFirst().what
                : group.size() + " requests (" + group.getFirst().what + ", ...)";
    }

    private static PublishFailedException failure(Member member, String context, Throwable cause) {
        ProducerRecord<String, byte[]> first = member.records.getFirst();
        return new PublishFailedException(first.key(), first.topic(), member.what + " (" + context + ")", cause);
    }
}
