package dev.caplab.schema.serde;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.schema.topic.TopicCatalog;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The hand-written SampleBatch body against Avro's own generic encoder and decoder, the reference. */
class SampleBatchCodecTest {

    /** Avro's generic path for the same type and writers: the reference the hand-written codec is checked against. */
    private static final AvroSerde<SampleBatch> AVRO = new AvroSerde<>(SampleBatch.class, KnownSchemas.standard());

    @Test
    void avroReadsWhatItWritesAndItReadsAvros() {
        SplittableRandom random = new SplittableRandom(13);
        for (int round = 0; round < 50; round++) {
            SampleBatch batch = randomBatch(random, random.nextInt(0, 300));
            byte[] avro = AVRO.serialize(TopicCatalog.SAMPLES, batch);
            byte[] fast = EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES, batch);
            assertThat(AVRO.deserialize(TopicCatalog.SAMPLES, fast)).as("round %d", round).isEqualTo(batch);
            assertThat(EventSerdes.sampleBatch().deserialize(TopicCatalog.SAMPLES, avro)).isEqualTo(batch);
            assertThat(EventSerdes.sampleBatch().deserialize(TopicCatalog.SAMPLES, fast)).isEqualTo(batch);
        }
    }

    @Test
    void withoutLabelsTheBytesAreExactlyAvros() {
        SplittableRandom random = new SplittableRandom(17);
        for (int round = 0; round < 20; round++) {
            SampleBatch batch = randomBatch(random, random.nextInt(0, 300));
            batch.getSamples().forEach(s -> s.setLabels(Map.of()));
            assertThat(EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES, batch)).as("round %d", round)
                    .isEqualTo(AVRO.serialize(TopicCatalog.SAMPLES, batch));
        }
    }

    @Test
    void aLabelMapIsOneBlockAvrosDecoderSkipsByItsSize() throws IOException {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            samples.add(new Sample(Instant.ofEpochSecond(1_700_000_000L + i), "k6", "http_req_duration",
                    SampleKind.GAUGE, (double) i, Map.of("method", "GET", "status", "20" + i, "µ", "ü"), null));
        }
        byte[] fast = EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES,
                new SampleBatch("run-1", "influx-line", Instant.ofEpochSecond(1_700_000_100L), samples));
        BinaryDecoder in = DecoderFactory.get().binaryDecoder(fast, SingleObjectHeader.LENGTH,
                fast.length - SingleObjectHeader.LENGTH, null);
        assertThat(in.readString()).isEqualTo("run-1");
        assertThat(in.readString()).isEqualTo("influx-line");
        in.readLong();
        assertThat(in.readArrayStart()).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            assertThat(in.readLong()).isEqualTo((1_700_000_000L + i) * 1_000_000L);
            assertThat(in.readString()).isEqualTo("k6");
            assertThat(in.readString()).isEqualTo("http_req_duration");
            assertThat(in.readEnum()).isEqualTo(SampleKind.GAUGE.ordinal());
            assertThat(in.readDouble()).isEqualTo((double) i);
            // Avro's skipMap returns 0 only when every block gave its byte size and was jumped over.
            assertThat(in.skipMap()).as("sample %d's labels skipped by their block size", i).isZero();
            assertThat(in.readIndex()).as("no summary").isZero();
        }
        assertThat(in.arrayNext()).isZero();
        assertThat(in.isEnd()).isTrue();
    }

    @Test
    void sharedImmutableLabelMapsAsParsersHandThemOutEncodeAsTheirOwnMaps() {
        // More shared maps than the encoder remembers (slots collide and are replaced), reused in random order
        // across batches, some equal in content but distinct instances, some empty or of one label: what a
        // remembered map's bytes say must be that map, read back by Avro itself.
        SplittableRandom random = new SplittableRandom(29);
        List<Map<String, String>> shared = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            shared.add(switch (i % 4) {
                case 0 -> Map.of();
                case 1 -> Map.of("url", "https://test.k6.io/" + i % 700);
                default -> Map.of("method", "GET", "status", Integer.toString(i % 500), "µ", "ü".repeat(i % 3));
            });
        }
        for (int round = 0; round < 20; round++) {
            List<Sample> samples = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                samples.add(new Sample(Instant.ofEpochSecond(1_700_000_000L + i), "k6", "http_req_duration",
                        SampleKind.GAUGE, random.nextDouble(), shared.get(random.nextInt(shared.size())), null));
            }
            SampleBatch batch = new SampleBatch("run-" + round, "influx-line", Instant.ofEpochSecond(1_700_000_100L),
                    samples);
            assertThat(AVRO.deserialize(TopicCatalog.SAMPLES, EventSerdes.sampleBatch().serialize(
                    TopicCatalog.SAMPLES, batch))).as("round %d", round).isEqualTo(batch);
        }
    }

    @Test
    void equalLabelSetsAndNamesDecodeToOneSharedInstance() {
        Map<String, String> labels = new HashMap<>(Map.of("method", "GET", "status", "200"));
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            samples.add(new Sample(Instant.ofEpochSecond(1_700_000_000L + i), "k6", "http_req_duration",
                    SampleKind.GAUGE, (double) i, new HashMap<>(labels), null));
        }
        SampleBatch decoded = EventSerdes.sampleBatch().deserialize(TopicCatalog.SAMPLES,
                AVRO.serialize(TopicCatalog.SAMPLES, new SampleBatch("run-1", "influx-line",
                        Instant.ofEpochSecond(1_700_000_100L), samples)));
        List<Sample> out = decoded.getSamples();
        assertThat(out.get(1).getLabels()).isSameAs(out.get(0).getLabels()).isSameAs(out.get(2).getLabels())
                .isEqualTo(labels);
        assertThat(out.get(1).getMetric()).isSameAs(out.get(0).getMetric());
        assertThatThrownBy(() -> out.get(0).getLabels().put("x", "y"))
                .as("a shared map must not be changed through one sample")
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aTruncatedOrPaddedBodyIsUndecodable() {
        SampleBatch batch = randomBatch(new SplittableRandom(7), 20);
        // Avro's bytes, and this codec's, whose label blocks carry a size a cut can leave pointing past the end
        for (byte[] whole : List.of(AVRO.serialize(TopicCatalog.SAMPLES, batch),
                EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES, batch))) {
            for (int cut = 11; cut < whole.length; cut++) {
                byte[] cutBody = Arrays.copyOf(whole, cut);
                assertThatThrownBy(() -> EventSerdes.sampleBatch().deserialize(TopicCatalog.SAMPLES, cutBody))
                        .as("cut at %d", cut).isInstanceOf(UndecodableEventException.class);
            }
            assertThatThrownBy(() -> EventSerdes.sampleBatch().deserialize(TopicCatalog.SAMPLES,
                    Arrays.copyOf(whole, whole.length + 1))).isInstanceOf(UndecodableEventException.class);
        }
    }

    private static SampleBatch randomBatch(SplittableRandom random, int samples) {
        List<Sample> list = new ArrayList<>();
        String[] names = {"cpu", "http_req_duration", "µs-latency", "x".repeat(70), "ü", "net.tx.bytes"};
        for (int i = 0; i < samples; i++) {
            Map<String, String> labels = new HashMap<>();
            for (int l = random.nextInt(0, 4); l > 0; l--) {
                labels.put(names[random.nextInt(names.length)] + l, names[random.nextInt(names.length)]);
            }
            SummaryStats summary = null;
            if (random.nextInt(4) == 0) {
                Map<String, Double> quantiles = new HashMap<>();
                if (random.nextBoolean()) {
                    quantiles.put("0.95", random.nextDouble());
                    quantiles.put("0.5", -random.nextDouble());
                }
                summary = new SummaryStats(SummaryWindow.values()[random.nextInt(2)], random.nextLong(0, 1L << 40),
                        random.nextBoolean() ? null : random.nextLong(), random.nextBoolean() ? null : Double.NaN,
                        random.nextBoolean() ? null : -0.0, random.nextBoolean() ? null : Double.MAX_VALUE, quantiles);
            }
            // timestamps before 1970 too, with microseconds: Avro's conversion rounds toward the epoch's floor
            Instant ts = Instant.ofEpochSecond(random.nextLong(-2_000_000_000L, 4_000_000_000L),
                    random.nextInt(1_000_000) * 1_000L);
            list.add(new Sample(ts, names[random.nextInt(names.length)], names[random.nextInt(names.length)],
                    SampleKind.values()[random.nextInt(3)], random.nextDouble() * 1e6 - 5e5, labels, summary));
        }
        return new SampleBatch("run-" + random.nextInt(100), "influx-line",
                Instant.ofEpochSecond(1_700_000_000L, random.nextInt(1_000_000) * 1_000L), list);
    }
}
