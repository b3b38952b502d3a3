package dev.caplab.query.history;

import java.util.List;

/**
 * One series against run start time: its points (a run without a value keeps its place with a null), the changes
 * found among the runs that have a value, and the resource it describes (null when it is not per resource).
 */
public record SeriesHistory(String series, String label, String resource, List<HistoryPoint> points,
                            List<ChangeMark> changePoints) {

    public SeriesHistory {
        points = List.copyOf(points);
        changePoints = List.copyOf(changePoints);
    }
}
