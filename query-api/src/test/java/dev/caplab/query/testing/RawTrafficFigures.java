package dev.caplab.query.testing;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;

/**
 * What each step of a {@link RawTraffic} run must show, by plain arithmetic on its raw readings (never on what was
 * stored): over the readings after the step's warm-up, requests/s is the increase of the Aggregated request counter
 * divided by the seconds between the first and last of them; the error ratio the failure counter's increase over the
 * request counter's; p50/p95/p99 the median of the tool's window percentiles; the generator's CPU their mean.
 */
public record RawTrafficFigures(double x, double requestsPerSecond, double errorRatio, double p50Ms, double p95Ms,
        double p99Ms, double generatorCpuPercent) {

    /** Every step's figures, in step order. */
    public static List<RawTrafficFigures> of(Instant runStart) {
        List<RawTraffic.Reading> readings = RawTraffic.readings(runStart);
        return java.util.stream.IntStream.range(0, RawTraffic.XS.length).mapToObj(i -> {
            Instant steadyFrom = RawTraffic.stepStart(runStart, i).plusSeconds(RawTraffic.WARMUP_SECONDS);
            List<RawTraffic.Reading> steady = readings.stream()
                    .filter(r -> r.step() == i && !r.at().isBefore(steadyFrom)).toList();
            RawTraffic.Reading first = steady.getFirst();
            RawTraffic.Reading last = steady.getLast();
            long requests = last.requests() - first.requests();
            double seconds = last.at().getEpochSecond() - first.at().getEpochSecond();
            return new RawTrafficFigures(RawTraffic.XS[i], requests / seconds,
                    (last.failures() - first.failures()) / (double) requests,
                    median(steady.stream().mapToDouble(RawTraffic.Reading::p50Ms).toArray()),
                    median(steady.stream().mapToDouble(RawTraffic.Reading::p95Ms).toArray()),
                    median(steady.stream().mapToDouble(RawTraffic.Reading::p99Ms).toArray()),
                    steady.stream().mapToDouble(RawTraffic.Reading::generatorCpuPercent).average().orElseThrow());
        }).toList();
    }

    /**
     * Where the rate stops growing: the last step whose rate is still above 1.2 times the one before it, i.e. the
     * end of the straight rise (the readings rise 20 requests/s per viewer up to their cap).
     */
    public static double lastRisingX(List<RawTrafficFigures> steps) {
        double x = steps.getFirst().x();
        for (int i = 1; i < steps.size(); i++) {
            if (steps.get(i).requestsPerSecond() > 1.2 * steps.get(i - 1).requestsPerSecond()) {
                x = steps.get(i).x();
            }
        }
        return x;
    }

    /** The first step at or past {@code fromX} whose generator CPU is at least 90 %, as its x and CPU. */
    public static OptionalDouble firstSaturatedX(List<RawTrafficFigures> steps, double fromX) {
        return steps.stream().filter(s -> s.x() >= fromX && s.generatorCpuPercent() >= 90)
                .mapToDouble(RawTrafficFigures::x).findFirst();
    }

    /** The median of {@code values}, the mean of the middle two for an even count. */
    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
