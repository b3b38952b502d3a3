package dev.caplab.analysis.conclusion;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one closed step says about the system: its load x, its verdict against the run's SLO rules, whether other
 * processes contaminated it, the resource that used the largest share of its ceiling at or past the planning
 * margin in it ({@link Conclusions#stepBottleneck}), and the load generator's sustained CPU (% of its machine) in it
 * when the generator sent it ({@link dev.caplab.analysis.throughput.GeneratorLimit}).
 */
public record StepJudgement(int stepIndex, OptionalDouble x, StepStatus verdict, boolean contaminated,
                            Optional<ResourceUse> overMargin, OptionalDouble loadGeneratorCpuPercent) {

    public StepJudgement {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(overMargin, "overMargin");
        Objects.requireNonNull(loadGeneratorCpuPercent, "loadGeneratorCpuPercent");
        if (!verdict.verdict()) {
            throw new IllegalArgumentException("step " + stepIndex + ": a closed step's verdict is passed, failed or not "
                    + "judged, got " + verdict);
        }
    }

    /** A step whose load generator's CPU is not known. */
    public StepJudgement(int stepIndex, OptionalDouble x, StepStatus verdict, boolean contaminated,
                         Optional<ResourceUse> overMargin) {
        this(stepIndex, x, verdict, contaminated, overMargin, OptionalDouble.empty());
    }

    /** Contaminated and unjudged steps say nothing about the system under test. */
    public boolean informative() {
        return !contaminated && verdict != StepStatus.NOT_JUDGED;
    }

    /** What the step says to a reader: contaminated over its verdict. */
    public StepStatus status() {
        return contaminated ? StepStatus.CONTAMINATED : verdict;
    }
}
