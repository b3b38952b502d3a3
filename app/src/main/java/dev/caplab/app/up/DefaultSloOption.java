package dev.caplab.app.up;

import dev.caplab.ingest.lifecycle.SloRules;
import dev.caplab.schema.event.SloRule;
import dev.caplab.streams.verdict.DefaultRules;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code caplab up --default-slo} values: {@code RULE} applies to every system, {@code sut=NAME:RULE} to the
 * runs whose system under test is {@code NAME} (those replace the general ones for it). A rule is written as for
 * {@code caplab run start --slo} ({@link SloRules}).
 */
final class DefaultSloOption {

    private static final String SYSTEM_PREFIX = "sut=";

    private DefaultSloOption() {
    }

    static DefaultRules parse(List<String> values) {
        List<SloRule> every = new ArrayList<>();
        Map<String, List<SloRule>> bySystem = new LinkedHashMap<>();
        for (String value : values) {
            String text = value.strip();
            if (text.startsWith(SYSTEM_PREFIX)) {
                int colon = text.indexOf(':');
                String system = colon < 0 ? "" : text.substring(SYSTEM_PREFIX.length(), colon).strip();
                if (system.isEmpty()) {
                    throw new IllegalArgumentException("--default-slo '" + value + "': expected sut=NAME:RULE, e.g. "
                            + "sut=shop:p95(http_req_duration)<=500");
                }
                bySystem.computeIfAbsent(system, k -> new ArrayList<>()).add(rule(value, text.substring(colon + 1)));
            } else {
                every.add(rule(value, text));
            }
        }
        return new DefaultRules(every, bySystem);
    }

    private static SloRule rule(String option, String text) {
        try {
            return SloRules.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--default-slo '" + option + "': " + e.getMessage(), e);
        }
    }
}
