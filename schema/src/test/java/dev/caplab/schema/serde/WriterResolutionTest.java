package dev.caplab.schema.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.topic.TopicCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class WriterResolutionTest {

    private static final long STARTED_MICROS = 1_772_359_200_123_456L;

    @Test
    void olderWriterWithoutAFieldResolvesToTheCurrentClassWithTheDefault() throws IOException {
        Schema older = schema("writers/step-started-older.avsc");
        byte[] bytes = encode(older, Map.of());
        AvroSerde<StepStarted> serde = new AvroSerde<>(StepStarted.class, KnownSchemas.standard().plus(List.of(older)));

        StepStarted decoded = serde.deserialize(TopicCatalog.RUNS, bytes);

        assertThat(decoded.getRunId()).isEqualTo("run-old");
        assertThat(decoded.getStepIndex()).isEqualTo(4);
        assertThat(decoded.getLoad()).containsEntry("users", 50.0);
        assertThat(decoded.getStartedAt().toEpochMilli()).isEqualTo(STARTED_MICROS / 1000);
        assertThat(decoded.getWarmupMicros()).isZero();
    }

    @Test
    void lifecycleSerdeResolvesTheOlderWriterToo() throws IOException {
        Schema older = schema("writers/step-started-older.avsc");
        SpecificRecord decoded = new LifecycleSerde(KnownSchemas.standard().plus(List.of(older)))
                .deserialize(TopicCatalog.RUNS, encode(older, Map.of()));
        assertThat(decoded).isInstanceOf(StepStarted.class);
    }

    @Test
    void newerWriterWithAnExtraFieldIsReadByTodaysClass() throws IOException {
        Schema newer = schema("writers/step-started-newer.avsc");
        byte[] bytes = encode(newer, Map.of("warmupMicros", 5_000_000L, "operator", "ana"));
        AvroSerde<StepStarted> serde = new AvroSerde<>(StepStarted.class, KnownSchemas.standard().plus(List.of(newer)));

        assertThat(serde.deserialize(TopicCatalog.RUNS, bytes).getWarmupMicros()).isEqualTo(5_000_000L);
    }

    @Test
    void aWriterNobodyKnowsIsUndecodable() throws IOException {
        byte[] bytes = encode(schema("writers/step-started-older.avsc"), Map.of());
        assertThatThrownBy(() -> EventSerdes.stepStarted().deserialize(TopicCatalog.RUNS, bytes))
                .isInstanceOf(UndecodableEventException.class).hasMessageContaining("unknown writer");
    }

    @Test
    void releasedVersionsAreKnownToTheStandardStore() {
        List<SchemaSet> released = ReleasedSchemas.all();
        assertThat(released).extracting(SchemaSet::version).contains("0.1.0");
        for (SchemaSet set : released) {
            for (Schema record : set.records()) {
                Schema known = KnownSchemas.standard().findByFingerprint(KnownSchemas.fingerprint(record));
                assertThat(known).as("%s %s", set.version(), record.getFullName()).isNotNull();
                assertThat(SchemaNormalization.toParsingForm(known)).isEqualTo(SchemaNormalization.toParsingForm(record));
            }
        }
    }

    private static byte[] encode(Schema writer, Map<String, Object> extra) throws IOException {
        GenericRecord record = new GenericData.Record(writer);
        record.put("runId", "run-old");
        record.put("stepIndex", 4);
        record.put("load", Map.of("users", 50.0));
        record.put("startedAt", STARTED_MICROS);
        extra.forEach(record::put);
        if (writer.getField("operator") == null && extra.containsKey("operator")) {
            throw new IllegalArgumentException("writer has no operator field");
        }
        return new BinaryMessageEncoder<GenericRecord>(GenericData.get(), writer).encode(record).array();
    }

    private static Schema schema(String resource) throws IOException {
        try (InputStream in = WriterResolutionTest.class.getClassLoader().getResourceAsStream(resource)) {
            return new Schema.Parser().parse(in);
        }
    }
}
