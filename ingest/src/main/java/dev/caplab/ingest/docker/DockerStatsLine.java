package dev.caplab.ingest.docker;

import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.schema.sample.Samples;
import dev.caplab.schema.event.Sample;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * One container's docker stats reading. CPU % is of one core (docker's convention: 250% = 2.5 cores), so
 * {@code cpu.cores} = CPUPerc / 100. Network and block I/O are totals since the container started, hence
 * counters. The container name is the source and a label; {@code group} labels containers that form one system.
 * A value of "--" (a container starting or stopping) means docker had no reading: that field gives no sample.
 */
final class DockerStatsLine {

    private static final String NO_READING = "--";
    private static final Set<String> KNOWN = Set.of("BlockIO", "CPUPerc", "Container", "ID", "MemPerc", "MemUsage",
            "Name", "NetIO", "PIDs");

    private final String system;
    private final Map<String, String> groupByContainer;

    DockerStatsLine(String system, Map<String, String> groupByContainer) {
        this.system = system;
        this.groupByContainer = Map.copyOf(groupByContainer);
    }

    List<Sample> map(JsonNode node, Instant at) {
        String name = text(node, "Name").or(() -> text(node, "Container"))
                .orElseThrow(() -> new FieldException("Name", "missing: every docker stats line names its container"));
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LabelNames.CONTAINER, name);
        text(node, "ID").ifPresent(id -> labels.put("container.id", id));
        String group = groupByContainer.get(name);
        if (group != null) {
            labels.put(LabelNames.GROUP, group);
        }
        if (system != null) {
            labels.put(LabelNames.HOST, system);
        }
        // extra fields of a custom --format template are kept as labels
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            if (!KNOWN.contains(field.getKey()) && field.getValue().isValueNode()) {
                labels.put(field.getKey(), field.getValue().asString());
            }
        }
        List<Sample> out = new ArrayList<>();
        reading(node, "CPUPerc").ifPresent(text -> {
            BigDecimal percent = percent("CPUPerc", text);
            // decimal arithmetic: 187.55% is 1.8755 cores exactly, not 1.8755000000000002
            out.add(Samples.gauge(at, name, MetricNames.CPU_CORES, percent.movePointLeft(2).doubleValue(), labels));
            out.add(Samples.gauge(at, name, MetricNames.CPU_PERCENT, percent.doubleValue(), labels));
        });
        reading(node, "MemUsage").ifPresent(text -> {
            String[] pair = pair("MemUsage", text);
            out.add(Samples.gauge(at, name, MetricNames.MEM_BYTES, ByteSizes.bytes("MemUsage", pair[0]), labels));
            out.add(Samples.gauge(at, name, MetricNames.MEM_LIMIT_BYTES, ByteSizes.bytes("MemUsage", pair[1]),
                    labels));
        });
        reading(node, "MemPerc").ifPresent(text ->
                out.add(Samples.gauge(at, name, MetricNames.MEM_PERCENT, percent("MemPerc", text).doubleValue(),
                        labels)));
        reading(node, "NetIO").ifPresent(text -> {
            String[] pair = pair("NetIO", text);
            out.add(Samples.counter(at, name, MetricNames.NET_RX_BYTES, ByteSizes.bytes("NetIO", pair[0]), labels));
            out.add(Samples.counter(at, name, MetricNames.NET_TX_BYTES, ByteSizes.bytes("NetIO", pair[1]), labels));
        });
        reading(node, "BlockIO").ifPresent(text -> {
            String[] pair = pair("BlockIO", text);
            out.add(Samples.counter(at, name, MetricNames.BLOCK_READ_BYTES, ByteSizes.bytes("BlockIO", pair[0]),
                    labels));
            out.add(Samples.counter(at, name, MetricNames.BLOCK_WRITE_BYTES, ByteSizes.bytes("BlockIO", pair[1]),
                    labels));
        });
        reading(node, "PIDs").ifPresent(text -> {
            try {
                out.add(Samples.gauge(at, name, MetricNames.PIDS_COUNT, Long.parseLong(text.strip()), labels));
            } catch (NumberFormatException e) {
                throw new FieldException("PIDs", "not an integer: '" + text + "'");
            }
        });
        return out;
    }

    private static java.util.Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? java.util.Optional.empty() : java.util.Optional.of(value.asString());
    }

    /** A field's text unless docker had no reading for it ("--" or "-- / --"). */
    private static java.util.Optional<String> reading(JsonNode node, String field) {
        return text(node, field).filter(t -> !t.strip().startsWith(NO_READING));
    }

    private static BigDecimal percent(String field, String text) {
        String number = text.strip();
        if (number.endsWith("%")) {
            number = number.substring(0, number.length() - 1);
        }
        try {
            BigDecimal value = new BigDecimal(number);
            if (value.signum() < 0) {
                throw new FieldException(field, "not a percentage >= 0: '" + text + "'");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new FieldException(field, "not a percentage like 0.42%: '" + text + "'");
        }
    }

    private static String[] pair(String field, String text) {
        String[] parts = text.split("/");
        if (parts.length != 2) {
            throw new FieldException(field, "expected 'used / limit' or 'in / out', got '" + text + "'");
        }
        return parts;
    }
}
