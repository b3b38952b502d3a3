package dev.caplab.ingest.k6;

import dev.caplab.schema.text.Utf8Bytes;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.parse.SampleChecks.LimitException;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.ingest.publish.RunTags;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Map.Entry;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * k6 JSON output ({@code k6 run --out json=...}, and xk6-output-kafka {@code format=json} messages), one JSON object
 * per line. {@code Metric} lines declare a metric's type (counter, gauge, rate, trend), remembered for its points;
 * {@code Point} lines become one GAUGE sample each: metric = k6 metric name, value as written (counter points are
 * per-iteration increments, so the label {@code k6_type=counter} tells consumers to sum them, never to difference
 * them), tags = labels (the {@code run}/{@code run_id} tag chooses the run, {@code source} the source), and each
 * {@code metadata} entry (trace ids, vu, iter in newer k6) a label {@code meta.<key>}. Every point passes
 * {@link SampleChecks}. Not thread-safe: it keeps the metric declarations of its stream.
 */
public final class K6JsonParser {

    public static final String ADAPTER = "k6-json";
    public static final String TYPE_LABEL = "k6_type";
    public static final String METADATA_PREFIX = "meta.";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Map<String, String> metricTypes = new HashMap<>();
    private final String defaultRunId;
    private final String defaultSource;
    private final SampleChecks checks;
    private final Clock clock;

    /** A parser with the default limits and the system clock. */
    public K6JsonParser(String defaultRunId, String defaultSource) {
        this(defaultRunId, defaultSource, new SampleChecks(IngestLimits.DEFAULTS), Clock.systemUTC());
    }

    /**
     * @param defaultRunId run of points without a run tag, or null to reject them
     * @param defaultSource source of points without a source tag, e.g. the load generator's host name
     * @param clock "now" of the accepted time window
     */
    public K6JsonParser(String defaultRunId, String defaultSource, SampleChecks checks, Clock clock) {
        this.defaultRunId = defaultRunId;
        this.defaultSource = defaultSource == null || defaultSource.isBlank() ? "k6" : defaultSource;
        this.checks = checks;
        this.clock = clock;
    }

    /** Parses one line; a sample or an error goes to {@code out}; blank lines and Metric lines add nothing. */
    public void parseLine(String line, long lineNumber, RoutedSamples.Builder out) {
        if (line.isBlank()) {
            return;
        }
        try {
            checks.lineLength(Utf8Bytes.of(line));
            JsonNode root = JSON.readTree(line);
            if (!root.isObject()) {
                throw new PointException(null, "not a JSON object");
            }
            String type = text(root, "type");
            switch (type) {
                case "Metric" -> declare(root);
                case "Point" -> point(root, out);
                default -> throw new PointException("type", "unknown type '" + type + "' (expected Metric or Point)");
            }
        } catch (PointException e) {
            out.error(new ParseError(lineNumber, e.field, e.getMessage(), line));
        } catch (LimitException e) {
            out.error(new ParseError(lineNumber, e.field(), e.reason(), line));
        } catch (JacksonException e) {
            out.error(new ParseError(lineNumber, null, "invalid JSON: " + e.getOriginalMessage(), line));
        }
    }

    private void declare(JsonNode root) {
        JsonNode data = root.path("data");
        String name = data.path("name").asString(root.path("metric").asString(""));
        if (name.isEmpty()) {
            throw new PointException("data.name", "Metric line without a name");
        }
        metricTypes.put(name, data.path("type").asString("unknown"));
    }

    private void point(JsonNode root, RoutedSamples.Builder out) {
        String metric = text(root, "metric");
        JsonNode data = root.path("data");
        if (!data.isObject()) {
            throw new PointException("data", "Point without a data object");
        }
        JsonNode value = data.path("value");
        if (!value.isNumber()) {
            throw new PointException("data.value", "missing or non-numeric value");
        }
        Instant time = time(data.path("time"));
        Map<String, String> tags = new HashMap<>();
        for (Entry<String, JsonNode> tag : data.path("tags").properties()) {
            tags.put(tag.getKey(), tag.getValue().isNull() ? "" : tag.getValue().asString());
        }
        String run = RunTags.runOf(tags, defaultRunId);
        if (run == null) {
            throw new PointException("run", "no run: add a run or run_id tag (k6 --tag run=...) or give a default run");
        }
        checks.name(tags.containsKey(LabelNames.RUN) ? "data.tags.run" : tags.containsKey(LabelNames.RUN_ID)
                ? "data.tags.run_id" : "run", run);
        String source = RunTags.sourceOf(tags, defaultSource);
        checks.name(tags.containsKey(LabelNames.SOURCE) ? "data.tags.source" : tags.containsKey(LabelNames.HOST)
                ? "data.tags.host" : SampleChecks.SOURCE_FIELD, source);
        checks.name("metric", metric);
        checks.timestamp("data.time", time, clock.instant());
        Map<String, String> labels = new HashMap<>();
        tags.forEach((k, v) -> {
            if (!RunTags.isRouting(k)) {
                labels.put(k, v);
            }
        });
        for (Entry<String, JsonNode> meta : data.path("metadata").properties()) {
            labels.put(METADATA_PREFIX + meta.getKey(), meta.getValue().asString());
        }
        String type = metricTypes.get(metric);
        if (type != null) {
            labels.put(TYPE_LABEL, type);
        }
        checks.labels(labels);
        out.add(run, new Sample(time, source, metric, SampleKind.GAUGE, value.doubleValue(), labels, null));
    }

    private static Instant time(JsonNode time) {
        if (!time.isString()) {
            throw new PointException("data.time", "missing time");
        }
        try {
            return OffsetDateTime.parse(time.asString()).toInstant().truncatedTo(ChronoUnit.MICROS);
        } catch (DateTimeParseException e) {
            throw new PointException("data.time", "not an RFC 3339 time: '" + time.asString() + "'");
        }
    }

    private static String text(JsonNode root, String field) {
        JsonNode node = root.path(field);
        if (!node.isString() || node.asString().isEmpty()) {
            throw new PointException(field, "missing " + field);
        }
        return node.asString();
    }

    /** A rejected line; control flow inside the parser, reported as a {@link ParseError}. */
    private static final class PointException extends RuntimeException {

        private final String field;

        PointException(String field, String reason) {
            super(reason, null, false, false);
            this.field = field;
        }
    }
}
