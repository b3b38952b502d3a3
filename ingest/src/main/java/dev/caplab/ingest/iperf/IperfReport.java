package dev.caplab.ingest.iperf;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads iperf3's {@code -J} report. Who sent is taken from {@code end.sum_sent.sender} (iperf3 ≥ 3.7 marks whether
 * this host was the sender), else from the role: a client without {@code -R}, or a server with it, sends.
 */
public final class IperfReport {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final double BITS_PER_MEGABIT = 1e6;

    private IperfReport() {
    }

    /** The measurement of one report; {@link IperfReportException} names the line or field that stops it. */
    public static IperfMeasurement parse(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JacksonException e) {
            long line = e.getLocation() == null ? 0 : Math.max(0, e.getLocation().getLineNr());
            throw new IperfReportException(line, null, "not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IperfReportException(0, null, "empty input, expected an iperf3 -J report");
        }
        if (root.hasNonNull("error")) {
            throw new IperfReportException(0, "error", "iperf3 reported: " + root.get("error").asString());
        }
        JsonNode start = required(root, "start");
        JsonNode end = required(root, "end");
        JsonNode testStart = required(start, "test_start");
        boolean reverse = testStart.path("reverse").asInt(0) == 1;
        boolean client = start.has("connecting_to");
        JsonNode sent = end.has("sum_sent") ? end.get("sum_sent") : end.path("sum");
        JsonNode received = end.path("sum_received");
        boolean localSent = sent.has("sender") ? sent.get("sender").asBoolean() : client != reverse;
        JsonNode connected = start.path("connected").path(0);
        List<IperfInterval> intervals = new ArrayList<>();
        for (JsonNode interval : root.path("intervals")) {
            JsonNode sum = interval.path("sum");
            if (!sum.path("omitted").asBoolean(false)) {
                intervals.add(new IperfInterval(number(sum, "end"), number(sum, "bits_per_second") / BITS_PER_MEGABIT));
            }
        }
        // UDP: jitter and loss are the receiver's; sum_sent repeats them as 0 in 3.12
        JsonNode lossSide = received.has("lost_percent") ? received : end.path("sum");
        return new IperfMeasurement(
                Instant.ofEpochSecond(required(required(start, "timestamp"), "timesecs").asLong()),
                connected.path("local_host").asString("iperf3"),
                connected.path("remote_host").asString(start.path("connecting_to").path("host").asString("")),
                testStart.path("protocol").asString("TCP"),
                testStart.path("num_streams").asInt(1),
                sent.path("seconds").asDouble(testStart.path("duration").asDouble(0)),
                localSent ? Direction.EGRESS : Direction.INGRESS,
                rate(sent), rate(received),
                sent.has("retransmits") ? OptionalDouble.of(sent.get("retransmits").asDouble()) : OptionalDouble.empty(),
                lossSide.has("jitter_ms") ? OptionalDouble.of(lossSide.get("jitter_ms").asDouble()) : OptionalDouble.empty(),
                lossSide.has("lost_percent") ? OptionalDouble.of(lossSide.get("lost_percent").asDouble())
                        : OptionalDouble.empty(),
                intervals);
    }

    /** A side that moved no bytes was not measured in this report (the server's copy of the sender's figures). */
    private static OptionalDouble rate(JsonNode sum) {
        if (sum.isMissingNode() || sum.path("bytes").asLong(0) == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(number(sum, "bits_per_second") / BITS_PER_MEGABIT);
    }

    private static JsonNode required(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new IperfReportException(0, field, "missing: not a complete iperf3 -J report (truncated?)");
        }
        return value;
    }

    private static double number(JsonNode node, String field) {
        JsonNode value = required(node, field);
        if (!value.isNumber() || !(value.asDouble() >= 0)) {
            throw new IperfReportException(0, field, "expected a number >= 0, got " + value);
        }
        return value.asDouble();
    }
}
