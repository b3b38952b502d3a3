package dev.caplab.query.compare;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What would make a conclusion from a comparison wrong: a curve from one tier read as another's (seed 002: halving
 * the 2 vCPU line predicted 35 on 1 vCPU, 18 was measured), missing measured egress, the same vCPU count diverging
 * across providers (hidden network throttling), and runs of different systems or load expressions read as one
 * series. Tier and provider claims are drawn only inside a {@link Cohort}: a 1 vCPU node of another server or
 * under another x says nothing about this one's provider.
 */
final class ComparisonWarnings {

    /** Above this ratio of max stable loads, the same tier on two providers is not "noise". */
    static final double PROVIDER_DIVERGENCE_RATIO = 2.0;
    /** A warning about many runs names this many of them and counts the rest. */
    static final int RUNS_NAMED = 5;

    private ComparisonWarnings() {
    }

    /** Everything a reader must see: how the runs split into cohorts, then each cohort's own warnings. */
    static List<String> of(List<Cohort> cohorts) {
        List<String> out = new ArrayList<>(across(cohorts));
        for (Cohort cohort : cohorts) {
            // one cohort reads exactly as before; several say whose warning each one is
            cohort.warnings().forEach(w -> out.add(cohorts.size() == 1 ? w : cohort.label() + ": " + w));
        }
        return out;
    }

    /** Says when the runs span systems or load expressions, and that no claim is drawn across them. */
    static List<String> across(List<Cohort> cohorts) {
        List<String> out = new ArrayList<>();
        TreeSet<String> suts = cohorts.stream().map(Cohort::sutName).collect(Collectors.toCollection(TreeSet::new));
        if (suts.size() > 1) {
            out.add("runs test different systems " + suts + ": they are compared per system and load expression"
                    + " (see cohorts); no provider or tier claim is drawn across systems");
        }
        Map<String, TreeSet<String>> expressionsBySut = cohorts.stream().collect(Collectors.groupingBy(
                Cohort::sutName, TreeMap::new,
                Collectors.mapping(Cohort::loadExpression, Collectors.toCollection(TreeSet::new))));
        expressionsBySut.forEach((sut, expressions) -> {
            if (expressions.size() > 1) {
                out.add("runs of " + sut + " use different load expressions " + expressions + ": their x, slopes"
                        + " and capacities are not comparable, so provider and tier claims are drawn only within one"
                        + " load expression (see cohorts)");
            }
        });
        return out;
    }

    /** Warnings and claims among runs of one cohort (one system, one load expression). */
    static List<String> within(List<ComparisonRow> rows) {
        List<String> out = new ArrayList<>();
        TreeSet<String> tiers = distinct(rows, r -> Objects.requireNonNullElse(r.tier(), "unknown tier"));
        if (tiers.size() > 1) {
            out.add("runs span tiers " + tiers + ": a curve measured on one tier must not be extrapolated to another"
                    + " (a cliff arrives earlier on fewer cores); compare the measured runs side by side and"
                    + " re-measure on any tier not listed");
        }
        out.addAll(missingEgress(rows));
        // "the same 2 vCPU spec gave 5x different capacity by provider" (seed 002): group by vCPU count
        Map<Double, List<ComparisonRow>> byVcpu = rows.stream().filter(r -> r.vcpu() != null && r.maxStableX() != null)
                .collect(Collectors.groupingBy(ComparisonRow::vcpu, TreeMap::new, Collectors.toList()));
        byVcpu.forEach((vcpu, same) -> {
            ComparisonRow lo = same.stream().min(Comparator.comparingDouble(ComparisonRow::maxStableX)).orElseThrow();
            ComparisonRow hi = same.stream().max(Comparator.comparingDouble(ComparisonRow::maxStableX)).orElseThrow();
            if (!Objects.equals(lo.provider(), hi.provider()) && lo.maxStableX() > 0
                    && hi.maxStableX() / lo.maxStableX() >= PROVIDER_DIVERGENCE_RATIO) {
                out.add(String.format(Locale.ROOT, "%s vCPU nodes hold %.0f on %s but %.0f on %s (%.1fx): the same"
                                + " spec differs by provider; check measured egress and what hit first (%s vs %s)",
                        new DecimalFormat("0.##", DecimalFormatSymbols.getInstance(Locale.ROOT)).format(vcpu),
                        hi.maxStableX(), hi.provider(), lo.maxStableX(), lo.provider(),
                        hi.maxStableX() / lo.maxStableX(), hi.bottleneck(), lo.bottleneck()));
            }
        });
        return out;
    }

    /**
     * One warning per reason a run's egress cannot be planned from (none at all; only a nominal figure), counting the
     * runs and naming the first {@value #RUNS_NAMED} of them, so a comparison of many runs stays readable.
     */
    static List<String> missingEgress(List<ComparisonRow> rows) {
        List<ComparisonRow> bare = rows.stream()
                .filter(r -> r.measuredEgressMbps() == null && r.nominalEgressMbps() == null).toList();
        List<ComparisonRow> nominalOnly = rows.stream()
                .filter(r -> r.measuredEgressMbps() == null && r.nominalEgressMbps() != null).toList();
        List<String> out = new ArrayList<>();
        if (!bare.isEmpty()) {
            out.add(runsOf(bare, rows.size()) + " no measured egress nor a nominal one: egress cannot be planned"
                    + " until it is measured (iperf3)");
        }
        if (!nominalOnly.isEmpty()) {
            TreeSet<Double> nominals = nominalOnly.stream().map(ComparisonRow::nominalEgressMbps)
                    .collect(Collectors.toCollection(TreeSet::new));
            DecimalFormat mbps = new DecimalFormat("0.##", DecimalFormatSymbols.getInstance(Locale.ROOT));
            String figures = nominals.stream().map(n -> mbps.format(n) + " Mbps")
                    .collect(Collectors.joining(", "));
            out.add(runsOf(nominalOnly, rows.size()) + " no measured egress, only a nominal one (" + figures
                    + "), which may be far above what the provider delivers; measure it (iperf3) before planning");
        }
        return out;
    }

    /** "3 of 50 runs (a, b, c) have", "1 of 2 runs (a) has", "7 of 7 runs (a, b, c, d, e and 2 more) have". */
    private static String runsOf(List<ComparisonRow> runs, int total) {
        String named = runs.stream().limit(RUNS_NAMED).map(ComparisonRow::runId).collect(Collectors.joining(", "));
        if (runs.size() > RUNS_NAMED) {
            named += " and " + (runs.size() - RUNS_NAMED) + " more";
        }
        return runs.size() + " of " + total + (total == 1 ? " run (" : " runs (") + named + ")"
                + (runs.size() == 1 ? " has" : " have");
    }

    private static TreeSet<String> distinct(List<ComparisonRow> rows, Function<ComparisonRow, String> key) {
        return rows.stream().map(key).collect(Collectors.toCollection(TreeSet::new));
    }
}
