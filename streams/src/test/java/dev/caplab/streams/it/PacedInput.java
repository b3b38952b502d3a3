package dev.caplab.streams.it;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.streams.Events;
import dev.caplab.streams.SyntheticRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The fault tests' input: one stepped {@link SyntheticRun} per run id, interleaved so every round holds the next
 * input of each run, sent one round per transaction (as ingest does) at a steady pace, on a producer thread of its
 * own; once, half-way, a transaction with probe samples inside a step is aborted, so whatever reads without
 * read_committed would store or aggregate them.
 */
public final class PacedInput {

    /** The metric of the aborted samples: no table and no aggregate may ever hold it. */
    public static final String PROBE_METRIC = "aborted.probe";

    /** One input record of one run, in the order the test sends them. */
    public record Record(String runId, SyntheticRun.Input input) {
    }

    private final List<String> runs;
    private final Duration pacePerRound;
    private final List<Record> records;
    private final AtomicInteger produced = new AtomicInteger();
    private final CountDownLatch released = new CountDownLatch(1);
    private final int holdRound;
    private volatile Throwable failure;
    private Thread thread;

    /**
     * {@code holdRound}: the producer waits before that round until {@link #release()}, so a fault a test injects on
     * a condition (a verdict stored) still hits mid-run when a loaded machine makes the condition late; normally the
     * fault comes first and the producer never waits.
     */
    public PacedInput(List<String> runs, Duration pacePerRound, int holdRound) {
        this.runs = List.copyOf(runs);
        this.pacePerRound = pacePerRound;
        this.records = interleave(runs);
        this.holdRound = holdRound;
    }

    /** Records before the hold round: at most this many are sent before {@link #release()}. */
    public int recordsBeforeHold() {
        return Math.min(records.size(), holdRound * runs.size());
    }

    /** Lets the producer go past the hold round. */
    public void release() {
        released.countDown();
    }

    public List<Record> records() {
        return records;
    }

    /** Starts sending on a thread of its own with transactional id {@code transactionalId}. */
    public void start(String bootstrap, String transactionalId) {
        thread = Thread.ofPlatform().name(transactionalId + "-producer").start(() -> {
            try {
                produce(bootstrap, transactionalId);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                failure = e; // reported by progress(): the test fails with it instead of waiting for missing rows
            }
        });
    }

    /** Waits for the last transaction; fails naming how far it got. */
    public void awaitSent(Duration timeout) throws InterruptedException {
        if (!thread.join(timeout)) {
            throw new AssertionError("input not sent within " + timeout + ": " + progress());
        }
        if (failure != null) {
            throw new AssertionError("input producer failed: " + progress(), failure);
        }
    }

    /** Records committed so far. */
    public int produced() {
        return produced.get();
    }

    public boolean finished() {
        return produced.get() == records.size();
    }

    /** What was sent, for failure messages. */
    public String progress() {
        return "input sent " + produced.get() + " of " + records.size() + " records"
                + (failure == null ? "" : ", producer failed: " + failure);
    }

    /** Stops the producer thread early (cleanup after a failure). */
    public void stop() throws InterruptedException {
        release();
        if (thread != null) {
            thread.interrupt();
            thread.join(Duration.ofSeconds(30));
        }
    }

    private void produce(String bootstrap, String transactionalId) throws InterruptedException {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
            boolean aborted = false;
            for (int i = 0; i < records.size(); i += runs.size()) {
                if (i == recordsBeforeHold()) {
                    released.await();
                }
                if (!aborted && i >= records.size() / 2) {
                    aborted = true;
                    producer.beginTransaction();
                    producer.send(samples(runs.getFirst(), List.of(Events.gauge("host", PROBE_METRIC, 100, 1e6))));
                    producer.flush();
                    producer.abortTransaction();
                }
                List<Record> round = records.subList(i, Math.min(records.size(), i + runs.size()));
                producer.beginTransaction();
                for (Record r : round) {
                    producer.send(toRecord(r.runId(), r.input()));
                }
                producer.commitTransaction();
                produced.addAndGet(round.size());
                Thread.sleep(pacePerRound);
            }
        }
    }

    /** One input of a run as ingest publishes it: lifecycle to caplab.runs, samples to caplab.samples, keyed by run. */
    public static ProducerRecord<String, byte[]> toRecord(String runId, SyntheticRun.Input in) {
        return in.lifecycle() != null
                ? new ProducerRecord<>(TopicCatalog.RUNS, runId, EventSerdes.lifecycle().serialize(TopicCatalog.RUNS,
                        in.lifecycle()))
                : samples(runId, in.samples());
    }

    private static ProducerRecord<String, byte[]> samples(String runId, List<Sample> s) {
        return new ProducerRecord<>(TopicCatalog.SAMPLES, runId, EventSerdes.sampleBatch()
                .serialize(TopicCatalog.SAMPLES, Events.batch(runId, s)));
    }

    private static List<Record> interleave(List<String> runs) {
        List<List<SyntheticRun.Input>> perRun = runs.stream().map(SyntheticRun::inputs).toList();
        List<Record> out = new ArrayList<>();
        for (int i = 0; i < perRun.getFirst().size(); i++) {
            for (int r = 0; r < runs.size(); r++) {
                out.add(new Record(runs.get(r), perRun.get(r).get(i)));
            }
        }
        return out;
    }
}
