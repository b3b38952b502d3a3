package dev.caplab.analysis.fit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Per-step sustained values: the input points collapsed to one (x, mean y, weight) per step, sorted by x.
 *
 * <p>Points sharing a step index (or, without one, the same x) become one step whose y is the
 * count-weighted mean and whose x is the count-weighted mean load; the step keeps the min and
 * max of its points so the measured range can be reported. The fit weight follows
 * {@link StepWeighting}.
 */
public final class StepSeries {
    private final double[] x;
    private final double[] y;
    private final double[] weight;
    private final double[] minY;
    private final double[] maxY;
    private final long[] count;
    private final int[] stepIndex;

    private StepSeries(double[] x, double[] y, double[] weight, double[] minY, double[] maxY, long[] count, int[] stepIndex) {
        this.x = x;
        this.y = y;
        this.weight = weight;
        this.minY = minY;
        this.maxY = maxY;
        this.count = count;
        this.stepIndex = stepIndex;
    }

    /** Groups {@code points} into steps and orders the steps by load. */
    public static StepSeries collapse(List<StepPoint> points, StepWeighting weighting) {
        Objects.requireNonNull(points, "points");
        Objects.requireNonNull(weighting, "weighting");
        Map<Object, List<StepPoint>> groups = new LinkedHashMap<>();
        for (StepPoint p : points) {
            Object key = p.stepIndex().isPresent() ? (Object) ("s" + p.stepIndex().getAsInt()) : (Object) p.x();
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
        }
        record Step(double x, double y, double min, double max, long n, int index) {}
        List<Step> steps = new ArrayList<>(groups.size());
        for (List<StepPoint> g : groups.values()) {
            double sx = 0, sy = 0, min = Double.POSITIVE_INFINITY, max = Double.NEGATIVE_INFINITY;
            long n = 0;
            for (StepPoint p : g) {
                sx += p.x() * p.count();
                sy += p.y() * p.count();
                n += p.count();
                min = Math.min(min, p.y());
                max = Math.max(max, p.y());
            }
            int index = g.getFirst().stepIndex().orElse(-1);
            steps.add(new Step(sx / n, sy / n, min, max, n, index));
        }
        steps.sort(Comparator.comparingDouble(Step::x));
        int m = steps.size();
        double[] x = new double[m], y = new double[m], w = new double[m], lo = new double[m], hi = new double[m];
        long[] c = new long[m];
        int[] idx = new int[m];
        for (int i = 0; i < m; i++) {
            Step s = steps.get(i);
            x[i] = s.x();
            y[i] = s.y();
            w[i] = weighting == StepWeighting.BY_SAMPLE_COUNT ? s.n() : 1.0;
            lo[i] = s.min();
            hi[i] = s.max();
            c[i] = s.n();
            idx[i] = s.index() >= 0 ? s.index() : i;
        }
        return new StepSeries(x, y, w, lo, hi, c, idx);
    }

    /** Equal-weight steps from parallel arrays, already one value per step (x need not be sorted). */
    public static StepSeries of(double[] xs, double[] ys) {
        if (xs.length != ys.length) {
            throw new IllegalArgumentException("x and y lengths differ: " + xs.length + " vs " + ys.length);
        }
        List<StepPoint> pts = new ArrayList<>(xs.length);
        for (int i = 0; i < xs.length; i++) {
            pts.add(StepPoint.of(xs[i], ys[i]));
        }
        return collapse(pts, StepWeighting.EQUAL_PER_STEP);
    }

    /** The first {@code n} steps (by load), keeping their weights. */
    public StepSeries head(int n) {
        if (n < 0 || n > size()) {
            throw new IllegalArgumentException("head(" + n + ") of a series of " + size() + " steps");
        }
        return new StepSeries(Arrays.copyOf(x, n), Arrays.copyOf(y, n), Arrays.copyOf(weight, n),
                Arrays.copyOf(minY, n), Arrays.copyOf(maxY, n), Arrays.copyOf(count, n), Arrays.copyOf(stepIndex, n));
    }

    public int size() {
        return x.length;
    }

    public double x(int i) {
        return x[i];
    }

    public double y(int i) {
        return y[i];
    }

    public double weight(int i) {
        return weight[i];
    }

    /** Smallest raw value observed in step {@code i}. */
    public double minY(int i) {
        return minY[i];
    }

    /** Largest raw value observed in step {@code i}. */
    public double maxY(int i) {
        return maxY[i];
    }

    public long count(int i) {
        return count[i];
    }

    /** The caller's step index of step {@code i}, or its position by load when none was given. */
    public int stepIndex(int i) {
        return stepIndex[i];
    }

    double[] xs() {
        return x;
    }

    double[] ys() {
        return y;
    }

    double[] weights() {
        return weight;
    }
}
