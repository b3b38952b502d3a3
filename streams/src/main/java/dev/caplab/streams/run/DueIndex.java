package dev.caplab.streams.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * When each run next needs the wall clock (a step or the run to close after grace, an idle run to end, an ended
 * run's state to expire), so a punctuation visits only the runs due, not every run ever seen. Kept in memory per
 * task and rebuilt from the run-state store when the task (re)starts, so it needs no store of its own.
 */
final class DueIndex {

    private record Entry(long dueMillis, String runId) implements Comparable<Entry> {
        @Override
        public int compareTo(Entry o) {
            int c = Long.compare(dueMillis, o.dueMillis);
            return c != 0 ? c : runId.compareTo(o.runId);
        }
    }

    private final TreeSet<Entry> byDue = new TreeSet<>();
    private final Map<String, Long> dueOf = new HashMap<>();

    /** Sets when {@code runId} is next due; {@link Long#MAX_VALUE} means never (removed). */
    void schedule(String runId, long dueMillis) {
        Long old = dueOf.remove(runId);
        if (old != null) {
            byDue.remove(new Entry(old, runId));
        }
        if (dueMillis != Long.MAX_VALUE) {
            dueOf.put(runId, dueMillis);
            byDue.add(new Entry(dueMillis, runId));
        }
    }

    /** The runs due at {@code nowMillis}, earliest first; they stay indexed until rescheduled. */
    List<String> due(long nowMillis) {
        List<String> out = new ArrayList<>();
        for (Entry e : byDue) {
            if (e.dueMillis > nowMillis) {
                break;
            }
            out.add(e.runId);
        }
        return out;
    }

    int size() {
        return dueOf.size();
    }
}
