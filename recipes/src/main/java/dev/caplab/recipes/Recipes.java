package dev.caplab.recipes;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.sample.Samples;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Applies {@link SeriesRecipe}s and {@link DifferenceRecipe}s to the samples published together and returns the
 * derived samples (the raw ones are not touched). One map lookup per sample decides whether any recipe cares, so
 * paths that carry no exporter data pay almost nothing. A derived sample that would not pass the door (a source
 * rendered from a label longer than a source may be) is not made; its raw sample is still published. The door is
 * the caller's (ingest's checks, at its one publish point): the recipes only say what to derive.
 */
public final class Recipes {

    /** What the recipes do with samples of one raw metric. */
    private record Uses(List<SeriesRecipe> series, List<DifferenceRecipe> asMinuend,
                        List<DifferenceRecipe> asSubtrahend) {
    }

    private final Map<String, Uses> byRawMetric = new HashMap<>();
    private final Predicate<Sample> door;

    /** {@code door}: whether a derived sample would be accepted where it is published; one that would not is not made. */
    public Recipes(List<SeriesRecipe> series, List<DifferenceRecipe> differences, Predicate<Sample> door) {
        this.door = Objects.requireNonNull(door, "door");
        for (SeriesRecipe r : series) {
            uses(r.rawMetric()).series().add(r);
        }
        for (DifferenceRecipe d : differences) {
            uses(d.minuend()).asMinuend().add(d);
            uses(d.subtrahend()).asSubtrahend().add(d);
        }
    }

    /** The recipes of {@link ExporterRecipes} behind {@code door}. */
    public static Recipes exporters(Predicate<Sample> door) {
        return new Recipes(ExporterRecipes.SERIES, ExporterRecipes.DIFFERENCES, door);
    }

    private Uses uses(String rawMetric) {
        return byRawMetric.computeIfAbsent(rawMetric, m -> new Uses(new ArrayList<>(), new ArrayList<>(),
                new ArrayList<>()));
    }

    /** The derived samples of {@code raw}, in input order (differences last); empty when no recipe applies. */
    public List<Sample> derive(List<Sample> raw) {
        List<Sample> out = null;
        Map<DifferenceRecipe, Pairs> pairs = null;
        for (Sample sample : raw) {
            Uses uses = byRawMetric.get(sample.getMetric());
            if (uses == null || sample.getKind() == SampleKind.SUMMARY) {
                continue;
            }
            for (SeriesRecipe recipe : uses.series()) {
                Sample derived = recipe.derive(sample).orElse(null);
                if (derived != null && door.test(derived)) {
                    (out == null ? out = new ArrayList<>() : out).add(derived);
                }
            }
            if (!uses.asMinuend().isEmpty() || !uses.asSubtrahend().isEmpty()) {
                if (pairs == null) {
                    pairs = new HashMap<>();
                }
                for (DifferenceRecipe d : uses.asMinuend()) {
                    pairs.computeIfAbsent(d, k -> new Pairs()).minuend(sample);
                }
                for (DifferenceRecipe d : uses.asSubtrahend()) {
                    pairs.computeIfAbsent(d, k -> new Pairs()).subtrahends.add(sample);
                }
            }
        }
        if (pairs != null) {
            for (Map.Entry<DifferenceRecipe, Pairs> e : pairs.entrySet()) {
                for (Sample derived : e.getValue().differences(e.getKey())) {
                    if (door.test(derived)) {
                        (out == null ? out = new ArrayList<>() : out).add(derived);
                    }
                }
            }
        }
        return out == null ? List.of() : out;
    }

    /** The minuends of one difference recipe by series (source and labels) and time, and its subtrahends. */
    private static final class Pairs {
        final Map<String, TreeMap<Instant, Double>> minuends = new HashMap<>();
        final List<Sample> subtrahends = new ArrayList<>();

        void minuend(Sample s) {
            minuends.computeIfAbsent(seriesKey(s), k -> new TreeMap<>()).put(s.getTimestamp(), s.getValue());
        }

        List<Sample> differences(DifferenceRecipe recipe) {
            List<Sample> out = new ArrayList<>();
            for (Sample sub : subtrahends) {
                TreeMap<Instant, Double> candidates = minuends.get(seriesKey(sub));
                Double minuend = candidates == null ? null : nearest(candidates, sub.getTimestamp(), recipe);
                if (minuend == null) {
                    continue;
                }
                String source = recipe.source().render(sub);
                if (source.isBlank()) {
                    continue;
                }
                out.add(Samples.gauge(sub.getTimestamp(), source, recipe.metric(), minuend - sub.getValue(),
                        SeriesRecipe.renderLabels(recipe.recipe(), recipe.labels(), sub)));
            }
            return out;
        }

        private static Double nearest(TreeMap<Instant, Double> byTime, Instant at, DifferenceRecipe recipe) {
            Map.Entry<Instant, Double> before = byTime.floorEntry(at);
            Map.Entry<Instant, Double> after = byTime.ceilingEntry(at);
            Map.Entry<Instant, Double> best = before == null ? after : after == null ? before
                    : java.time.Duration.between(before.getKey(), at).compareTo(
                            java.time.Duration.between(at, after.getKey())) <= 0 ? before : after;
            if (best == null || java.time.Duration.between(best.getKey(), at).abs().compareTo(recipe.maxSkew()) > 0) {
                return null;
            }
            return best.getValue();
        }

        /** Source and labels: the two gauges of a difference are the same series but for their name. */
        private static String seriesKey(Sample s) {
            return s.getSource() + '\u0000' + new TreeMap<>(s.getLabels());
        }
    }
}
