package dev.caplab.ingest.influx;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.ingest.jmeter.BackendListenerRows;
import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.influx.SeriesCache.Series;
import dev.caplab.ingest.parse.SampleChecks.LimitException;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.ingest.publish.RunTags;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.text.ByteStrings;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * InfluxDB 1.x line protocol to samples, straight from the request bytes: one pass, no regex, no per-line String
 * split, repeated names decoded once. Mapping: measurement and field key give the metric ({@code measurement} alone
 * for the field {@code value}, as k6 and JMeter write, else {@code measurement.field}); tags become labels;
 * {@code run}/{@code run_id} tags choose the run (else the default run, i.e. the {@code db} parameter);
 * {@code source}, else {@code host}, names the source; integer, unsigned, float and boolean (1/0) fields become
 * GAUGE samples; string fields become labels of the line's numeric samples. Lines of JMeter's backend listener
 * (measurement {@code jmeter}) are mapped by {@link BackendListenerRows} instead, and its {@code events} lines (only
 * a string field {@code text}) become annotations of the run. Every line passes {@link SampleChecks}
 * (blank or oversized names and labels, line length, a timestamp outside the accepted window, with a hint when the
 * value fits another precision). A bad line is reported with its number, field and reason and skipped; every other
 * line is kept. One instance per thread: it keeps a name cache.
 */
public final class LineProtocolParser {

    /** Source of lines that name neither a source nor a host tag. */
    public static final String DEFAULT_SOURCE = "influx";
    private static final int MAX_FIELDS = 256;

    private final SampleChecks checks;
    private final ByteStrings strings = new ByteStrings();
    private final Map<String, Map<String, String>> metricNames = new HashMap<>();
    private final String[] fieldKeys = new String[MAX_FIELDS];
    private final double[] fieldValues = new double[MAX_FIELDS];
    private final SeriesCache series = new SeriesCache();
    private final Map<String, String> stringFields = new HashMap<>();
    private boolean lastLineHadStrings;

    private byte[] buf;
    private int pos;
    private int end;
    private long line;
    /** The time of lines without a timestamp during one {@link #parse} call; null: the received time. */
    private Supplier<Instant> undatedAt;

    public LineProtocolParser() {
        this(new SampleChecks(IngestLimits.DEFAULTS));
    }

    public LineProtocolParser(SampleChecks checks) {
        this.checks = checks;
    }

    /**
     * Parses {@code buf[offset, offset+length)}; lines without a timestamp get {@code receivedAt} (InfluxDB's rule
     * for a write: the server's time).
     *
     * @param defaultRunId run of lines without a run tag, or null to reject such lines
     */
    public RoutedSamples parse(byte[] body, int offset, int length, TimestampPrecision precision,
            String defaultRunId, Instant receivedAt) {
        return parse(body, offset, length, precision, defaultRunId, receivedAt, null);
    }

    /**
     * As {@link #parse(byte[], int, int, TimestampPrecision, String, Instant)}, but lines without a timestamp get
     * {@code undatedAt} (a file's lines: see {@code UndatedRows}), which may refuse the line with a
     * {@link FieldException} (null: {@code receivedAt}); {@code receivedAt} stays the "now" of the accepted window.
     */
    public RoutedSamples parse(byte[] body, int offset, int length, TimestampPrecision precision,
            String defaultRunId, Instant receivedAt, Supplier<Instant> undatedAt) {
        RoutedSamples.Builder out = new RoutedSamples.Builder();
        this.undatedAt = undatedAt;
        try {
            parseInto(body, offset, length, precision, defaultRunId, receivedAt, out);
        } finally {
            this.undatedAt = null;
        }
        return out.build();
    }

    /** As {@link #parse}, adding to a caller's builder (several message bodies into one result). */
    public void parseInto(byte[] body, int offset, int length, TimestampPrecision precision, String defaultRunId,
            Instant receivedAt, RoutedSamples.Builder out) {
        this.buf = body;
        this.pos = offset;
        this.end = offset + length;
        this.line = 1;
        while (pos < end) {
            int lineStart = pos;
            long lineNumber = line;
            try {
                parseLine(lineStart, precision, defaultRunId, receivedAt, out);
            } catch (LineException e) {
                out.error(new ParseError(lineNumber, e.field, e.getMessage(), excerpt(lineStart)));
                skipToNextLine();
            } catch (LimitException e) {
                out.error(new ParseError(lineNumber, e.field(), e.reason(), excerpt(lineStart)));
                skipToNextLine();
            } catch (FieldException e) {
                out.error(new ParseError(lineNumber, e.field(), e.reason(), excerpt(lineStart)));
                skipToNextLine();
            }
        }
        this.buf = null;
    }

    private void parseLine(int lineStart, TimestampPrecision precision, String defaultRunId, Instant receivedAt,
            RoutedSamples.Builder out) {
        while (pos < end && (buf[pos] == ' ' || buf[pos] == '\t' || buf[pos] == '\r')) {
            pos++;
        }
        if (pos >= end) {
            return;
        }
        if (buf[pos] == '\n' || buf[pos] == '#') {
            skipToNextLine();
            return;
        }
        long lineNumber = line;
        int seriesStart = pos;
        Series known = series.find(buf, seriesStart, end, defaultRunId);
        if (known != null && knownSeriesLine(known, lineStart, precision, receivedAt, out)) {
            return;
        }
        // First sight of this series key, or a line with string fields (they become labels): the full path.
        pos = seriesStart;
        line = lineNumber;
        String measurement = token(false, true, null);
        if (measurement.isEmpty()) {
            throw new LineException(null, "missing measurement");
        }
        checks.name("measurement", measurement);
        Map<String, String> tags = new HashMap<>();
        while (pos < end && buf[pos] == ',') {
            pos++;
            String key = token(true, false, null);
            if (key.isEmpty()) {
                throw new LineException(null, "missing tag key");
            }
            expect('=', key, "tag " + key + " has no '='");
            String value = token(false, false, key);
            if (value.isEmpty()) {
                throw new LineException(key, "missing tag value");
            }
            tags.put(key, value);
        }
        if (pos >= end || buf[pos] != ' ') {
            throw new LineException(null, "missing fields");
        }
        int seriesEnd = pos;
        skipSpaces();
        String runId = RunTags.runOf(tags, defaultRunId);
        if (runId == null) {
            throw new LineException("db", "no run: add a run or run_id tag, or the db parameter");
        }
        checks.name(runField(tags), runId);
        int fields = parseFields(tags);
        if (fields == 0 && !BackendListenerRows.isAnnotation(measurement, tags)) {
            throw new LineException(null, "only string fields: no numeric value to record");
        }
        boolean sawStringField = lastLineHadStrings;
        Instant timestamp = parseTimestamp(precision, receivedAt);
        // pos is at the line's end: the line is whole, every check below throws before its end is consumed
        checks.lineLength(pos - lineStart);
        String source = RunTags.sourceOf(tags, DEFAULT_SOURCE);
        checks.name(tags.containsKey(LabelNames.SOURCE) || !tags.containsKey(LabelNames.HOST) ? LabelNames.SOURCE
                : LabelNames.HOST, source);
        tags.remove(LabelNames.RUN);
        tags.remove(LabelNames.RUN_ID);
        tags.remove(LabelNames.SOURCE);
        Map<String, String> labels = Map.copyOf(tags);
        checks.labels(labels);
        if (fields == 0) {
            Annotation annotation = BackendListenerRows.toAnnotation(runId, timestamp, labels);
            checks.labels(annotation.getLabels());
            skipLineEnd();
            out.annotate(annotation);
            return;
        }
        if (BackendListenerRows.handles(measurement)) {
            List<Sample> rows = backendListenerRows(timestamp, source, labels, fields);
            skipLineEnd();
            rows.forEach(row -> out.add(runId, row));
            return;
        }
        String[] metrics = metricNames(measurement, fields);
        skipLineEnd();
        if (!sawStringField) {
            series.remember(buf, seriesStart, seriesEnd, defaultRunId, new Series(measurement, runId, source, labels));
        }
        emit(out, runId, timestamp, source, metrics, fields, labels);
    }

    /**
     * The rest of a line whose series key (measurement and tags) was seen before: only its fields and timestamp
     * are parsed, the key's names, labels and checks are the ones found then. False, with nothing added, when the
     * line has string fields, which the full path turns into labels.
     */
    private boolean knownSeriesLine(Series known, int lineStart, TimestampPrecision precision, Instant receivedAt,
            RoutedSamples.Builder out) {
        pos = series.lastEnd();
        skipSpaces();
        stringFields.clear();
        int fields = parseFields(stringFields);
        if (!stringFields.isEmpty()) {
            return false;
        }
        Instant timestamp = parseTimestamp(precision, receivedAt);
        checks.lineLength(pos - lineStart);
        String[] metrics = metricNames(known.measurement(), fields);
        skipLineEnd();
        emit(out, known.runId(), timestamp, known.source(), metrics, fields, known.labels());
        return true;
    }

    private String[] metricNames(String measurement, int fields) {
        String[] metrics = new String[fields];
        for (int f = 0; f < fields; f++) {
            metrics[f] = metricName(measurement, fieldKeys[f]);
            checks.name(fieldKeys[f], metrics[f]);
        }
        return metrics;
    }

    private void emit(RoutedSamples.Builder out, String runId, Instant timestamp, String source, String[] metrics,
            int fields, Map<String, String> labels) {
        for (int f = 0; f < fields; f++) {
            out.add(runId, new Sample(timestamp, source, metrics[f], SampleKind.GAUGE, fieldValues[f], labels, null));
        }
    }

    /**
     * JMeter's InfluxDB backend listener aggregates each send interval itself: its rows become the summaries and
     * window counts {@link BackendListenerRows} defines, not one gauge per field (a {@code jmeter.pct90.0} gauge would
     * invite averaging percentiles across intervals). Each resulting sample passes the same checks as any line's.
     */
    private List<Sample> backendListenerRows(Instant at, String source, Map<String, String> labels, int fields) {
        Map<String, Double> values = new LinkedHashMap<>();
        for (int f = 0; f < fields; f++) {
            values.put(fieldKeys[f], fieldValues[f]);
        }
        List<Sample> rows;
        try {
            rows = BackendListenerRows.toSamples(at, source, labels, values);
        } catch (FieldException e) {
            throw new LineException(e.field(), e.reason());
        }
        for (Sample row : rows) {
            checks.name("metric", row.getMetric());
            checks.labels(row.getLabels());
        }
        return rows;
    }

    /** The field a line's run id came from: its run or run_id tag, else the request's db parameter. */
    private static String runField(Map<String, String> tags) {
        return tags.containsKey(LabelNames.RUN) ? LabelNames.RUN : tags.containsKey(LabelNames.RUN_ID) ? LabelNames.RUN_ID : "db";
    }

    /**
     * Parses the field set; numeric fields go to fieldKeys/fieldValues, string fields into the labels. Returns the
     * number of numeric fields: 0 when there are only string fields, which the caller accepts for annotations only.
     */
    private int parseFields(Map<String, String> tags) {
        int count = 0;
        boolean sawString = false;
        while (true) {
            String key = token(true, false, null);
            if (key.isEmpty()) {
                throw new LineException(null, "missing field key");
            }
            expect('=', key, "field " + key + " has no '='");
            if (pos < end && buf[pos] == '"') {
                tags.put(key, quoted(key));
                sawString = true;
            } else {
                if (count == MAX_FIELDS) {
                    throw new LineException(key, "more than " + MAX_FIELDS + " fields on one line");
                }
                fieldKeys[count] = key;
                fieldValues[count] = fieldValue(key);
                count++;
            }
            if (pos < end && buf[pos] == ',') {
                pos++;
                continue;
            }
            if (pos >= end || buf[pos] == ' ' || buf[pos] == '\n' || buf[pos] == '\r') {
                break;
            }
            throw new LineException(key, "unexpected '" + (char) buf[pos] + "' after field value");
        }
        if (count == 0 && !sawString) {
            throw new LineException(null, "missing fields");
        }
        lastLineHadStrings = sawString;
        return count;
    }

    private double fieldValue(String key) {
        int from = pos;
        while (pos < end) {
            byte b = buf[pos];
            if (b == ',' || b == ' ' || b == '\n' || b == '\r') {
                break;
            }
            pos++;
        }
        int to = pos;
        if (to == from) {
            throw new LineException(key, "missing field value");
        }
        byte last = buf[to - 1];
        if (last == 'i' || last == 'u') {
            return integer(key, from, to - 1, last == 'u');
        }
        double bool = booleanOrNaN(from, to);
        if (!Double.isNaN(bool)) {
            return bool;
        }
        double value = DecimalParser.parse(buf, from, to);
        if (Double.isNaN(value)) {
            throw new LineException(key, "invalid number '" + new String(buf, from, to - from,
                    StandardCharsets.UTF_8) + "'");
        }
        return value;
    }

    private double integer(String key, int from, int to, boolean unsigned) {
        boolean negative = from < to && buf[from] == '-';
        int i = negative ? from + 1 : from;
        if (i == to) {
            throw new LineException(key, "invalid integer: no digits");
        }
        if (negative && unsigned) {
            throw new LineException(key, "unsigned integer must not be negative");
        }
        long value = 0;
        for (; i < to; i++) {
            byte b = buf[i];
            if (b < '0' || b > '9') {
                throw new LineException(key, "invalid integer '" + new String(buf, from, to - from,
                        StandardCharsets.UTF_8) + "'");
            }
            int digit = b - '0';
            if (unsigned ? Long.compareUnsigned(value, Long.divideUnsigned(-1L - digit, 10)) > 0
                    : value > (Long.MAX_VALUE - digit) / 10) {
                throw new LineException(key, "integer out of range");
            }
            value = value * 10 + digit;
        }
        if (unsigned) {
            return value >= 0 ? value : (double) (value >>> 1) * 2.0 + (value & 1);
        }
        return negative ? -value : value;
    }

    private double booleanOrNaN(int from, int to) {
        int length = to - from;
        byte first = buf[from];
        if (first == 't' || first == 'T') {
            return length == 1 || matches(from, to, "true") ? 1.0 : Double.NaN;
        }
        if (first == 'f' || first == 'F') {
            return length == 1 || matches(from, to, "false") ? 0.0 : Double.NaN;
        }
        return Double.NaN;
    }

    /** Influx accepts true, True and TRUE (and the same for false), nothing else. */
    private boolean matches(int from, int to, String word) {
        String actual = new String(buf, from, to - from, StandardCharsets.US_ASCII);
        return actual.equals(word) || actual.equals(Character.toUpperCase(word.charAt(0)) + word.substring(1))
                || actual.equals(word.toUpperCase(java.util.Locale.ROOT));
    }

    /** The line's timestamp, or the undated time (by default {@code receivedAt}) when it has none; leaves pos at the line's end. */
    private Instant parseTimestamp(TimestampPrecision precision, Instant receivedAt) {
        skipSpaces();
        if (pos >= end || buf[pos] == '\n' || buf[pos] == '\r') {
            return (undatedAt == null ? receivedAt : undatedAt.get()).truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        }
        int from = pos;
        boolean negative = buf[pos] == '-';
        if (negative) {
            pos++;
        }
        long value = 0;
        int digits = 0;
        while (pos < end && buf[pos] >= '0' && buf[pos] <= '9') {
            int digit = buf[pos] - '0';
            if (value > (Long.MAX_VALUE - digit) / 10) {
                throw new LineException(null, "timestamp out of range");
            }
            value = value * 10 + digit;
            pos++;
            digits++;
        }
        skipSpaces();
        if (digits == 0 || (pos < end && buf[pos] != '\n' && buf[pos] != '\r')) {
            while (pos < end && buf[pos] != '\n') {
                pos++;
            }
            throw new LineException(null, "invalid timestamp '" + new String(buf, from, pos - from,
                    StandardCharsets.UTF_8).strip() + "'");
        }
        long raw = negative ? -value : value;
        Instant at = precision.toInstant(raw);
        if (at == null || !checks.inWindow(at, receivedAt)) {
            throw new LineException(SampleChecks.TIMESTAMP_FIELD, (at == null ? raw + " does not fit precision "
                    + precision.parameter() : raw + " at precision " + precision.parameter() + " is "
                    + checks.outOfWindow(at, receivedAt)) + precisionHint(raw, precision, receivedAt));
        }
        return at;
    }

    /** "; it looks like milliseconds: precision=ms" when another precision puts the value inside the window. */
    private String precisionHint(long raw, TimestampPrecision given, Instant receivedAt) {
        for (TimestampPrecision other : TimestampPrecision.values()) {
            Instant at = other.toInstant(raw);
            if (other != given && at != null && checks.inWindow(at, receivedAt)) {
                return "; it looks like " + other.name().toLowerCase(java.util.Locale.ROOT) + ": precision="
                        + other.parameter();
            }
        }
        return "";
    }

    /**
     * Reads a measurement, key or tag value up to an unescaped delimiter: space and comma always end it, '=' ends
     * keys. Escapes: backslash before comma, space or '=' (measurements: comma and space); any other backslash is
     * literal, as in InfluxDB.
     */
    private String token(boolean isKey, boolean isMeasurement, String field) {
        int from = pos;
        boolean escaped = false;
        while (pos < end) {
            byte b = buf[pos];
            if (b == '\\' && pos + 1 < end && isEscapable(buf[pos + 1], isMeasurement)) {
                escaped = true;
                pos += 2;
                continue;
            }
            if (b == ',' || b == ' ' || (isKey && b == '=')) {
                break;
            }
            if (b == '\n' || b == '\r') {
                break;
            }
            if (b == '=' && !isKey && !isMeasurement) {
                throw new LineException(field, "unescaped '=' in tag value");
            }
            pos++;
        }
        return escaped ? unescape(from, pos, isMeasurement) : strings.get(buf, from, pos);
    }

    private static boolean isEscapable(byte next, boolean isMeasurement) {
        return next == ',' || next == ' ' || (!isMeasurement && next == '=') || next == '\\';
    }

    private String unescape(int from, int to, boolean isMeasurement) {
        byte[] out = new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            if (buf[i] == '\\' && i + 1 < to && isEscapable(buf[i + 1], isMeasurement)) {
                i++;
            }
            out[n++] = buf[i];
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    /** A double-quoted string field; backslash escapes '"' and '\'; newlines inside are allowed, as in InfluxDB. */
    private String quoted(String key) {
        pos++;
        StringBuilder escapedCopy = null;
        int from = pos;
        while (pos < end) {
            byte b = buf[pos];
            if (b == '\\' && pos + 1 < end && (buf[pos + 1] == '"' || buf[pos + 1] == '\\')) {
                if (escapedCopy == null) {
                    escapedCopy = new StringBuilder();
                }
                escapedCopy.append(new String(buf, from, pos - from, StandardCharsets.UTF_8)).append((char) buf[pos + 1]);
                pos += 2;
                from = pos;
                continue;
            }
            if (b == '"') {
                String tail = new String(buf, from, pos - from, StandardCharsets.UTF_8);
                pos++;
                return escapedCopy == null ? tail : escapedCopy.append(tail).toString();
            }
            if (b == '\n') {
                line++;
            }
            pos++;
        }
        throw new LineException(key, "unterminated string");
    }

    private String metricName(String measurement, String field) {
        if ("value".equals(field)) {
            return measurement;
        }
        return metricNames.computeIfAbsent(measurement, m -> new HashMap<>())
                .computeIfAbsent(field, f -> measurement + "." + f);
    }

    private void expect(char c, String field, String reason) {
        if (pos >= end || buf[pos] != c) {
            throw new LineException(field, reason);
        }
        pos++;
    }

    private void skipSpaces() {
        while (pos < end && (buf[pos] == ' ' || buf[pos] == '\t')) {
            pos++;
        }
    }

    private void skipLineEnd() {
        while (pos < end && buf[pos] == '\r') {
            pos++;
        }
        if (pos < end && buf[pos] == '\n') {
            pos++;
            line++;
        }
    }

    private void skipToNextLine() {
        while (pos < end && buf[pos] != '\n') {
            pos++;
        }
        if (pos < end) {
            pos++;
            line++;
        }
    }

    private String excerpt(int lineStart) {
        int stop = lineStart;
        while (stop < end && buf[stop] != '\n' && stop - lineStart < 200) {
            stop++;
        }
        return new String(buf, lineStart, stop - lineStart, StandardCharsets.UTF_8);
    }

    /** A rejected line; control flow inside the parser only, reported as a {@link ParseError}. */
    private static final class LineException extends RuntimeException {

        private final String field;

        LineException(String field, String reason) {
            super(reason, null, false, false);
            this.field = field;
        }
    }
}
