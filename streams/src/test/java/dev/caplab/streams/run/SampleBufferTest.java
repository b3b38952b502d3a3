package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.SampleKind;
import dev.caplab.streams.aggregate.BufferedSample;
import dev.caplab.streams.aggregate.BufferedSampleSerde;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SampleBufferTest {

    private KeyValueStore<String, List<BufferedSample>> store;
    private SampleBuffer buffer;

    @BeforeEach
    void openStore() {
        store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("buffer"), Serdes.String(),
                BufferedSampleSerde.serde()).withLoggingDisabled().build();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        buffer = new SampleBuffer(store);
    }

    @Test
    void aBatchIsOneEntryPerSecondItSpans() {
        buffer.add("r", samplesEvery(0, 250_000, 12), 0, 7); // 0 .. 2.75 s: buckets 0, 1, 2
        assertThat(entries()).isEqualTo(3);
    }

    @Test
    void takingAStepSplitsTheBucketItsBoundaryCuts() {
        buffer.add("r", samplesEvery(0, 250_000, 12), 0, 7);
        List<BufferedSample> first = buffer.take("r", 0, 1_500_000);
        assertThat(first).extracting(BufferedSample::timestampMicros)
                .containsExactly(0L, 250_000L, 500_000L, 750_000L, 1_000_000L, 1_250_000L);
        assertThat(buffer.all("r")).extracting(BufferedSample::timestampMicros)
                .containsExactly(1_500_000L, 1_750_000L, 2_000_000L, 2_250_000L, 2_500_000L, 2_750_000L);
        assertThat(buffer.take("r", 1_500_000, 3_000_000)).hasSize(6);
        assertThat(entries()).isZero();
    }

    @Test
    void samplesComeOutInTimeOrderAcrossBatchesAndRunsStayApart() {
        buffer.add("r", samplesEvery(500_000, 1_000_000, 2), 1, 3); // 0.5 s, 1.5 s
        buffer.add("r", samplesEvery(0, 1_000_000, 3), 0, 9); // 0, 1, 2 s
        buffer.add("r2", samplesEvery(0, 1_000_000, 3), 0, 10);
        assertThat(buffer.take("r", 0, 10_000_000)).extracting(BufferedSample::timestampMicros)
                .containsExactly(0L, 500_000L, 1_000_000L, 1_500_000L, 2_000_000L);
        assertThat(buffer.all("r2")).hasSize(3);
    }

    @Test
    void theChangelogFormatKeepsEveryField() {
        BufferedSample s = new BufferedSample(42, "host", "cpu.cores", SampleKind.GAUGE, 1.5, Map.of("cpu", "0"),
                null, Map.of());
        var serde = BufferedSampleSerde.serde();
        assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", List.of(s, s))))
                .containsExactly(s, s);
    }

    @Test
    void aBucketOfOneBatchBeyond256KiBIsCutIntoRecordsThatKeepBatchOrder() {
        // 4 KiB label values: 2,000 samples of about 4.1 KiB in one 1-s bucket, about 8 MB as one record.
        List<BufferedSample> big = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            big.add(new BufferedSample(1_000_000 + i, "host", "cpu.cores", SampleKind.GAUGE, i,
                    Map.of("k", "v".repeat(4096)), null, Map.of()));
        }
        buffer.add("r", big, 0, 9);
        var serde = BufferedSampleSerde.serde().serializer();
        try (KeyValueIterator<String, List<BufferedSample>> it = store.all()) {
            it.forEachRemaining(kv -> assertThat(serde.serialize("t", kv.value).length)
                    .isLessThanOrEqualTo((int) SampleBuffer.MAX_ENTRY_BYTES));
        }
        assertThat(entries()).isGreaterThan(30);
        assertThat(buffer.take("r", 0, 3_000_000)).extracting(BufferedSample::value)
                .containsExactlyElementsOf(big.stream().map(BufferedSample::value).toList());
    }

    @Test
    void theFormatHoldsA70000ByteLabelThatWriteUtfRefused() {
        BufferedSample s = new BufferedSample(42, "host", "cpu.cores", SampleKind.GAUGE, 1.5,
                Map.of("k".repeat(70_000), "v".repeat(70_000)), null, Map.of());
        var serde = BufferedSampleSerde.serde();
        byte[] bytes = serde.serializer().serialize("t", List.of(s));
        assertThat(bytes.length).isEqualTo(1 + 4 + BufferedSampleSerde.encodedBytes(s));
        assertThat(serde.deserializer().deserialize("t", bytes)).containsExactly(s);
    }

    private long entries() {
        long n = 0;
        try (KeyValueIterator<String, List<BufferedSample>> it = store.all()) {
            for (; it.hasNext(); it.next()) {
                n++;
            }
        }
        return n;
    }

    private static List<BufferedSample> samplesEvery(long fromMicros, long stepMicros, int count) {
        List<BufferedSample> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new BufferedSample(fromMicros + i * stepMicros, "host", "cpu.cores", SampleKind.GAUGE, i,
                    Map.of(), null, Map.of()));
        }
        return out;
    }
}
