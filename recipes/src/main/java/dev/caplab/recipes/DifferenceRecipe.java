package dev.caplab.recipes;

import dev.caplab.schema.event.Sample;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A derived gauge that is one raw gauge minus another of the same source and labels at the same instant, e.g. memory
 * in use = {@code node_memory_MemTotal_bytes − node_memory_MemAvailable_bytes}. The pair is looked for among the
 * samples published together (one scrape, one file batch, one request); the partner nearest in time within
 * {@code maxSkew} counts, because a file without timestamps stamps each line with its own read time. A subtrahend
 * without a partner gives nothing: an instant goes missing, a wrong value never appears.
 *
 * @param recipe     the recipe's name, the derived series' {@code recipe} label
 * @param minuend    the raw metric subtracted from (e.g. MemTotal)
 * @param subtrahend the raw metric subtracted (e.g. MemAvailable); the derived sample takes its time
 * @param metric     the derived metric
 * @param source     the derived source
 * @param labels     the derived labels besides {@code recipe}
 * @param maxSkew    how far apart in time the two raw samples may be
 */
public record DifferenceRecipe(String recipe, String minuend, String subtrahend, String metric, Template source,
                               Map<String, Template> labels, Duration maxSkew) {

    public DifferenceRecipe {
        Objects.requireNonNull(recipe, "recipe");
        Objects.requireNonNull(minuend, "minuend");
        Objects.requireNonNull(subtrahend, "subtrahend");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(maxSkew, "maxSkew");
        if (minuend.equals(subtrahend)) {
            throw new IllegalArgumentException(recipe + ": minuend and subtrahend must differ, both were " + minuend);
        }
        labels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    }
}
