package dev.caplab.streams.rebuild;

import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepVerdict;
import java.time.Instant;

/**
 * Which derivation of the raw topics made a derived record: {@link #LIVE} (0) for the streams app, a rebuild's start
 * (epoch milliseconds) for a rebuild. It is the high part of every derived version,
 * {@code version = generation · 10⁶ + local}, where the local version is the record's revision within one
 * derivation (a step's aggregate is 1, a fit is the number of closed steps + 1). A later rebuild therefore outranks
 * the live rows and every earlier rebuild in the store's ReplacingMergeTree even where the changed analysis gives a
 * lower local version (a step newly judged contaminated drops a refit) — with local versions alone, the live row
 * would win or tie.
 */
public record Generation(long value) {

    /** Local versions stay below this; a generation counts in units of it. */
    public static final long SPAN = 1_000_000L;
    /** The live streams app: versions are the local versions, as before generations existed. */
    public static final Generation LIVE = new Generation(0);

    public Generation {
        if (value < 0 || value > Long.MAX_VALUE / SPAN - 1) {
            throw new IllegalArgumentException("generation must be in [0, " + (Long.MAX_VALUE / SPAN - 1) + "], was "
                    + value);
        }
    }

    /** The generation of a rebuild started at {@code t}: later rebuilds outrank earlier ones. */
    public static Generation startedAt(Instant t) {
        return new Generation(t.toEpochMilli());
    }

    /** The generation a stored version was written under. */
    public static Generation of(long version) {
        return new Generation(version / SPAN);
    }

    /** The revision within its derivation that a stored version carries. */
    public static long localOf(long version) {
        return version % SPAN;
    }

    /** The stored version of a record whose local version is {@code local}. */
    public long version(long local) {
        if (local < 0 || local >= SPAN) {
            throw new IllegalStateException("local version " + local + " outside [0, " + SPAN + ") in generation "
                    + value);
        }
        return value * SPAN + local;
    }

    /** Whether a record of local version {@code local} keeps it: live records are forwarded as they are, uncopied. */
    private boolean unchanged(long local) {
        return value == 0 && local >= 0 && local < SPAN;
    }

    public StepAggregate stamp(StepAggregate a) {
        return unchanged(a.getVersion()) ? a : StepAggregate.newBuilder(a).setVersion(version(a.getVersion())).build();
    }

    public StepVerdict stamp(StepVerdict v) {
        return unchanged(v.getVersion()) ? v : StepVerdict.newBuilder(v).setVersion(version(v.getVersion())).build();
    }

    public CapacityFit stamp(CapacityFit f) {
        return unchanged(f.getVersion()) ? f : CapacityFit.newBuilder(f).setVersion(version(f.getVersion())).build();
    }

    public RunConclusion stamp(RunConclusion c) {
        return unchanged(c.getVersion()) ? c : RunConclusion.newBuilder(c).setVersion(version(c.getVersion())).build();
    }

    public RunLateness stamp(RunLateness l) {
        return unchanged(l.getVersion()) ? l : RunLateness.newBuilder(l).setVersion(version(l.getVersion())).build();
    }
}
