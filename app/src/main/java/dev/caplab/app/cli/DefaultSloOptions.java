package dev.caplab.app.cli;

import dev.caplab.ingest.lifecycle.SloRules;
import dev.caplab.schema.event.SloRule;
import dev.caplab.streams.verdict.DefaultRules;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --default-slo}, on every command that judges steps ({@code up}, {@code streams}, {@code rebuild}): SLO rules
 * for runs that bring none of their own. {@code RULE} applies to every system, {@code sut=NAME:RULE} to the runs whose
 * system under test is {@code NAME} (those replace the general ones for it). A rule is written as for
 * {@code caplab run start --slo} ({@link SloRules}). A rebuild must be given the rules the live topology had, or
 * the verdicts it replays differ.
 */
public final class DefaultSloOptions {

    private static final String SYSTEM_PREFIX = "sut=";

    @Option(names = "--default-slo", paramLabel = "[sut=NAME:]RULE",
            description = "Repeatable. SLO rules for runs that bring none of their own, e.g. "
                    + "'p95(http_req_duration)<=500' for every system, or 'sut=shop:rate(http_req_failed)<0.01' for "
                    + "the runs of system shop only (a system's own defaults replace the general ones). The "
                    + "conclusion says when the default judged a run. Without rules a run's steps are not judged and "
                    + "it has no max stable load.")
    List<String> values = new ArrayList<>();

    /** The rules given, parsed; a bad value fails naming it. */
    public DefaultRules rules() {
        return parse(values);
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
