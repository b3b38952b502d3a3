package dev.caplab.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.schema.topic.TopicSpec;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Group commit on a real broker. Transactions are counted independently of the code under test: each committed
 * (or aborted) transaction leaves one control record (its marker) on every partition it wrote, so on a one-partition
 * topic the markers are the log end offset minus the data records read back. To make requests overlap for certain,
 * the first transaction's commit is held until the others are queued (a gate in front of the real producer).
 */
class GroupCommitIT {

    /** A topic with the broker's defaults (message.max.bytes 1 MiB), one partition so markers can be counted. */
    private static EmbeddedKafkaBroker broker;
    /** A wait for announced requests far longer than any commit here, so waiting and not waiting differ plainly. */
    private static final Duration LONG_WAIT = Duration.ofSeconds(30);
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeAll
    static void startBroker() throws Exception {
        broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(Files.createTempDirectory("caplab-group-it"), 0));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @AfterEach
    void stop() throws Exception {
        pool.shutdownNow();
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
    }

    @Test
    void requestsArrivingDuringATransactionShareTheNextOne() throws Exception {
        String topic = freshTopic();
        Gate gate = new Gate();
        GroupCommit groups = groupCommit(gate);
        int requests = 8;

        Future<?> first = pool.submit(() -> groups.publish(request(topic, "run-0", 3), "request 0"));
        gate.awaitHeld();
        List<Future<?>> others = new ArrayList<>();
        for (int r = 1; r < requests; r++) {
            String run = "run-" + r;
            others.add(pool.submit(() -> groups.publish(request(topic, run, 3), run)));
        }
        await(() -> groups.queuedRequests() == requests - 1);
        gate.open();
        first.get(30, TimeUnit.SECONDS);
        for (Future<?> other : others) {
            other.get(30, TimeUnit.SECONDS);
        }

        Log log = Log.of(topic);
        assertThat(log.committedRecords()).isEqualTo(requests * 3);
        // one transaction for the first request, one for the seven queued behind it; one each before group commit
        assertThat(log.markers()).isEqualTo(2);
    }

    @Test
    void withTwoInFlightASecondRequestCommitsWhileTheFirstIsStillCommitting() throws Exception {
        String topic = freshTopic();
        Gate gate = new Gate();
        GroupCommit groups = groupCommit(gate, Duration.ZERO, 2);

        Future<?> first = pool.submit(() -> groups.publish(request(topic, "run-first", 3), "first"));
        gate.awaitHeld();
        // ingest's default: the second of two clients does not queue behind the first's commit (with one in flight
        // it would wait for the gate, and this get would time out)
        pool.submit(() -> groups.publish(request(topic, "run-second", 3), "second")).get(20, TimeUnit.SECONDS);
        assertThat(first).isNotDone();
        gate.open();
        first.get(30, TimeUnit.SECONDS);

        Log log = Log.of(topic);
        assertThat(log.committedRecords()).isEqualTo(6);
        assertThat(log.markers()).isEqualTo(2);
    }

    @Test
    void aFailedGroupAnswersEveryMemberAndLeavesNothingOfItVisible() throws Exception {
        String topic = freshTopic();
        Gate gate = new Gate();
        GroupCommit groups = groupCommit(gate);

        Future<?> first = pool.submit(() -> groups.publish(request(topic, "run-first", 2), "first"));
        gate.awaitHeld();
        Future<?> good = pool.submit(() -> groups.publish(request(topic, "run-good", 2), "good"));
        await(() -> groups.queuedRequests() == 1);
        // above the broker's 1 MiB record limit, so the broker refuses it and the group's transaction aborts
        byte[] incompressible = new byte[1_600_000];
        new Random(13).nextBytes(incompressible);
        Future<?> refused = pool.submit(() -> groups.publish(
                List.of(new ProducerRecord<>(topic, "run-refused", incompressible)), "refused"));
        await(() -> groups.queuedRequests() == 2);
        gate.open();

        first.get(30, TimeUnit.SECONDS);
        for (Future<?> member : List.of(good, refused)) {
            assertThatThrownBy(() -> member.get(60, TimeUnit.SECONDS)).hasCauseInstanceOf(
                    PublishFailedException.class);
        }
        assertThatThrownBy(good::get).hasRootCauseInstanceOf(RecordTooLargeException.class)
                .hasMessageContaining("good (in a group of 2 requests)");
        assertThat(CommittedRecords.of(broker.bootstrapServers(), topic, "run-good")).isEmpty();
        assertThat(CommittedRecords.of(broker.bootstrapServers(), topic, "run-refused")).isEmpty();
        assertThat(CommittedRecords.of(broker.bootstrapServers(), topic, "run-first")).hasSize(2);

        // the publisher recovers: the next request commits alone
        groups.publish(request(topic, "run-after", 2), "after");
        assertThat(CommittedRecords.of(broker.bootstrapServers(), topic, "run-after")).hasSize(2);
    }

    @Test
    void aLoneRequestCommitsAtOnceOnItsCallersThread() throws Exception {
        String topic = freshTopic();
        Gate gate = new Gate();
        gate.open();
        // a wait for announced requests far longer than a commit: nothing is announced, so nothing waits for it
        GroupCommit groups = groupCommit(gate, LONG_WAIT);

        for (int r = 0; r < 3; r++) {
            long started = System.nanoTime();
            groups.publish(request(topic, "run-" + r, 2), "lone " + r);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(LONG_WAIT.dividedBy(3));
            // no hand-off to another thread and no timer: the caller ran its own transaction
            assertThat(gate.lastCommitter()).isSameAs(Thread.currentThread());
            assertThat(CommittedRecords.of(broker.bootstrapServers(), topic, "run-" + r)).hasSize(2);
        }
        assertThat(Log.of(topic).markers()).isEqualTo(3);
    }

    @Test
    void aGroupWaitsForAnAnnouncedRequestAndSharesItsTransaction() throws Exception {
        String topic = freshTopic();
        Gate gate = new Gate();
        gate.open();
        GroupCommit groups = groupCommit(gate, LONG_WAIT);
        CountDownLatch announced = new CountDownLatch(1);
        CountDownLatch publishB = new CountDownLatch(1);
        Future<?> b = pool.submit(() -> {
            try (GroupCommit.Arrival arrival = groups.arriving()) {
                announced.countDown();
                publishB.await();
                groups.publish(request(topic, "run-b", 2), "b");
            }
            return null;
        });
        announced.await();
        Future<?> a = pool.submit(() -> groups.publish(request(topic, "run-a", 2), "a"));
        await(() -> groups.queuedRequests() == 1); // a is queued; only then may b publish
        assertThat(a.isDone()).isFalse();
        publishB.countDown();
        a.get(30, TimeUnit.SECONDS);
        b.get(30, TimeUnit.SECONDS);

        Log log = Log.of(topic);
        assertThat(log.committedRecords()).isEqualTo(4);
        assertThat(log.markers()).isEqualTo(1);
    }

    @Test
    void anAnnouncedRequestThatLeavesWithoutPublishingReleasesTheGroup() throws Exception {
        String topic = freshTopic();
        Gate gate = new Gate();
        gate.open();
        GroupCommit groups = groupCommit(gate, LONG_WAIT);
        GroupCommit.Arrival refusedAtTheDoor = groups.arriving();
        Future<?> a = pool.submit(() -> groups.publish(request(topic, "run-a", 2), "a"));
        await(() -> groups.queuedRequests() == 1);
        // c queues behind a; both still queued means a's group is holding for the announced request, not committing
        Future<?> c = pool.submit(() -> groups.publish(request(topic, "run-c", 2), "c"));
        await(() -> groups.queuedRequests() == 2);
        assertThat(a.isDone()).isFalse();
        long closed = System.nanoTime();
        refusedAtTheDoor.close();
        a.get(30, TimeUnit.SECONDS);
        c.get(30, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - closed)).isLessThan(LONG_WAIT.dividedBy(3));
        assertThat(Log.of(topic).markers()).as("a waited and took c into its transaction").isEqualTo(1);
        assertThat(Log.of(topic).committedRecords()).isEqualTo(4);
    }

    private GroupCommit groupCommit(Gate gate) {
        return groupCommit(gate, Duration.ZERO);
    }

    private GroupCommit groupCommit(Gate gate, Duration maxWait) {
        return groupCommit(gate, maxWait, 1);
    }

    private GroupCommit groupCommit(Gate gate, Duration maxWait, int inFlight) {
        ProducerSettings settings = new ProducerSettings(broker.bootstrapServers(), "group-it-" + UUID.randomUUID());
        TransactionalPublisher publisher = new TransactionalPublisher(n -> gate.wrap(new KafkaProducer<>(
                TransactionalPublisher.transactionalProperties(settings, Duration.ofSeconds(30), n),
                new StringSerializer(), new ByteArraySerializer())), inFlight, Duration.ofSeconds(30));
        closeables.add(publisher);
        return new GroupCommit(publisher, inFlight, GroupCommit.MAX_GROUP_BYTES, Duration.ofSeconds(30), maxWait);
    }

    private static String freshTopic() throws Exception {
        String topic = "caplab.group-it-" + UUID.randomUUID();
        broker.createTopics(List.of(new TopicSpec(topic, 1, Map.of(), "group commit IT")));
        return topic;
    }

    private static List<ProducerRecord<String, byte[]>> request(String topic, String run, int records) {
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            out.add(new ProducerRecord<>(topic, run, (run + "/" + i).getBytes()));
        }
        return out;
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 20 s");
            }
            Thread.sleep(5);
        }
    }

    /** Holds the first commitTransaction until opened, and remembers which thread last committed. */
    private static final class Gate {
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch open = new CountDownLatch(1);
        private final AtomicInteger commits = new AtomicInteger();
        private volatile Thread lastCommitter;

        @SuppressWarnings("unchecked")
        Producer<String, byte[]> wrap(Producer<String, byte[]> real) {
            return (Producer<String, byte[]>) Proxy.newProxyInstance(Producer.class.getClassLoader(),
                    new Class<?>[] {Producer.class}, (proxy, method, args) -> {
                        if (method.getName().equals("commitTransaction")) {
                            lastCommitter = Thread.currentThread();
                            if (commits.getAndIncrement() == 0) {
                                held.countDown();
                                if (!open.await(30, TimeUnit.SECONDS)) {
                                    throw new AssertionError("gate never opened");
                                }
                            }
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        void awaitHeld() throws InterruptedException {
            if (!held.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the first transaction never reached its commit");
            }
        }

        void open() {
            open.countDown();
        }

        Thread lastCommitter() {
            return lastCommitter;
        }
    }

    /**
     * The one partition's data records visible to read_committed and its markers (end offset minus records), read
     * once the commit markers are all written.
     */
    private record Log(long committedRecords, long markers) {

        static Log of(String topic) {
            TopicPartition partition = new TopicPartition(topic, 0);
            long records = 0;
            long end;
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(),
                    new ByteArrayDeserializer())) {
                consumer.assign(List.of(partition));
                consumer.seekToBeginning(List.of(partition));
                end = CommittedRecords.settledEnd(broker.bootstrapServers(), consumer, List.of(partition))
                        .get(partition);
                long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (consumer.position(partition) < end) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("could not read " + topic + " to " + end + " within 20 s");
                    }
                    records += consumer.poll(Duration.ofMillis(200)).count();
                }
            }
            return new Log(records, end - records);
        }
    }
}
