package dev.caplab.query.testing;

import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.TopologySettings;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * What a {@link TrafficRun} must show, by plain arithmetic on its raw readings (never on what was stored). Per step,
 * over the seconds after warm-up: requests/s is the requests counted over the seconds; the failed share the failed
 * requests over them; p95 lies between the order statistics any percentile definition picks from (nearest rank, R's
 * type 7), widened by the 1 % a quantile sketch may add; CPU and memory are the medians of the per-second readings;
 * a step passes when its p95 and failed share meet {@link TrafficRun#RULES}.
 */
public record TrafficRunFigures(double x, double requestsPerSecond, double errorRatio, double p95LowMs,
        double p95HighMs, double cpuCores, double memBytes, boolean passed) {

    /** The relative error a DDSketch of 1 % accuracy may add to any quantile. */
    public static final double SKETCH_ACCURACY = 0.01;

    /** Every step's figures, in step order. */
    public static List<TrafficRunFigures> steps() {
        List<TrafficRun.Second> all = TrafficRun.readings();
        return IntStream.range(0, TrafficRun.USERS.length).mapToObj(i -> {
            List<TrafficRun.Second> steady = all.stream()
                    .filter(s -> s.step() == i && s.second() >= TrafficRun.WARMUP_SECONDS).toList();
            double[] latency = steady.stream().flatMapToDouble(s -> Arrays.stream(s.latencyMs())).sorted().toArray();
            long failed = steady.stream().mapToLong(s -> IntStream.range(0, s.failed().length)
                    .filter(j -> s.failed()[j]).count()).sum();
            int n = latency.length;
            int low = (int) Math.floor(0.95 * (n - 1));
            int high = Math.max(low + 1, (int) Math.ceil(0.95 * n) - 1);
            double p95Low = latency[low] * (1 - SKETCH_ACCURACY);
            double p95High = latency[Math.min(high, n - 1)] * (1 + SKETCH_ACCURACY);
            double errorRatio = failed / (double) n;
            boolean meetsLatency = p95High <= TrafficRun.P95_LIMIT_MS;
            if (meetsLatency != p95Low <= TrafficRun.P95_LIMIT_MS) {
                throw new IllegalStateException("step " + i + ": the readings' p95 does not decide the rule");
            }
            return new TrafficRunFigures(TrafficRun.USERS[i], n / (double) steady.size(), errorRatio, p95Low, p95High,
                    RawTrafficFigures.median(steady.stream().mapToDouble(TrafficRun.Second::cpuCores).toArray()),
                    RawTrafficFigures.median(steady.stream().mapToDouble(TrafficRun.Second::memBytes).toArray()),
                    meetsLatency && errorRatio <= TrafficRun.FAILED_SHARE_LIMIT);
        }).toList();
    }

    /** The last passing step before the first failing one. */
    public static TrafficRunFigures maxStable(List<TrafficRunFigures> steps) {
        TrafficRunFigures last = null;
        for (TrafficRunFigures s : steps) {
            if (!s.passed()) {
                break;
            }
            last = s;
        }
        return last;
    }

    /** The first failing step. */
    public static TrafficRunFigures firstFailing(List<TrafficRunFigures> steps) {
        return steps.stream().filter(s -> !s.passed()).findFirst().orElseThrow();
    }

    /**
     * Where the CPU readings' slope changes: the breakpoint ψ of the continuous two-line least-squares fit
     * y = a + b·x + c·max(0, x − ψ) of the steps' CPU medians, found by trying every ψ between the second and the
     * second-to-last step's load in steps of 0.001 (the estimate R's {@code segmented} converges to).
     */
    public static double cpuKnee(List<TrafficRunFigures> steps) {
        double[] x = steps.stream().mapToDouble(TrafficRunFigures::x).toArray();
        double[] y = steps.stream().mapToDouble(TrafficRunFigures::cpuCores).toArray();
        double best = Double.NaN;
        double bestRss = Double.POSITIVE_INFINITY;
        for (double psi = x[1]; psi <= x[x.length - 2]; psi += 0.001) {
            double p = psi;
            double rss = leastSquaresRss(x, y, i -> new double[]{1, x[i], Math.max(0, x[i] - p)});
            if (rss < bestRss) {
                bestRss = rss;
                best = psi;
            }
        }
        return best;
    }

    /**
     * The resource that reaches the planning margin of its ceiling first, by the straight line through its medians
     * up to {@code cpuKneeX} (all steps for a resource without a knee): x = (ceiling·margin − intercept)/slope.
     * Ceilings are the run's declared vCPU and memory; the margin the topology's setting.
     */
    public static String bottleneck(List<TrafficRunFigures> steps, double cpuKneeX) {
        double margin = TopologySettings.defaults().fitMargin();
        double cpu = safeX(steps.stream().filter(s -> s.x() <= cpuKneeX).toList(), TrafficRunFigures::cpuCores,
                TrafficRun.VCPU * margin);
        double mem = safeX(steps, TrafficRunFigures::memBytes, TrafficRun.MEMORY_BYTES * margin);
        return Map.of(MetricNames.CPU_CORES, cpu, MetricNames.MEM_BYTES, mem).entrySet().stream()
                .min(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    private static double safeX(List<TrafficRunFigures> steps, java.util.function.ToDoubleFunction<TrafficRunFigures> y,
                                double limit) {
        double mx = steps.stream().mapToDouble(TrafficRunFigures::x).average().orElseThrow();
        double my = steps.stream().mapToDouble(y).average().orElseThrow();
        double sxy = steps.stream().mapToDouble(s -> (s.x() - mx) * (y.applyAsDouble(s) - my)).sum();
        double sxx = steps.stream().mapToDouble(s -> (s.x() - mx) * (s.x() - mx)).sum();
        double slope = sxy / sxx;
        return (limit - (my - slope * mx)) / slope;
    }

    /** The residual sum of squares of the least-squares fit of y on the given regressors (normal equations). */
    private static double leastSquaresRss(double[] x, double[] y, java.util.function.IntFunction<double[]> row) {
        int k = row.apply(0).length;
        double[][] a = new double[k][k + 1];
        for (int i = 0; i < x.length; i++) {
            double[] r = row.apply(i);
            for (int p = 0; p < k; p++) {
                for (int q = 0; q < k; q++) {
                    a[p][q] += r[p] * r[q];
                }
                a[p][k] += r[p] * y[i];
            }
        }
        for (int c = 0; c < k; c++) {
            int pivot = c;
            for (int r = c + 1; r < k; r++) {
                if (Math.abs(a[r][c]) > Math.abs(a[pivot][c])) {
                    pivot = r;
                }
            }
            double[] t = a[c];
            a[c] = a[pivot];
            a[pivot] = t;
            for (int r = 0; r < k; r++) {
                if (r != c) {
                    double f = a[r][c] / a[c][c];
                    for (int q = c; q <= k; q++) {
                        a[r][q] -= f * a[c][q];
                    }
                }
            }
        }
        double rss = 0;
        for (int i = 0; i < x.length; i++) {
            double[] r = row.apply(i);
            double fitted = 0;
            for (int p = 0; p < k; p++) {
                fitted += r[p] * a[p][k] / a[p][p];
            }
            rss += (y[i] - fitted) * (y[i] - fitted);
        }
        return rss;
    }
}
