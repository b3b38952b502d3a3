package dev.caplab.query.conclusion;

/**
 * The resource that limits a run, as the run conclusion named it: {@code rule} SMALLEST_SAFE_CAPACITY ({@code value}
 * is the safe capacity x) or FIRST_STEP_OVER_MARGIN ({@code value} is use / ceiling in step {@code stepIndex}), and
 * what its source is to the test ({@code sut} or {@code host}; null when the conclusion predates roles).
 */
public record BottleneckView(String source, String metric, String rule, Double value, Integer stepIndex,
                             String role) {
}
