package dev.caplab.ingest.k6;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.caplab.ingest.parse.ParseError;
import dev.caplab.schema.event.Sample;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class K6JsonReaderTest {

    private final RecordingSink sink = new RecordingSink();
    private final K6JsonReader reader = new K6JsonReader(sink);

    @Test
    void pointsBecomeSamplesWithTheirDeclaredTypeAndTags() throws IOException {
        K6JsonReader.Outcome outcome = reader.read(fixture("k6/results.json"), "run-k6", "loadgen-1");

        assertThat(outcome.errors()).isEmpty();
        assertThat(outcome.samplesPublished()).isEqualTo(5);
        List<Sample> samples = sink.byRun.get("run-k6");
        assertThat(samples).extracting(Sample::getMetric, Sample::getValue).containsExactly(
                tuple("vus", 10.0), tuple("http_reqs", 1.0), tuple("http_req_duration", 112.734), tuple("checks", 0.0));
        assertThat(samples.getFirst().getTimestamp()).isEqualTo(Instant.parse("2024-03-01T08:00:00.123456Z"));
        assertThat(samples.getFirst().getLabels()).containsExactly(java.util.Map.entry(K6JsonParser.TYPE_LABEL, "gauge"));
        assertThat(samples.get(1).getLabels()).containsEntry(K6JsonParser.TYPE_LABEL, "counter")
                .containsEntry("status", "200").containsEntry("group", "");
        assertThat(samples.get(1).getSource()).isEqualTo("loadgen-1");
    }

    @Test
    void runAndSourceTagsRouteAndMetadataBecomesLabels() throws IOException {
        reader.read(fixture("k6/results.json"), "run-k6", null);

        Sample other = sink.byRun.get("other-run").getFirst();
        assertThat(other.getSource()).isEqualTo("loadgen-2");
        assertThat(other.getLabels()).doesNotContainKeys("run", "source")
                .containsEntry("meta.trace_id", "4bf92f3577b34da6a3ce929d0e0e4736").containsEntry("meta.vu", "3")
                .containsEntry(K6JsonParser.TYPE_LABEL, "trend");
    }

    @Test
    void gzippedOutputIsDetectedByItsMagicBytes() throws IOException {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
            gzip.write(fixture("k6/results.json").readAllBytes());
        }
        K6JsonReader.Outcome outcome = reader.read(new ByteArrayInputStream(zipped.toByteArray()), "run-k6", null);
        assertThat(outcome.samplesPublished()).isEqualTo(5);
    }

    @Test
    void malformedLinesAreReportedAndValidOnesKept() throws IOException {
        K6JsonReader.Outcome outcome = reader.read(fixture("k6/malformed.json"), "run-m", null);

        assertThat(sink.byRun.get("run-m")).extracting(Sample::getValue).containsExactly(1.0, 2.0);
        assertThat(outcome.errors()).extracting(ParseError::line, ParseError::field).containsExactly(
                tuple(2L, "data.value"), tuple(3L, "data.time"), tuple(4L, "metric"), tuple(5L, "type"),
                tuple(6L, null), tuple(7L, null));
        assertThat(outcome.errors().get(4).reason()).startsWith("invalid JSON");
        assertThat(outcome.errors().get(5).reason()).isEqualTo("not a JSON object");
    }

    @Test
    void pointsWithoutAnyRunAreRejected() throws IOException {
        K6JsonReader.Outcome outcome = reader.read(fixture("k6/malformed.json"), null, null);
        assertThat(outcome.samplesPublished()).isZero();
        assertThat(outcome.errors()).filteredOn(e -> e.reason().startsWith("no run")).hasSize(2);
    }

    @Test
    void truncatedGzipPublishesWhatItReadAndFailsLoudly() throws IOException {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
            gzip.write(fixture("k6/results.json").readAllBytes());
        }
        byte[] cut = Arrays.copyOf(zipped.toByteArray(), zipped.size() - 12);
        assertThatThrownBy(() -> reader.read(new ByteArrayInputStream(cut), "run-k6", null))
                .isInstanceOf(IOException.class);
    }

    @Test
    void everyTruncationOfAPlainFileYieldsOnlySamplesOrErrors() throws IOException {
        byte[] full = fixture("k6/results.json").readAllBytes();
        for (int cut = 0; cut <= full.length; cut += 7) {
            RecordingSink cutSink = new RecordingSink();
            K6JsonReader.Outcome outcome = new K6JsonReader(cutSink)
                    .read(new ByteArrayInputStream(Arrays.copyOf(full, cut)), "r", null);
            assertThat(outcome.errors().size()).as("cut %d", cut).isLessThanOrEqualTo(1);
            assertThat(outcome.samplesPublished()).isLessThanOrEqualTo(5);
        }
    }

    private static InputStream fixture(String resource) {
        return K6JsonReaderTest.class.getClassLoader().getResourceAsStream(resource);
    }
}
