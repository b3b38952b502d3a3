package dev.caplab.bench.pipeline;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What one measured pass of the pipeline bench found: throughput, delays to queryable aggregates, heap. */
record PipelineFigures(long samples, double seconds, double drainedSeconds, double ingestSeconds,
                       double storedSeconds, Delays perSample,
                       Delays perStep, Heap heap) {

    /** Peak used heap, peak heap left after a collection, and the maximum, in bytes; the peaks outside the heap. */
    record Heap(long peakUsed, long peakAfterGc, long max, MemoryPeaks.Figures offHeap) {
    }

    /** When (System.nanoTime) a run's step aggregate became complete in ClickHouse. */
    @FunctionalInterface
    interface StepCompleted {
        long at(String runId, int step);
    }

    /** Weighted quantiles of a delay, in seconds. */
    record Delays(double p50, double p99, double max) {

        /** Exact weighted quantiles: each value counts {@code weight} times. */
        static Delays of(List<double[]> valueAndWeight) {
            List<double[]> sorted = new ArrayList<>(valueAndWeight);
            sorted.sort(Comparator.comparingDouble(v -> v[0]));
            double total = sorted.stream().mapToDouble(v -> v[1]).sum();
            return new Delays(quantile(sorted, total, 0.50), quantile(sorted, total, 0.99),
                    sorted.getLast()[0]);
        }

        private static double quantile(List<double[]> sorted, double total, double q) {
            double seen = 0;
            for (double[] v : sorted) {
                seen += v[1];
                if (seen >= q * total) {
                    return v[0];
                }
            }
            return sorted.getLast()[0];
        }
    }

    static PipelineFigures of(long samples, long startedNanos, long lastAckNanos, long storedNanos, long doneNanos,
            long drainedNanos, BatchLog log, StepCompleted completed, Heap heap) {
        List<double[]> perSample = new ArrayList<>();
        Map<String, Double> perStepDelay = new HashMap<>();
        for (BatchLog.Ack ack : log.acks()) {
            double delay = (completed.at(ack.runId(), ack.step()) - ack.ackNanos()) / 1e9;
            perSample.add(new double[] {delay, ack.samples()});
            // The step's delay runs from its last acknowledged batch: the smallest of its batches' delays.
            perStepDelay.merge(ack.runId() + "#" + ack.step(), delay, Math::min);
        }
        List<double[]> perStep = perStepDelay.values().stream().map(d -> new double[] {d, 1}).toList();
        return new PipelineFigures(samples, (doneNanos - startedNanos) / 1e9, (drainedNanos - startedNanos) / 1e9,
                (lastAckNanos - startedNanos) / 1e9,
                (storedNanos - startedNanos) / 1e9, Delays.of(perSample), Delays.of(perStep), heap);
    }

    double samplesPerSecond() {
        return samples / seconds;
    }

    /**
     * The rate the pipeline keeps up with: every sample stored and every step that event time closes (all but each
     * run's last) aggregated. It leaves out the last step's wait for {@code grace} of wall-clock time after its end
     * was seen, a latency (in the delays below) that a pass of any length pays once, not a cost per sample.
     */
    double sustainedSamplesPerSecond() {
        return samples / drainedSeconds;
    }

    /** The HTTP ingest rate: first request to the last acknowledgement, the stack's other roles running. */
    double ingestSamplesPerSecond() {
        return samples / ingestSeconds;
    }

    void print(PrintStream out) {
        out.printf(Locale.ROOT, "caplab end to end: %,.0f samples/s sustained (%d samples stored and every step"
                + " aggregated in %.1f s; HTTP ingest alone took %.1f s = %,.0f samples/s)%n",
                samplesPerSecond(), samples, seconds, ingestSeconds, ingestSamplesPerSecond());
        out.printf(Locale.ROOT, "caplab sustained: %,.0f samples/s (every sample stored and every step but the"
                + " last of each run aggregated in %.1f s)%n", sustainedSamplesPerSecond(), drainedSeconds);
        out.printf(Locale.ROOT, "raw samples all stored in ClickHouse after %.1f s (%,.0f samples/s)%n",
                storedSeconds, samples / storedSeconds);
        out.printf(Locale.ROOT, "delay, sample acknowledged -> its step aggregate complete in ClickHouse:"
                + " p50 %.1f s, p99 %.1f s, max %.1f s%n", perSample.p50(), perSample.p99(), perSample.max());
        out.printf(Locale.ROOT, "delay, step's last sample acknowledged -> step aggregate complete:"
                + " p50 %.1f s, p99 %.1f s, max %.1f s (includes the step-closing grace)%n",
                perStep.p50(), perStep.p99(), perStep.max());
        out.printf(Locale.ROOT, "heap of the whole embedded stack (sampled at each watcher poll): peak used %.0f MiB,"
                + " peak after GC %.0f MiB, max %.0f MiB%n", heap.peakUsed() / 1048576.0,
                heap.peakAfterGc() / 1048576.0, heap.max() / 1048576.0);
        MemoryPeaks.Figures off = heap.offHeap();
        out.printf(Locale.ROOT, "direct buffers (sampled at each poll): peak %.1f MiB in %d buffers; limit %s%n",
                off.directBytes() / 1048576.0, off.directBuffers(), off.directLimit());
        out.printf(Locale.ROOT, "resident memory of the process: peak anonymous (RssAnon, sampled at each poll: heap,"
                + " direct buffers, chDB's and RocksDB's native memory) %.0f MiB; peak of all since it started"
                + " (VmHWM) %.0f MiB, of which the bench's mapped request bodies (RssShmem + RssFile, now) %.0f MiB%n",
                off.rssAnonBytes() / 1048576.0, off.vmHwmBytes() / 1048576.0, off.mappedResidentBytes() / 1048576.0);
    }
}
