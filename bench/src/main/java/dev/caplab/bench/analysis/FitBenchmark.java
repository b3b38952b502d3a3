package dev.caplab.bench.analysis;

import dev.caplab.analysis.CapacityAnalysis;
import dev.caplab.analysis.FitOptions;
import dev.caplab.analysis.ResourceFit;
import dev.caplab.analysis.fit.StepPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Cost of {@link CapacityAnalysis#fitResource} (model selection over linear / segmented-1 / segmented-2, Davies
 * test, cliff scan): per fit for 10 steps, for 1,000 raw samples (10 steps × 100, and 1,000 distinct loads),
 * and per fit when 10,000 runs are refitted in one batch. Data: y = 5 + 0.5x + 4(x − 70)₊ + N(0, 1).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class FitBenchmark {
    private static final int BATCH = 10_000;
    private static final FitOptions OPTIONS = FitOptions.defaults("cpu.percent").withCeiling(100);

    private List<StepPoint> tenSteps;
    private List<StepPoint> thousandSamplesTenSteps;
    private List<StepPoint> thousandDistinctLoads;
    private List<List<StepPoint>> batch;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom rnd = new SplittableRandom(42);
        tenSteps = steps(rnd, 10, 1);
        thousandSamplesTenSteps = steps(rnd, 10, 100);
        thousandDistinctLoads = new ArrayList<>(1_000);
        for (int i = 0; i < 1_000; i++) {
            double x = 0.1 * i;
            thousandDistinctLoads.add(StepPoint.of(x, y(x, rnd)));
        }
        batch = new ArrayList<>(BATCH);
        for (int r = 0; r < BATCH; r++) {
            batch.add(steps(rnd, 10, 1));
        }
    }

    private static double y(double x, SplittableRandom rnd) {
        return 5 + 0.5 * x + 4 * Math.max(x - 70, 0) + rnd.nextGaussian();
    }

    private static List<StepPoint> steps(SplittableRandom rnd, int steps, int samplesPerStep) {
        List<StepPoint> pts = new ArrayList<>(steps * samplesPerStep);
        for (int s = 0; s < steps; s++) {
            double x = 10.0 * (s + 1);
            for (int k = 0; k < samplesPerStep; k++) {
                pts.add(StepPoint.atStep(s, x, y(x, rnd)));
            }
        }
        return pts;
    }

    @Benchmark
    public ResourceFit tenSteps() {
        return CapacityAnalysis.fitResource(tenSteps, OPTIONS);
    }

    @Benchmark
    public ResourceFit thousandSamplesInTenSteps() {
        return CapacityAnalysis.fitResource(thousandSamplesTenSteps, OPTIONS);
    }

    @Benchmark
    public ResourceFit thousandDistinctLoads() {
        return CapacityAnalysis.fitResource(thousandDistinctLoads, OPTIONS);
    }

    /** Reported time is per fit: JMH divides by the batch size. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    @Measurement(iterations = 3, batchSize = 1)
    public void refitTenThousandRuns(Blackhole bh) {
        for (List<StepPoint> run : batch) {
            bh.consume(CapacityAnalysis.fitResource(run, OPTIONS));
        }
    }
}
