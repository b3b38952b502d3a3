package dev.caplab.streams.step;

import java.util.List;

/**
 * Keeps a run's load level as its changes only: a level sample equal to the level before it (in time) adds nothing
 * step inference needs, so the list grows with level changes, never with samples. For samples in time order the
 * inferred steps are exactly those of the full sample list; an out-of-order sample is placed at its time.
 */
public final class LevelChanges {

    private LevelChanges() {
    }

    /** The outcome of {@link #add}: whether the list changed, or had no room for a change. */
    public enum Added { UNCHANGED, ADDED, FULL }

    /** Adds {@code p} to {@code changes} (sorted by time, no two neighbours at the same level), keeping that shape. */
    public static Added add(List<LevelPoint> changes, LevelPoint p, int maxChanges) {
        int i = insertionPoint(changes, p.timestampMicros());
        if (i > 0 && changes.get(i - 1).level() == p.level()) {
            return Added.UNCHANGED;
        }
        boolean nextSame = i < changes.size() && changes.get(i).level() == p.level();
        if (nextSame) {
            changes.set(i, p); // the same plateau starts earlier
            return Added.ADDED;
        }
        if (changes.size() >= maxChanges) {
            return Added.FULL;
        }
        changes.add(i, p);
        return Added.ADDED;
    }

    /** The changes of an arbitrary point list (e.g. state written before only changes were kept). */
    public static List<LevelPoint> of(List<LevelPoint> points, int maxChanges) {
        List<LevelPoint> changes = new java.util.ArrayList<>();
        for (LevelPoint p : points) {
            add(changes, p, maxChanges);
        }
        return changes;
    }

    private static int insertionPoint(List<LevelPoint> changes, long t) {
        int lo = 0;
        int hi = changes.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (changes.get(mid).timestampMicros() <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
