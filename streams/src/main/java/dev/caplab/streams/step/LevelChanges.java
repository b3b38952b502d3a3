package dev.caplab.streams.step;

import java.util.List;

/**
 * Keeps a run's load level as its plateaus only: each plateau's first report and, once a later report of the same
 * level came, its last one. A report between those two adds nothing step inference needs, so the list grows with
 * level changes, never with samples. For samples in time order the inferred steps are exactly those of the full
 * sample list; an out-of-order sample is placed at its time.
 */
public final class LevelChanges {

    private LevelChanges() {
    }

    /** The outcome of {@link #add}: whether the list changed, or had no room for a change. */
    public enum Added { UNCHANGED, ADDED, FULL }

    /**
     * Adds {@code p} to {@code plateaus} (sorted by time; a level appears at most twice in a row, as the first and the
     * last report of one plateau), keeping that shape. At most {@code maxChanges} plateaus are kept.
     */
    public static Added add(List<LevelPoint> plateaus, LevelPoint p, int maxChanges) {
        int i = insertionPoint(plateaus, p.timestampMicros());
        boolean prevSame = i > 0 && plateaus.get(i - 1).level() == p.level();
        boolean nextSame = i < plateaus.size() && plateaus.get(i).level() == p.level();
        if (prevSame && nextSame) {
            return Added.UNCHANGED; // between the plateau's first and last report
        }
        if (prevSame) {
            boolean prevIsLast = i >= 2 && plateaus.get(i - 2).level() == p.level();
            if (prevIsLast) {
                plateaus.set(i - 1, p); // a later last report of the same plateau
            } else {
                plateaus.add(i, p); // the plateau's first later report
            }
            return Added.ADDED;
        }
        if (nextSame) {
            boolean nextHasLast = i + 1 < plateaus.size() && plateaus.get(i + 1).level() == p.level();
            if (nextHasLast) {
                plateaus.set(i, p); // the same plateau starts earlier
            } else {
                plateaus.add(i, p); // starts earlier; the former first report becomes its last
            }
            return Added.ADDED;
        }
        if (plateauCount(plateaus) >= maxChanges) {
            return Added.FULL;
        }
        plateaus.add(i, p);
        return Added.ADDED;
    }

    /** The plateaus of an arbitrary point list (e.g. state written before plateaus were kept). */
    public static List<LevelPoint> of(List<LevelPoint> points, int maxChanges) {
        List<LevelPoint> plateaus = new java.util.ArrayList<>();
        for (LevelPoint p : points) {
            add(plateaus, p, maxChanges);
        }
        return plateaus;
    }

    private static int plateauCount(List<LevelPoint> plateaus) {
        int n = 0;
        for (int i = 0; i < plateaus.size(); i++) {
            n += i == 0 || plateaus.get(i - 1).level() != plateaus.get(i).level() ? 1 : 0;
        }
        return n;
    }

    private static int insertionPoint(List<LevelPoint> plateaus, long t) {
        int lo = 0;
        int hi = plateaus.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (plateaus.get(mid).timestampMicros() <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
