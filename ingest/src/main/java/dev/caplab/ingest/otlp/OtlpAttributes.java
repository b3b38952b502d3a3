package dev.caplab.ingest.otlp;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * OTLP attributes as caplab names and labels. Which resource attribute names the source ({@link #SOURCE_KEYS}, first
 * present wins), which attribute names the run ({@link #RUN_KEYS}), which resource attributes are SDK bookkeeping
 * and dropped ({@link #DROPPED_PREFIXES}), and how a value becomes label text: scalars as written, bytes as base64,
 * arrays and key-value lists as their JSON text (one label, so a sample's label count stays that of its attributes).
 */
final class OtlpAttributes {

    /** Resource attributes naming the source, in order of preference. */
    static final List<String> SOURCE_KEYS = List.of("service.name", "host.name", "service.instance.id");
    /** Source of data whose resource names none of {@link #SOURCE_KEYS}. */
    static final String DEFAULT_SOURCE = "otlp";
    /** Resource or data point attributes naming the run (a point's beats its resource's), in order of preference. */
    static final List<String> RUN_KEYS = List.of("caplab.run.id", "run");
    /** Resource attributes describing the SDK, not what was measured: the same on every sample, never labels. */
    static final List<String> DROPPED_PREFIXES = List.of("telemetry.sdk.", "telemetry.distro.");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private OtlpAttributes() {
    }

    /** Attributes in order as key to label text; a repeated key keeps its last value. */
    static Map<String, String> texts(List<KeyValue> attributes) {
        Map<String, String> out = new LinkedHashMap<>();
        for (KeyValue kv : attributes) {
            out.put(kv.getKey(), text(kv.getValue()));
        }
        return out;
    }

    /** The first of {@code keys} present with a non-blank value, or null. */
    static String first(Map<String, String> attributes, List<String> keys) {
        for (String key : keys) {
            String value = attributes.get(key);
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        return null;
    }

    /** Resource attributes that become labels: all but the source's, the run's and the SDK's own. */
    static Map<String, String> resourceLabels(Map<String, String> resource, String sourceKey) {
        Map<String, String> out = new LinkedHashMap<>();
        resource.forEach((k, v) -> {
            if (!k.equals(sourceKey) && !RUN_KEYS.contains(k)
                    && DROPPED_PREFIXES.stream().noneMatch(k::startsWith)) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** The first of {@link #SOURCE_KEYS} the resource carries, or null. */
    static String sourceKey(Map<String, String> resource) {
        return SOURCE_KEYS.stream().filter(k -> resource.get(k) != null && !resource.get(k).isBlank())
                .findFirst().orElse(null);
    }

    static String text(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case BOOL_VALUE, INT_VALUE, DOUBLE_VALUE -> String.valueOf(plain(value));
            case BYTES_VALUE -> Base64.getEncoder().encodeToString(value.getBytesValue().toByteArray());
            case ARRAY_VALUE, KVLIST_VALUE -> JSON.writeValueAsString(plain(value));
            case VALUE_NOT_SET -> "";
        };
    }

    /** The value as a plain Java value (String, Boolean, Long, Double, List, Map) for JSON text. */
    private static Object plain(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case BOOL_VALUE -> value.getBoolValue();
            case INT_VALUE -> value.getIntValue();
            case DOUBLE_VALUE -> value.getDoubleValue();
            case BYTES_VALUE -> Base64.getEncoder().encodeToString(value.getBytesValue().toByteArray());
            case ARRAY_VALUE -> {
                List<Object> items = new ArrayList<>();
                value.getArrayValue().getValuesList().forEach(v -> items.add(plain(v)));
                yield items;
            }
            case KVLIST_VALUE -> {
                Map<String, Object> entries = new LinkedHashMap<>();
                value.getKvlistValue().getValuesList().forEach(kv -> entries.put(kv.getKey(), plain(kv.getValue())));
                yield entries;
            }
            case VALUE_NOT_SET -> null;
        };
    }
}
