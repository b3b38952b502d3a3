package dev.caplab.streams.step;

/** One observation of a run's load-level metric (k6 {@code vus}, Locust users), the input of step inference. */
public record LevelPoint(String metric, long timestampMicros, double level) {
}
