package dev.caplab.analysis.throughput;

import dev.caplab.schema.event.RunThroughputLimit;
import java.util.List;
import java.util.Optional;

/**
 * Whether the load generator, not the server, limited the throughput: its CPU (% of its machine) was at or above
 * {@link #SATURATED_PERCENT} in a step at or beyond the throughput knee's lower 95 % bound. A saturated generator
 * sends no more requests whatever the load level says, so the plateau is the tool's, not the system's.
 */
public record GeneratorLimit(double x, double cpuPercent) {

    /** A generator this busy queues its own requests: its sends, not the server, set the rate. */
    public static final double SATURATED_PERCENT = 90;

    /** One step: its load x and the generator's sustained CPU there. */
    public record StepCpu(double x, double cpuPercent) {
    }

    /** The first step at/after the knee where the generator was saturated; empty when it never was there. */
    public static Optional<GeneratorLimit> of(RunThroughputLimit limit, List<StepCpu> steps) {
        double from = limit.getKneeLower95() != null ? limit.getKneeLower95() : limit.getKneeX();
        return steps.stream().filter(s -> s.x() >= from && s.cpuPercent() >= SATURATED_PERCENT)
                .min(java.util.Comparator.comparingDouble(StepCpu::x))
                .map(s -> new GeneratorLimit(s.x(), s.cpuPercent()));
    }

    /**
     * The generator limit a concluded {@code limit} carries (its generator figures, set from {@link #of}); empty
     * when the generator was not the limit.
     */
    public static Optional<GeneratorLimit> carried(RunThroughputLimit limit) {
        return limit.getGeneratorSaturatedAtX() == null || limit.getGeneratorCpuPercent() == null ? Optional.empty()
                : Optional.of(new GeneratorLimit(limit.getGeneratorSaturatedAtX(), limit.getGeneratorCpuPercent()));
    }
}
