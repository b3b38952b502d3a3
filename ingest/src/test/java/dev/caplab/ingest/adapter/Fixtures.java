package dev.caplab.ingest.adapter;

import dev.caplab.schema.event.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** Test fixtures from {@code src/test/resources/<format>/} and sample selectors shared by the adapter tests. */
public final class Fixtures {

    private Fixtures() {
    }

    public static String text(String resource) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<Sample> select(List<Sample> samples, String metric, Map<String, String> labels) {
        Predicate<Sample> match = s -> s.getMetric().equals(metric)
                && labels.entrySet().stream().allMatch(e -> e.getValue().equals(s.getLabels().get(e.getKey())));
        return samples.stream().filter(match).toList();
    }

    public static Sample only(List<Sample> samples, String metric, Map<String, String> labels) {
        List<Sample> found = select(samples, metric, labels);
        if (found.size() != 1) {
            throw new AssertionError("expected one " + metric + " " + labels + ", found " + found.size() + ": " + found);
        }
        return found.getFirst();
    }
}
