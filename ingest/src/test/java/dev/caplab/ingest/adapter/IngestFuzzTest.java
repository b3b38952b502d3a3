package dev.caplab.ingest.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.ingest.influx.LineProtocolParser;
import dev.caplab.ingest.influx.TimestampPrecision;
import dev.caplab.ingest.k6.K6JsonParser;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.schema.event.Sample;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Bounded fuzzing of every door: mixes of valid lines (each tagged with a unique value) and bad lines of known kinds
 * go through the /write and /api/v1/k6 parsers and through {@code caplab ingest}'s path ({@link InputPublisher} over
 * {@link Adapters}) for every line-oriented format. Never an exception; every valid line's samples exactly once
 * (counted by its tag); every bad line reported by its number and the field its kind is about, and nothing else.
 */
class IngestFuzzTest {

    /** 2025-12-03T12:00:00Z: inside the accepted window (2000 .. now + 1 day). */
    private static final long T = 1_764_763_200L;
    private static final String BIG = "x".repeat(17_000);
    private static final String RUN = "fuzz-run";

    /** A bad line kind: its text for line i, and the field the error must name (null: the whole line). */
    record Bad(String kind, IntFunction<String> line, String field) {
    }

    /**
     * A format under test: optional header, the valid line i, how many samples that line gives (null: as many as
     * it gives alone), how to find a sample's tag, and its bad kinds.
     */
    record Format(String name, String header, IntFunction<String> valid, Integer samplesPerValidLine,
            Function<Sample, String> tagOf, List<Bad> bad) {
    }

    private static final List<Bad> LINE_PROTOCOL_BAD = List.of(
            new Bad("blank run tag", i -> "cpu,run=\\  value=1 " + T, "run"),
            new Bad("blank source", i -> "cpu,source=\\  value=1 " + T, "source"),
            new Bad("blank measurement", i -> "\\  value=1 " + T, "measurement"),
            new Bad("label over 16 KiB", i -> "cpu,big=" + BIG + " value=1 " + T, "big"),
            new Bad("name over 512 bytes", i -> "m".repeat(600) + " value=1 " + T, "measurement"),
            new Bad("year 5138", i -> "cpu value=1 100000000000", "timestamp"),
            new Bad("milliseconds at precision s", i -> "cpu value=1 " + T * 1000, "timestamp"),
            new Bad("year 1969", i -> "cpu value=1 -1000", "timestamp"),
            new Bad("not a number", i -> "cpu value=oops " + T, "value"),
            new Bad("129 labels", i -> "cpu" + tags(129) + " value=1 " + T, "labels"));

    private static final Format INFLUX = new Format("influx-line", null,
            i -> "cpu,host=h,u=" + i + " value=" + i + ",other=2i " + (T + i), 2, s -> s.getLabels().get("u"),
            LINE_PROTOCOL_BAD);

    private static final String K6_POINT = "{\"type\":\"Point\",\"metric\":\"%s\",\"data\":{\"time\":\"%s\","
            + "\"value\":1,\"tags\":{%s}}}";
    private static final Format K6 = new Format("k6-json", null,
            i -> K6_POINT.formatted("http_reqs", "2025-12-03T12:00:00Z", "\"u\":\"" + i + "\""), 1,
            s -> s.getLabels().get("u"), List.of(
                    new Bad("before 2000", i -> K6_POINT.formatted("vus", "1999-12-31T23:59:59Z", ""), "data.time"),
                    new Bad("blank source", i -> K6_POINT.formatted("vus", "2025-12-03T12:00:00Z",
                            "\"source\":\" \""), "data.tags.source"),
                    new Bad("blank run", i -> K6_POINT.formatted("vus", "2025-12-03T12:00:00Z", "\"run\":\"\""),
                            "data.tags.run"),
                    new Bad("label over 16 KiB", i -> K6_POINT.formatted("vus", "2025-12-03T12:00:00Z",
                            "\"big\":\"" + BIG + "\""), "big"),
                    new Bad("blank metric", i -> K6_POINT.formatted("", "2025-12-03T12:00:00Z", ""), "metric"),
                    new Bad("not JSON", i -> "{\"type\":", null)));

    private static final Format JMETER = new Format("jmeter", "timeStamp,elapsed,label,responseCode,success",
            i -> (T * 1000 + i) + "," + i + ",u" + i + ",200,true", null, s -> s.getLabels().get("name"), List.of(
                    new Bad("year 1999", i -> "946684799000,5,x,200,true", "timestamp"),
                    new Bad("label over 16 KiB", i -> (T * 1000) + ",5," + BIG + ",200,true", "name"),
                    new Bad("success not boolean", i -> (T * 1000) + ",5,x,200,maybe", "success")));

    private static final Format PROMETHEUS = new Format("prometheus", null,
            i -> "caplab_fuzz{u=\"" + i + "\"} " + i + " " + (T * 1000 + i), null, s -> s.getLabels().get("u"),
            List.of(new Bad("year 1999", i -> "caplab_fuzz 1 946684799000", "timestamp"),
                    new Bad("label over 16 KiB", i -> "caplab_fuzz{big=\"" + BIG + "\"} 1", "big"),
                    new Bad("not a number", i -> "caplab_fuzz x", "value")));

    private static final String DOCKER = "{\"BlockIO\":\"0B / 0B\",\"CPUPerc\":\"0.42%%\",\"ID\":\"x\",\"MemPerc\":"
            + "\"1.83%%\",\"MemUsage\":\"145MiB / 7.75GiB\",\"Name\":\"%s\",\"NetIO\":\"1.2MB / 648kB\",\"PIDs\":\"%s\"}";
    private static final Format DOCKER_STATS = new Format("docker-stats", null, i -> DOCKER.formatted("u" + i, "14"),
            null, Sample::getSource, List.of(
                    new Bad("container name over 512 bytes", i -> DOCKER.formatted("n".repeat(600), "14"), "source"),
                    new Bad("PIDs not an integer", i -> DOCKER.formatted("c", "x"), "PIDs"),
                    new Bad("not JSON", i -> "{\"Name\":", null)));

    @Property(tries = 150)
    void writeBodies(@ForAll @Size(max = 40) List<@IntRange(min = 0, max = 99) Integer> plan) {
        Mix mix = Mix.of(INFLUX, plan);
        byte[] body = mix.text().getBytes(StandardCharsets.UTF_8);
        RoutedSamples routed = new LineProtocolParser().parse(body, 0, body.length, TimestampPrecision.SECONDS, RUN,
                Instant.now());
        assertThat(routed.samplesByRun().keySet()).isSubsetOf(RUN);
        mix.verify(routed.samplesByRun().getOrDefault(RUN, List.of()), routed.errors());
    }

    @Property(tries = 150)
    void k6Uploads(@ForAll @Size(max = 40) List<@IntRange(min = 0, max = 99) Integer> plan) {
        Mix mix = Mix.of(K6, plan);
        K6JsonParser parser = new K6JsonParser(RUN, null);
        RoutedSamples.Builder out = new RoutedSamples.Builder();
        String[] lines = mix.text().split("\n", -1);
        for (int n = 0; n < lines.length; n++) {
            parser.parseLine(lines[n], n + 1, out);
        }
        RoutedSamples routed = out.build();
        assertThat(routed.samplesByRun().keySet()).isSubsetOf(RUN);
        mix.verify(routed.samplesByRun().getOrDefault(RUN, List.of()), routed.errors());
    }

    @Property(tries = 60)
    void influxLineFiles(@ForAll @Size(max = 30) List<@IntRange(min = 0, max = 99) Integer> plan) throws Exception {
        ingestFile(INFLUX, plan, AdapterOptions.parse(List.of("precision=s")));
    }

    @Property(tries = 60)
    void k6JsonFiles(@ForAll @Size(max = 30) List<@IntRange(min = 0, max = 99) Integer> plan) throws Exception {
        ingestFile(K6, plan, AdapterOptions.NONE);
    }

    @Property(tries = 60)
    void jmeterFiles(@ForAll @Size(max = 30) List<@IntRange(min = 0, max = 99) Integer> plan) throws Exception {
        ingestFile(JMETER, plan, AdapterOptions.NONE);
    }

    @Property(tries = 60)
    void prometheusFiles(@ForAll @Size(max = 30) List<@IntRange(min = 0, max = 99) Integer> plan) throws Exception {
        ingestFile(PROMETHEUS, plan, AdapterOptions.NONE);
    }

    @Property(tries = 60)
    void dockerStatsFiles(@ForAll @Size(max = 30) List<@IntRange(min = 0, max = 99) Integer> plan) throws Exception {
        ingestFile(DOCKER_STATS, plan, AdapterOptions.NONE);
    }

    /** {@code caplab ingest}'s path: errors as printed ({@code file:line: field: reason}) parsed back. */
    private static void ingestFile(Format format, List<Integer> plan, AdapterOptions options) throws Exception {
        Mix mix = Mix.of(format, plan);
        Adapter adapter = Adapters.create(format.name(), options);
        RecordingSink sink = new RecordingSink();
        List<String> printed = new ArrayList<>();
        InputPublisher.Outcome outcome = new InputPublisher(adapter, RUN, sink, printed::add)
                .ingest("f", new BufferedReader(new StringReader(mix.text())), true, Clock.systemUTC()); // piped live
        assertThat(sink.batches()).allSatisfy(b -> assertThat(b.runId()).isEqualTo(RUN));
        List<ParseError> errors = printed.stream().map(mix::parsePrinted).toList();
        mix.verify(sink.samples(), errors);
        assertThat(outcome.samples()).isEqualTo(sink.samples().size());
        assertThat(outcome.rejected()).isEqualTo(errors.size());
    }

    private static String tags(int count) {
        StringBuilder tags = new StringBuilder();
        for (int i = 0; i < count; i++) {
            tags.append(",t").append(i).append("=v");
        }
        return tags.toString();
    }

    /** One generated input: its text, and for each line number what it is. */
    private record Mix(Format format, String text, Map<Long, Integer> validTags, Map<Long, Bad> badLines,
            Map<Integer, Integer> samplesPerTag) {

        /** Values below 50 are valid lines, the others pick a bad kind. */
        static Mix of(Format format, List<Integer> plan) {
            StringBuilder text = new StringBuilder();
            Map<Long, Integer> valid = new TreeMap<>();
            Map<Long, Bad> bad = new TreeMap<>();
            Map<Integer, Integer> perTag = new HashMap<>();
            long line = 0;
            if (format.header() != null) {
                text.append(format.header()).append('\n');
                line++;
            }
            for (int i = 0; i < plan.size(); i++) {
                line++;
                if (plan.get(i) < 50) {
                    String validLine = format.valid().apply(i);
                    text.append(validLine).append('\n');
                    valid.put(line, i);
                    perTag.put(i, format.samplesPerValidLine() != null ? format.samplesPerValidLine()
                            : alone(format, validLine));
                } else {
                    Bad kind = format.bad().get((plan.get(i) - 50) % format.bad().size());
                    text.append(kind.line().apply(i)).append('\n');
                    bad.put(line, kind);
                }
            }
            return new Mix(format, text.toString(), valid, bad, perTag);
        }

        /** Samples a valid line gives parsed alone (after the header): the count it must give in any mix. */
        private static int alone(Format format, String line) {
            String text = (format.header() != null ? format.header() + "\n" : "") + line + "\n";
            return Adapters.create(format.name(), AdapterOptions.NONE).parse(text, Instant.now()).samples().size();
        }

        /**
         * "f:12: big: label value is ..." back to its line, and to the field expected there when it is printed as
         * {@code file:line: field: } (a reason may contain ": " itself, so the expectation decides).
         */
        ParseError parsePrinted(String printed) {
            long line = Long.parseLong(printed.substring(2, printed.indexOf(':', 2)));
            Bad expected = badLines.get(line);
            String prefix = "f:" + line + ": " + (expected == null || expected.field() == null ? ""
                    : expected.field() + ": ");
            return new ParseError(line, expected != null && printed.startsWith(prefix) ? expected.field()
                    : "<printed as: " + printed + ">", printed, "");
        }

        void verify(List<Sample> samples, List<ParseError> errors) {
            Map<Long, List<ParseError>> byLine = errors.stream().collect(Collectors.groupingBy(ParseError::line,
                    TreeMap::new, Collectors.toList()));
            assertThat(byLine.keySet()).as("rejected lines of %s", text.length() > 2_000 ? format.name() : text)
                    .containsExactlyElementsOf(badLines.keySet());
            byLine.forEach((line, lineErrors) -> assertThat(lineErrors).as("line %d (%s)", line,
                    badLines.get(line).kind()).extracting(ParseError::field)
                    .containsOnly(badLines.get(line).field()));
            Map<String, Long> counted = samples.stream().collect(Collectors.groupingBy(
                    s -> String.valueOf(format.tagOf().apply(s)), Collectors.counting()));
            Map<String, Long> expected = new HashMap<>();
            samplesPerTag.forEach((tag, count) -> expected.put(tagText(tag), (long) count));
            assertThat(counted).isEqualTo(expected);
        }

        private String tagText(int tag) {
            return switch (format.name()) {
                case "jmeter", "docker-stats" -> "u" + tag;
                default -> String.valueOf(tag);
            };
        }
    }
}
