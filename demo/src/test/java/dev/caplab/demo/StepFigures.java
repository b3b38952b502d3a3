package dev.caplab.demo;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;

/**
 * Recomputes a step's published figures from a demo run's raw samples, the way an analyst would from the tool's
 * output: gauge peak, mean and median; counter rates between the first and last sample of a window.
 */
final class StepFigures {

    /** One step's window from its lifecycle events; {@code sustainedFrom} is the end of the warm-up. */
    record Window(int index, Map<String, Double> load, Instant start, Instant sustainedFrom, Instant end) {
    }

    private final DemoRun run;
    private final List<Window> windows = new ArrayList<>();

    StepFigures(DemoRun run) {
        this.run = run;
        Map<Integer, StepStarted> open = new TreeMap<>();
        for (SpecificRecord event : run.lifecycle()) {
            if (event instanceof StepStarted s) {
                open.put(s.getStepIndex(), s);
            } else if (event instanceof StepEnded e) {
                StepStarted s = open.remove(e.getStepIndex());
                windows.add(new Window(s.getStepIndex(), s.getLoad(), s.getStartedAt(),
                        s.getStartedAt().plus(Duration.ofNanos(s.getWarmupMicros() * 1000)), e.getEndedAt()));
            }
        }
    }

    List<Window> steps() {
        return windows;
    }

    Window step(int index) {
        return windows.get(index);
    }

    /** Samples of one source and metric with timestamps in [from, to], in time order. */
    List<Sample> samples(String source, String metric, Instant from, Instant to) {
        return samples(s -> s.getSource().equals(source) && s.getMetric().equals(metric), from, to);
    }

    List<Sample> samples(Predicate<Sample> which, Instant from, Instant to) {
        return run.samples().stream()
                .filter(which)
                .filter(s -> !s.getTimestamp().isBefore(from) && !s.getTimestamp().isAfter(to))
                .sorted(java.util.Comparator.comparing(Sample::getTimestamp))
                .toList();
    }

    static double max(List<Sample> samples) {
        return samples.stream().mapToDouble(Sample::getValue).max().orElseThrow();
    }

    static double min(List<Sample> samples) {
        return samples.stream().mapToDouble(Sample::getValue).min().orElseThrow();
    }

    static double mean(List<Sample> samples) {
        return samples.stream().mapToDouble(Sample::getValue).average().orElseThrow();
    }

    static double median(List<Sample> samples) {
        double[] v = samples.stream().mapToDouble(Sample::getValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** Counter increase per second between the first and the last sample. */
    static double rate(List<Sample> counter) {
        Sample first = counter.getFirst();
        Sample last = counter.getLast();
        return (last.getValue() - first.getValue()) / seconds(first.getTimestamp(), last.getTimestamp());
    }

    /** Counter increase between the first and the last sample. */
    static double increase(List<Sample> counter) {
        return counter.getLast().getValue() - counter.getFirst().getValue();
    }

    /** Counter increase per second over each sampling interval. */
    static List<Double> intervalRates(List<Sample> counter) {
        List<Double> rates = new ArrayList<>();
        for (int i = 1; i < counter.size(); i++) {
            rates.add((counter.get(i).getValue() - counter.get(i - 1).getValue())
                    / seconds(counter.get(i - 1).getTimestamp(), counter.get(i).getTimestamp()));
        }
        return rates;
    }

    /** Values summed per timestamp (one docker stats sweep), in time order. */
    static List<Double> sumPerTimestamp(List<Sample> samples) {
        Map<Instant, Double> sums = new TreeMap<>();
        samples.forEach(s -> sums.merge(s.getTimestamp(), s.getValue(), Double::sum));
        return new ArrayList<>(sums.values());
    }

    static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }

    static final double MIB = 1024.0 * 1024.0;
    static final double MBIT_BYTES = 1_000_000.0 / 8;
}
