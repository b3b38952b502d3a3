package dev.caplab.recipes;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.sample.Samples;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One raw exporter series becomes one derived series in caplab's vocabulary, sample by sample: a sample of
 * {@code rawMetric} whose labels match every {@code when} pattern and no {@code unless} pattern (an absent label is
 * matched as the empty string, patterns match the whole value) gives a sample of {@code metric} of the given kind,
 * same time and value, with the source and labels rendered from {@link Template}s. Stateless, so it gives the same
 * answer whatever way a scrape is cut into requests.
 *
 * @param recipe     the recipe's name, also the derived series' {@code recipe} label (e.g. {@code node_exporter})
 * @param rawMetric  the exporter's metric name, exactly
 * @param when       label patterns that must all match
 * @param unless     label patterns none of which may match
 * @param metric     the derived metric (e.g. {@code cpu.cores})
 * @param kind       the derived kind: COUNTER for totals (rated downstream), GAUGE for levels; set here because remote
 *                   write carries no types
 * @param source     the derived source, e.g. {@code {source}} or {@code {name}}
 * @param labels     the derived labels besides {@code recipe}; a label rendered empty is left out
 */
public record SeriesRecipe(String recipe, String rawMetric, Map<String, Pattern> when, Map<String, Pattern> unless,
                           String metric, SampleKind kind, Template source, Map<String, Template> labels) {

    /** The label naming the recipe a derived series came from. */

    public SeriesRecipe {
        Objects.requireNonNull(recipe, "recipe");
        Objects.requireNonNull(rawMetric, "rawMetric");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(source, "source");
        if (kind == SampleKind.SUMMARY) {
            throw new IllegalArgumentException(recipe + "/" + rawMetric + ": a recipe derives counters or gauges");
        }
        when = Map.copyOf(when);
        unless = Map.copyOf(unless);
        labels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    }

    /** Whether {@code raw} (already known to be of {@link #rawMetric()}) is a sample this recipe takes. */
    public boolean matches(Sample raw) {
        for (Map.Entry<String, Pattern> w : when.entrySet()) {
            if (!w.getValue().matcher(labelOf(raw, w.getKey())).matches()) {
                return false;
            }
        }
        for (Map.Entry<String, Pattern> u : unless.entrySet()) {
            if (u.getValue().matcher(labelOf(raw, u.getKey())).matches()) {
                return false;
            }
        }
        return true;
    }

    /** The derived sample, or empty when {@code raw} is not one this recipe takes or its source renders blank. */
    public Optional<Sample> derive(Sample raw) {
        if (!matches(raw)) {
            return Optional.empty();
        }
        String derivedSource = source.render(raw);
        if (derivedSource.isBlank()) {
            return Optional.empty();
        }
        Map<String, String> derivedLabels = renderLabels(recipe, labels, raw);
        return Optional.of(kind == SampleKind.COUNTER
                ? Samples.counter(raw.getTimestamp(), derivedSource, metric, raw.getValue(), derivedLabels)
                : Samples.gauge(raw.getTimestamp(), derivedSource, metric, raw.getValue(), derivedLabels));
    }

    /** {@code recipe=<name>} followed by the rendered labels, empty ones left out. */
    static Map<String, String> renderLabels(String recipe, Map<String, Template> labels, Sample raw) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(LabelNames.RECIPE, recipe);
        labels.forEach((key, template) -> {
            String value = template.render(raw);
            if (!value.isEmpty()) {
                out.put(key, value);
            }
        });
        return out;
    }

    private static String labelOf(Sample raw, String key) {
        String value = raw.getLabels().get(key);
        return value == null ? "" : value;
    }
}
