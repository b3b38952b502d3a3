package dev.caplab.analysis.usl;

/**
 * Fitted Universal Scalability Law X(N) = λN / (1 + σ(N−1) + κN(N−1)) (Gunther, Guerrilla Capacity
 * Planning, 2007, eq. 4.31) with intervals, the peak concurrency N* = √((1−σ)/κ) (eq. 4.33) and X(N*).
 */
public record UslFit(String modelName, String modelVersion, Estimate lambda, Estimate sigma, Estimate kappa,
                     Estimate peakConcurrency, double peakThroughput, double rSquared, int pointCount) {
    public static final String MODEL_NAME = "usl";
    public static final String MODEL_VERSION = "1";

    /** X(N) = λN / (1 + σ(N−1) + κN(N−1)) (Gunther 2007, eq. 4.31). */
    public double throughputAtConcurrency(double n) {
        return lambda.value() * n / (1 + sigma.value() * (n - 1) + kappa.value() * n * (n - 1));
    }
}
