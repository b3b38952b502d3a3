package dev.caplab.query.format;

import dev.caplab.analysis.capacity.EgressCeilings;
import dev.caplab.schema.text.Numbers;
import dev.caplab.schema.vocabulary.MetricNames;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;

/**
 * How caplab writes a figure for people, in the report; the page's {@code static/figures.js} writes the same figures
 * the same way, and both are tested against one table of hand-written cases. Absent values (null, NaN, infinite)
 * are "–"; callers leave out a phrase whose value is absent. Rounding is half away from zero on the double's exact
 * value, as JavaScript's {@code toPrecision} and {@code toFixed} round.
 */
public final class Figures {

    /** What an absent value is written as. */
    public static final String ABSENT = Numbers.ABSENT;

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private static final String[] BINARY = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    private static final Map<String, String> RULES = Map.of(
            "SMALLEST_SAFE_CAPACITY", "its fitted line reaches the planning margin at the smallest load",
            "FIRST_STEP_OVER_MARGIN", "it was the first to reach the planning margin in a measured step");
    private static final Map<String, String> FITS = Map.of(
            "FITTING", "fits within every planning margin",
            "TIGHT", "fits only past the planning margin, under the full ceilings",
            "UNREACHABLE", "does not fit, even at the full ceilings");

    private Figures() {
    }

    /** Up to 1,000: four significant digits; to a million: whole and grouped; beyond: four digits and M, G, T, P. */
    public static String number(Double value) {
        return Numbers.written(value);
    }

    /** Bytes in binary units: "512 B", "1.5 KiB", "2.328 GiB". */
    public static String bytes(Double value) {
        if (absent(value)) {
            return ABSENT;
        }
        int i = 0;
        double scaled = value;
        while (Math.abs(scaled) >= 1024 && i < BINARY.length - 1) {
            scaled /= 1024;
            i++;
        }
        return (i == 0 ? number((double) Math.round(scaled)) : number(scaled)) + " " + BINARY[i];
    }

    /**
     * Whether {@link #quantity} writes {@code metric}'s values in binary units (KiB, MiB, GiB): an axis of such a
     * metric is round in powers of two, not of ten.
     */
    public static boolean binary(String metric) {
        String m = metric == null ? "" : metric;
        return m.endsWith(".bytes") && !m.startsWith("net.");
    }

    /** A rate already in Mbit/s. */
    public static String mbps(Double value) {
        return absent(value) ? ABSENT : number(value) + " Mbit/s";
    }

    /** A rate in bytes per second as Mbit/s: every network rate caplab shows is in Mbit/s. */
    public static String bitrate(Double bytesPerSecond) {
        return absent(bytesPerSecond) ? ABSENT : mbps(EgressCeilings.mbps(bytesPerSecond));
    }

    /** A share (0–1) as a percentage. */
    public static String percent(Double share) {
        return absent(share) ? ABSENT : number(share * 100) + " %";
    }

    /** An instant to the second, in UTC: "2026-12-05 14:39:17 UTC". */
    public static String time(Instant at) {
        return at == null ? ABSENT : TIME.format(at);
    }

    /** An alert's kind in words: "step failed", "cliff detected", "step contaminated". */
    public static String alertKind(String kind) {
        return kind == null ? ABSENT : kind.toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** A p-value: "&lt; 0.001" below it, else two significant digits. */
    public static String pValue(Double p) {
        return absent(p) ? ABSENT : p < 0.001 ? "< 0.001" : plain(p, 2);
    }

    /**
     * A standard error of a load: "&lt; 0.001" below it (an exactly straight line leaves only rounding, such as
     * 5.3e-14), else as {@link #number}.
     */
    public static String standardError(Double se) {
        return absent(se) ? ABSENT : Math.abs(se) < 0.001 ? "< 0.001" : number(se);
    }

    /** A metric's value in the metric's own unit, known from its name (counters' values are rates per second). */
    public static String quantity(String metric, Double value) {
        if (absent(value)) {
            return ABSENT;
        }
        String m = metric == null ? "" : metric;
        if (m.equals(MetricNames.K6_HTTP_REQ_DURATION)) {
            return number(value) + " ms";
        }
        if (m.startsWith("net.") && m.endsWith(".bytes")) {
            return bitrate(value);
        }
        if (m.startsWith("block.") && m.endsWith(".bytes")) {
            return bytes(value) + "/s";
        }
        if (m.endsWith(".bytes")) {
            return bytes(value);
        }
        if (m.endsWith(".mbps")) {
            return mbps(value);
        }
        if (m.endsWith(".ratio")) {
            return percent(value);
        }
        String unit = unit(m);
        String n = number(value);
        if (unit.equals("cores") && n.equals("1")) {
            return "1 core";
        }
        return unit.isEmpty() ? n : n + (unit.equals("per s") ? "/s" : " " + unit);
    }

    /** The unit {@link #quantity} writes a metric's values in, for an axis name; empty when it has none. */
    public static String unit(String metric) {
        String m = metric == null ? "" : metric;
        if (m.equals(MetricNames.K6_HTTP_REQ_DURATION)) {
            return "ms";
        }
        if (m.startsWith("net.") && m.endsWith(".bytes") || m.endsWith(".mbps")) {
            return "Mbit/s";
        }
        if (m.startsWith("block.") && m.endsWith(".bytes")) {
            return "bytes/s";
        }
        if (m.endsWith(".bytes")) {
            return "bytes";
        }
        if (m.endsWith(".cores")) {
            return "cores";
        }
        if (m.endsWith(".percent") || m.endsWith(".ratio")) {
            return "%";
        }
        if (m.endsWith(".ms")) {
            return "ms";
        }
        if (m.endsWith(".per_s")) {
            return "per s";
        }
        return m.endsWith(".packets") ? "packets/s" : "";
    }

    /** A straight line in the metric's unit against the load: "336.8 MiB + 5.2 MiB × sessions". */
    public static String formula(String metric, Double intercept, Double slope, String loadExpression) {
        if (absent(intercept) || absent(slope)) {
            return ABSENT;
        }
        String load = loadExpression == null || loadExpression.isEmpty() ? "x"
                : loadExpression.matches("[\\w.]+") ? loadExpression : "(" + loadExpression + ")";
        return quantity(metric, intercept) + (slope < 0 ? " − " : " + ") + quantity(metric, Math.abs(slope)) + " × "
                + load;
    }

    /** Why the bottleneck was named, as a clause. */
    public static String rule(String rule) {
        return rule == null ? ABSENT : RULES.getOrDefault(rule, sentenceCase(rule));
    }

    /** Why a resource's capacity line and its fit's base and slope may differ: said wherever both are shown. */
    public static String capacityVersusFit() {
        return CAPACITY_VERSUS_FIT;
    }

    private static final String CAPACITY_VERSUS_FIT = "Capacity (safe x) uses the straight line through the steps below the knee or cliff (all steps when there is none); a fit's base and slope are the fitted model's first segment, the same line only when no knee stands, so with a knee the two differ. A knee stands only when Davies' test says p < 0.05, its 95 % interval lies within the tested loads and the slope rises.";

    /**
     * Why a step's "over margin" resource may not be the run's bottleneck: said under the steps table when a step names
     * another resource than the conclusion.
     */
    public static String overMarginVersusBottleneck() {
        return OVER_MARGIN_VERSUS_BOTTLENECK;
    }

    private static final String OVER_MARGIN_VERSUS_BOTTLENECK = "“Over margin” names, in each step, the resource furthest past its planning margin in that step’s own measurements; the run’s bottleneck is the resource whose fitted line reaches its margin at the lowest load, so a step can name another resource.";

    /**
     * Whether a load a straight line gives (a safe x, a plan's safe load) lies beyond {@code testedToX}, the highest
     * load the run tested: the line extrapolated past every measured step, not a load the system was seen to hold.
     * False when either is absent.
     */
    public static boolean beyondTested(Double x, Double testedToX) {
        return !absent(x) && !absent(testedToX) && x > testedToX;
    }

    /** A load a straight line gives: "≈ 172.4 (beyond the tested 19)" when {@link #beyondTested}, else the number. */
    public static String safeX(Double x, Double testedToX) {
        return beyondTested(x, testedToX) ? "≈ " + number(x) + " (beyond the tested " + number(testedToX) + ")"
                : number(x);
    }

    /** What the mark of {@link #safeX} means: said under a table or sentence that shows one. */
    public static String beyondTestedNote() {
        return BEYOND_TESTED_NOTE;
    }

    private static final String BEYOND_TESTED_NOTE = "≈ marks a load beyond the highest load the run tested: the straight line through its steps extrapolated, not a load the system was seen to hold.";

    /**
     * What a run whose steps hold no reading of any resource (only the load tool's) lacks and what to send for it:
     * said where its resource charts and its capacity plan would be.
     */
    public static String noResourceReadings(String runId) {
        return "this run holds only the load tool's readings, no CPU, memory or network of the system under test. Run a host sampler (caplab sample --run " + runId + ") on the server, or send its node_exporter, docker stats or process-exporter readings beside the load, to see what runs out first and get a capacity plan.";
    }

    /** What a capacity plan says of a profile on a tier, as a clause. */
    public static String planFit(String fit) {
        return fit == null ? ABSENT : FITS.getOrDefault(fit, sentenceCase(fit));
    }

    private static String sentenceCase(String name) {
        return name.toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static boolean absent(Double value) {
        return Numbers.absent(value);
    }

    private static String plain(double v, int significant) {
        return Numbers.plain(v, significant);
    }
}
