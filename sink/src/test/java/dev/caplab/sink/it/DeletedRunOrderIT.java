package dev.caplab.sink.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.RunDeleted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.SampleRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.store.schema.Table;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.SyntheticRun;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A deleted run leaves no row, whichever reaches the sink first: its deletion or its rows. Two stepped runs go
 * through the production topology and a live sink, then one is deleted; the log is then copied by fresh sinks into two
 * fresh databases, one reading {@code caplab.runs} (the deletion) before every other topic, the other after them. In
 * the live store and in both copies the deleted run has no row in any table, and the other run has every row it was
 * sent: each sample and series, each step judged, one run and one conclusion.
 */
class DeletedRunOrderIT {

    private static final String KEPT = "it-kept";
    private static final String GONE = "it-gone";
    private static final Duration PATIENCE = Duration.ofSeconds(180);

    @RegisterExtension
    static final ItEnvironment ENV = new ItEnvironment();

    @Test
    void aDeletedRunLeavesNoRowWhicheverReachesTheSinkFirstItsDeletionOrItsRows() throws Exception {
        var samples = new SampleRepository(ENV.db().dataSource());
        var verdicts = new StepVerdictRepository(ENV.db().dataSource());
        var conclusions = new RunConclusionRepository(ENV.db().dataSource());
        try (StreamsRunner streams = StreamsRunner.start(PipelineIT.streamsSettings(ENV.bootstrap(),
                ENV.dir().resolve("state")));
                ClickHouseSink live = ClickHouseSink.start(SinkSettings.of(ENV.bootstrap()), ENV.db().dataSource())) {
            streams.awaitRunning(Duration.ofSeconds(60));
            PipelineIT.produce(ENV.bootstrap(), KEPT);
            PipelineIT.produce(ENV.bootstrap(), GONE);
            for (String run : List.of(KEPT, GONE)) {
                ItEnvironment.await(PATIENCE, () -> verdicts.ofRun(run).size() == SyntheticRun.STEPS
                        && conclusions.latest(run).isPresent()
                        && samples.countOfRun(run) == SyntheticRun.sampleCount(),
                        () -> " for " + run + ": " + verdicts.ofRun(run).size() + " verdicts, "
                                + samples.countOfRun(run) + " samples, sink failure " + live.failure());
            }
            streams.close();
            assertThat(rowsOf(ENV.db(), GONE)).as("stored before its deletion").containsEntry("samples",
                    (long) SyntheticRun.sampleCount());
            delete(GONE);
            ENV.awaitCommittedAll(SinkSettings.DEFAULT_GROUP, List.of(TopicCatalog.RUNS), PATIENCE);
            assertThat(live.failure()).isNull();
        }
        assertErased(ENV.db(), "live, deletion last");

        List<String> rest = SinkSettings.of(ENV.bootstrap()).topics().stream()
                .filter(t -> !t.equals(TopicCatalog.RUNS)).toList();
        TestDatabase deletionFirst = EmbeddedClickHouse.shared().freshDatabase("DeletedRunFirst");
        TestDatabase deletionLast = EmbeddedClickHouse.shared().freshDatabase("DeletedRunLast");
        try {
            copy(deletionFirst, "copy-first-runs", List.of(TopicCatalog.RUNS));
            copy(deletionFirst, "copy-first-rest", rest);
            assertErased(deletionFirst, "copy, deletion first");

            copy(deletionLast, "copy-last-rest", rest);
            assertThat(rowsOf(deletionLast, GONE)).as("copied before its deletion").containsEntry("samples",
                    (long) SyntheticRun.sampleCount());
            copy(deletionLast, "copy-last-runs", List.of(TopicCatalog.RUNS));
            assertErased(deletionLast, "copy, deletion last");
        } finally {
            EmbeddedClickHouse.shared().drop(deletionFirst);
            EmbeddedClickHouse.shared().drop(deletionLast);
        }
    }

    /** A sink of its own group copies every record of {@code topics} into {@code db}, then stops. */
    private static void copy(TestDatabase db, String group, List<String> topics) throws InterruptedException {
        try (ClickHouseSink sink = ClickHouseSink.start(new SinkSettings(ENV.bootstrap(), group, topics, 400,
                Duration.ofMillis(200)), db.dataSource())) {
            ENV.awaitCommittedAll(group, topics, PATIENCE);
            assertThat(sink.failure()).as(group).isNull();
        }
    }

    private static void delete(String runId) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, ENV.bootstrap());
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(TopicCatalog.RUNS, runId, EventSerdes.lifecycle().serialize(
                    TopicCatalog.RUNS, new RunDeleted(runId, Instant.now(), "stray"))));
            producer.flush();
        }
    }

    /**
     * No row of {@link #GONE} in any table but its deletion's record; {@link #KEPT} with each sample and series it
     * was sent, {@link SyntheticRun#STEPS} steps and verdicts, one run and one conclusion (latest versions).
     */
    private static void assertErased(TestDatabase db, String where) throws SQLException {
        assertThat(rowsOf(db, GONE)).as(where).allSatisfy((table, rows) -> assertThat(rows).as(where + ": " + table)
                .isEqualTo(table.equals(Table.DELETED_RUNS.sqlName()) ? 1 : 0));
        long series = SyntheticRun.inputs(KEPT).stream().filter(i -> i.samples() != null)
                .flatMap(i -> i.samples().stream()).map(DeletedRunOrderIT::series).distinct().count();
        assertThat(count(db, "samples", KEPT)).as(where).isEqualTo(SyntheticRun.sampleCount());
        assertThat(count(db, "sample_series FINAL", KEPT)).as(where).isEqualTo(series);
        assertThat(count(db, "steps FINAL", KEPT)).as(where).isEqualTo(SyntheticRun.STEPS);
        assertThat(count(db, "step_verdicts FINAL", KEPT)).as(where).isEqualTo(SyntheticRun.STEPS);
        assertThat(count(db, "runs FINAL", KEPT)).as(where).isEqualTo(1);
        assertThat(count(db, "run_conclusions FINAL", KEPT)).as(where).isEqualTo(1);
    }

    private static String series(Sample s) {
        return s.getSource() + " " + s.getMetric() + " " + s.getKind() + " " + s.getLabels();
    }

    /** The rows of {@code runId} in every table of the schema. */
    private static Map<String, Long> rowsOf(TestDatabase db, String runId) throws SQLException {
        Map<String, Long> out = new TreeMap<>();
        for (Table table : Table.values()) {
            out.put(table.sqlName(), count(db, table.sqlName(), runId));
        }
        return out;
    }

    private static long count(TestDatabase db, String from, String runId) throws SQLException {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count() FROM " + from + " WHERE run_id = '" + runId + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
