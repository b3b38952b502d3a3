package dev.caplab.analysis.usl;

import static dev.caplab.analysis.RReference.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** USL against R {@code nls} on the benchmark data usl4j uses (fixture r/usl.csv). Tolerance 0.1 % on estimates, 1 % on SEs. */
class UslModelTest {
    private static final double[] N = {1, 2, 3, 4, 5, 6, 7, 8};
    private static final double[] X = {955.16, 1878.91, 2688.01, 3548.68, 4315.54, 5130.43, 5931.37, 6531.08};

    @Test
    void parametersAndStandardErrorsMatchRNls() {
        UslFit f = UslModel.fit(IntStream.range(0, N.length).mapToObj(i -> new UslPoint(N[i], X[i])).toList());
        assertThat(f.lambda().value()).isCloseTo(value("usl.lambda"), withinPercentage(0.1));
        assertThat(f.sigma().value()).isCloseTo(value("usl.sigma"), withinPercentage(0.1));
        assertThat(f.kappa().value()).isCloseTo(value("usl.kappa"), withinPercentage(0.1));
        assertThat(f.lambda().stdErr()).isCloseTo(value("usl.lambda.se"), withinPercentage(1));
        assertThat(f.sigma().stdErr()).isCloseTo(value("usl.sigma.se"), withinPercentage(1));
        assertThat(f.kappa().stdErr()).isCloseTo(value("usl.kappa.se"), withinPercentage(1));
        assertThat(f.modelName()).isEqualTo("usl");
    }

    /** Noise-free curve with λ=100, σ=0.05, κ=0.002: N* = √(0.95/0.002) = 21.79, recovered within 0.1 %. */
    @Test
    void peakConcurrencyFollowsGunther433() {
        List<UslPoint> pts = IntStream.rangeClosed(1, 40).filter(n -> n % 3 == 1)
                .mapToObj(n -> new UslPoint(n, 100.0 * n / (1 + 0.05 * (n - 1) + 0.002 * n * (n - 1)))).toList();
        UslFit f = UslModel.fit(pts);
        assertThat(f.peakConcurrency().value()).isCloseTo(Math.sqrt(0.95 / 0.002), withinPercentage(0.1));
        assertThat(f.throughputAtConcurrency(10)).isCloseTo(1000.0 / (1 + 0.45 + 0.18), withinPercentage(0.1));
    }
}
