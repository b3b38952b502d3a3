package dev.caplab.analysis.change;

import java.util.List;

/** The change points found in one series, oldest first. */
public record ChangeReport(String modelName, String modelVersion, int seriesLength, List<ChangePoint> changePoints) {
    public static final String MODEL_NAME = "e-divisive-ttest";
    public static final String MODEL_VERSION = "1";

    public ChangeReport {
        changePoints = List.copyOf(changePoints);
    }
}
