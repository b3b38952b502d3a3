package dev.caplab.app.cli;

import dev.caplab.analysis.Finite;
import static dev.caplab.analysis.Finite.orNaN;

import dev.caplab.schema.vocabulary.Planning;
import dev.caplab.analysis.CapacityAnalysis;
import dev.caplab.analysis.FitOptions;
import dev.caplab.analysis.ResourceFit;
import dev.caplab.analysis.capacity.CapacityEstimate;
import dev.caplab.analysis.cliff.ExtrapolationError;
import dev.caplab.analysis.fit.CandidateScore;
import dev.caplab.analysis.fit.StepPoint;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.Segment;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code caplab fit --csv FILE --x COL --y COL}: fits any table (numbers copied from an old report will do)
 * with {@link CapacityAnalysis#fitResource} and prints the chosen model, breakpoints with intervals, the
 * existence p-value, slopes and the cliff flag. JSON field names are a stable contract (analysis/README.md).
 */
@Command(name = "fit", mixinStandardHelpOptions = true,
        description = "Fit resource vs load from a CSV: linear or segmented by BIC, breakpoints, cliff, capacity.")
public final class FitCommand implements Callable<Integer> {
    /** Output formats. */
    public enum Format { json, text }

    /** The CSV cannot be fitted as asked: names the file, line and column. */
    public static final class FitInputException extends RuntimeException {
        public FitInputException(String message) {
            super(message);
        }
    }

    @Spec
    private CommandSpec spec;

    @Option(names = "--csv", required = true, description = "CSV file with a header row")
    private Path csv;

    @Option(names = "--x", required = true, description = "column holding the load (x)")
    private String xColumn;

    @Option(names = "--y", required = true, description = "column holding the resource (y)")
    private String yColumn;

    @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
    private Format format;

    @Option(names = "--ceiling", description = "node ceiling C in y's unit, to report safe capacity")
    private Double ceiling;

    @Option(names = "--margin", defaultValue = Planning.DEFAULT_MARGIN_TEXT, description = "planning margin (default: ${DEFAULT-VALUE})")
    private double margin;

    @Override
    public Integer call() throws IOException {
        List<StepPoint> points = read(csv, xColumn, yColumn);
        FitOptions options = FitOptions.defaults(yColumn).withMargin(margin);
        ResourceFit fit = CapacityAnalysis.fitResource(points, ceiling == null ? options : options.withCeiling(ceiling));
        PrintWriter out = spec.commandLine().getOut();
        out.println(format == Format.json ? json(fit) : text(fit));
        out.flush();
        return 0;
    }

    /** Reads (x, y) per row; rows with the same x are repeated samples of one step. */
    static List<StepPoint> read(Path file, String xCol, String yCol) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            throw new FitInputException(file + ": empty file, expected a header row");
        }
        List<String> header = Arrays.stream(lines.getFirst().split(",", -1)).map(String::strip).toList();
        int xi = header.indexOf(xCol), yi = header.indexOf(yCol);
        if (xi < 0 || yi < 0) {
            throw new FitInputException(file + ": no column " + (xi < 0 ? xCol : yCol) + " in header " + header);
        }
        List<StepPoint> points = new ArrayList<>();
        for (int n = 1; n < lines.size(); n++) {
            if (lines.get(n).isBlank()) {
                continue;
            }
            String[] f = lines.get(n).split(",", -1);
            points.add(StepPoint.of(number(file, n, f, xi, xCol), number(file, n, f, yi, yCol)));
        }
        return points;
    }

    private static double number(Path file, int line, String[] fields, int index, String column) {
        if (index >= fields.length) {
            throw new FitInputException(file + ":" + (line + 1) + ": missing column " + column);
        }
        try {
            return Double.parseDouble(fields[index].strip());
        } catch (NumberFormatException e) {
            throw new FitInputException(file + ":" + (line + 1) + ": column " + column + " is not a number: '"
                    + fields[index].strip() + "'");
        }
    }

    private String text(ResourceFit f) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "model: %s (%s v%s), %d steps, R² %.4f%n", f.chosen().modelName(),
                f.modelName(), f.modelVersion(), f.stepCount(), f.chosen().rSquared()));
        b.append(String.format(Locale.ROOT, "breakpoint existence p-value (Davies): %s%n",
                num(f.breakpointExistencePValue())));
        for (Breakpoint bp : f.breakpoints()) {
            b.append(String.format(Locale.ROOT, "breakpoint: x = %s ± %s (95%% %s … %s)%n", num(bp.getX()),
                    num(orNaN(bp.getStdErr())), num(orNaN(bp.getLower95())), num(orNaN(bp.getUpper95()))));
        }
        for (Segment s : f.segments()) {
            b.append(String.format(Locale.ROOT, "segment [%s, %s]: y = %s + %s·x (slope SE %s)%n", num(s.getFromX()),
                    num(s.getToX()), num(s.getIntercept()), num(s.getSlope()), num(orNaN(s.getSlopeStdErr()))));
        }
        b.append(String.format(Locale.ROOT, "cliff: %s", f.cliff().cliff() ? "yes" : "no"));
        if (f.cliff().cliff()) {
            ExtrapolationError e = f.cliff().extrapolation().orElseThrow();
            b.append(String.format(Locale.ROOT, " between x = %s and %s (%s); predicted %s (%s … %s), measured %s … %s",
                    num(f.cliff().lastStableX()), num(f.cliff().cliffX()), f.cliff().reason(), num(e.predicted()),
                    num(e.predictedLower()), num(e.predictedUpper()), num(e.measuredMin()), num(e.measuredMax())));
        }
        f.capacity().ifPresent(c -> b.append(String.format(Locale.ROOT, "%ncapacity: x_max %s at margin %s, safe %s%s",
                num(c.xMax()), num(c.margin()), num(c.safeX()), c.cappedByCliff() ? " (capped by cliff)" : "")));
        return b.toString();
    }

    private static String json(ResourceFit f) {
        Json j = new Json();
        j.str("modelName", f.modelName()).str("modelVersion", f.modelVersion()).str("resource", f.resource())
                .num("steps", f.stepCount()).str("chosenModel", f.chosen().modelName())
                .str("chosenModelVersion", f.chosen().modelVersion()).num("rSquared", f.chosen().rSquared())
                .num("residualStdErr", f.chosen().residuals().residualStdErr())
                .num("breakpointExistencePValue", f.breakpointExistencePValue());
        j.array("breakpoints", f.breakpoints().stream().map(bp -> new Json().num("x", bp.getX())
                .num("stdErr", orNaN(bp.getStdErr())).num("lower95", orNaN(bp.getLower95()))
                .num("upper95", orNaN(bp.getUpper95()))).toList());
        j.array("segments", f.segments().stream().map(s -> new Json().num("fromX", s.getFromX())
                .num("toX", s.getToX()).num("intercept", s.getIntercept())
                .num("interceptStdErr", orNaN(s.getInterceptStdErr())).num("slope", s.getSlope())
                .num("slopeStdErr", orNaN(s.getSlopeStdErr())).num("slopeLower95", orNaN(s.getSlopeLower95()))
                .num("slopeUpper95", orNaN(s.getSlopeUpper95()))).toList());
        j.array("candidates", f.candidates().stream().map((CandidateScore c) -> new Json().str("model", c.modelName())
                .str("status", c.status().name()).num("bic", c.bic())).toList());
        j.obj("preKnee", new Json().num("base", f.preKnee().base()).num("baseStdErr", f.preKnee().baseStdErr())
                .num("slope", f.preKnee().slope()).num("slopeStdErr", f.preKnee().slopeStdErr())
                .num("steps", f.preKneeSteps()));
        Json cliff = new Json().bool("detected", f.cliff().cliff()).str("reason", f.cliff().reason().name())
                .num("x", f.cliff().cliffX()).num("lastStableX", f.cliff().lastStableX())
                .num("slopeRatio", f.cliff().slopeRatio());
        f.cliff().extrapolation().ifPresent(e -> cliff.num("predicted", e.predicted())
                .num("predictedLower95", e.predictedLower()).num("predictedUpper95", e.predictedUpper())
                .num("measuredMean", e.measuredMean()).num("measuredMin", e.measuredMin())
                .num("measuredMax", e.measuredMax()));
        j.obj("cliff", cliff);
        f.capacity().ifPresent((CapacityEstimate c) -> j.obj("capacity", new Json().num("ceiling", c.ceiling())
                .num("margin", c.margin()).num("xMax", c.xMax()).num("xMaxStdErr", c.xMaxStdErr())
                .num("xAtFullCeiling", c.xAtFullCeiling()).bool("cappedByCliff", c.cappedByCliff())
                .num("safeX", c.safeX())));
        return j.toString();
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "n/a";
    }

    /** A flat JSON object writer: enough for this report, and keeps the CLI free of a JSON library choice. */
    private static final class Json {
        private final StringJoiner fields = new StringJoiner(",", "{", "}");

        Json str(String k, String v) {
            fields.add(quote(k) + ":" + quote(v));
            return this;
        }

        /** Non-finite numbers (no test possible, no peak) are written as null: JSON has no NaN. */
        Json num(String k, double v) {
            fields.add(quote(k) + ":" + (Double.isFinite(v) ? (v == Math.rint(v) && Math.abs(v) < 1e15
                    ? String.valueOf((long) v) : String.valueOf(v)) : "null"));
            return this;
        }

        Json bool(String k, boolean v) {
            fields.add(quote(k) + ":" + v);
            return this;
        }

        Json obj(String k, Json v) {
            fields.add(quote(k) + ":" + v);
            return this;
        }

        Json array(String k, List<Json> vs) {
            StringJoiner a = new StringJoiner(",", "[", "]");
            vs.forEach(v -> a.add(v.toString()));
            fields.add(quote(k) + ":" + a);
            return this;
        }

        private static String quote(String s) {
            return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        }

        @Override
        public String toString() {
            return fields.toString();
        }
    }
}
