package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.topic.DeadLetterHeaders;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Undecodable bytes go to the dead-letter topic with the reason and origin; the run keeps being processed. */
class PoisonPillTest {

    @TempDir
    Path stateDir;

    @Test
    void undecodableInputIsDeadLetteredAndProcessingContinues() {
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            String run = "run-poison";
            t.rawSamples(run, "cpu,host=a value=1".getBytes(StandardCharsets.UTF_8));
            t.rawRuns(run, new byte[] {(byte) 0xC3, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 9});
            VerdictAndFitTest.pipe(t, run);

            TestRecord<String, byte[]> first = t.deadLetter.readRecord();
            assertThat(first.key()).isEqualTo(run);
            assertThat(header(first, DeadLetterHeaders.REASON)).contains("no Avro single-object header");
            assertThat(header(first, DeadLetterHeaders.TOPIC)).isEqualTo(TopicCatalog.SAMPLES);
            assertThat(header(first, DeadLetterHeaders.OFFSET)).isEqualTo("0");
            assertThat(new String(first.value(), StandardCharsets.UTF_8)).isEqualTo("cpu,host=a value=1");
            TestRecord<String, byte[]> second = t.deadLetter.readRecord();
            assertThat(header(second, DeadLetterHeaders.REASON)).contains("unknown writer schema fingerprint");
            assertThat(t.deadLetter.isEmpty()).isTrue();

            t.advanceWallClock(Duration.ofSeconds(1));
            assertThat(t.verdicts.readValuesToList()).hasSize(8);
        }
    }

    private static String header(TestRecord<String, byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
