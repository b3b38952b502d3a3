package dev.caplab.sink.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import dev.caplab.streams.it.PacedInput;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A trickle of raw sample records, each committed on its own while the sink is caught up, is stored in a few
 * inserts, not one per poll: an open batch of samples waits {@code samplesLinger} for more (every part chDB writes
 * it must later merge). Every sample still arrives.
 */
class SinkLingerIT {

    @RegisterExtension
    static final ItEnvironment ENV = new ItEnvironment();
    private static final String RUN = "linger-run";
    private static final Duration LINGER = Duration.ofSeconds(3);

    @Test
    void aTrickleOfSampleRecordsIsStoredInAFewInserts() throws Exception {
        List<SyntheticRun.Input> batches = SyntheticRun.inputs(RUN).stream().filter(in -> in.samples() != null)
                .limit(12).toList();
        long samples = batches.stream().mapToLong(in -> in.samples().size()).sum();
        SinkSettings settings = new SinkSettings(ENV.bootstrap(), "caplab-linger", List.of(TopicCatalog.SAMPLES),
                1000, Duration.ofMillis(200), KafkaClientSecurity.NONE, LINGER);
        try (KafkaProducer<String, byte[]> producer = producer();
                ClickHouseSink sink = ClickHouseSink.start(settings, ENV.db().dataSource())) {
            producer.initTransactions();
            long started = System.nanoTime();
            for (SyntheticRun.Input in : batches) {
                // one record per transaction, 100 ms apart: without a linger each poll finds the sink caught up
                producer.beginTransaction();
                producer.send(PacedInput.toRecord(RUN, in));
                producer.commitTransaction();
                Thread.sleep(100);
            }
            long tricklingMillis = (System.nanoTime() - started) / 1_000_000;
            ItEnvironment.await(Duration.ofSeconds(60), () -> ENV.scalar(
                    "SELECT count() FROM samples WHERE run_id = '" + RUN + "'") == samples,
                    () -> "; sink failure " + sink.failure());
            // 12 records over ~1.2 s (longer on a loaded machine): a 3 s linger writes them in one insert, at most
            // one more per 3 s the trickle took; without the linger the sink writes about one per record.
            long allowed = 1 + tricklingMillis / LINGER.toMillis();
            assertThat(sink.batchesWritten()).as("inserts for %d records trickled over %d ms", batches.size(),
                    tricklingMillis).isLessThanOrEqualTo(allowed);
        }
    }

    private static KafkaProducer<String, byte[]> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, ENV.bootstrap());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "linger-it-input");
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
