package dev.caplab.query.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The report (Java) and the page (JavaScript, run by node: the same V8 engine as Chromium) write every figure of one
 * table of hand-written cases exactly as the table says, so page and report agree.
 */
class FiguresTest {

    private static final String CASES = "/figures/figures-cases.json";
    private static final Path SCRIPT = Path.of("src/main/resources/static/figures.js");

    private static JsonNode cases() throws IOException {
        try (InputStream in = FiguresTest.class.getResourceAsStream(CASES)) {
            return new ObjectMapper().readTree(in);
        }
    }

    @Test
    void reportWritesEveryCaseAsTheTableSays() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (JsonNode c : cases()) {
            String actual = java(c.get("fn").asText(), c.get("args"));
            if (!actual.equals(c.get("expect").asText())) {
                wrong.add(c.get("fn").asText() + c.get("args") + " wrote '" + actual + "', expected '"
                        + c.get("expect").asText() + "'");
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void pageWritesEveryCaseAsTheTableSays() throws Exception {
        Path cases = Path.of(FiguresTest.class.getResource(CASES).toURI());
        String program = "const F = require(process.argv[1]); const cases = require(process.argv[2]);"
                + "for (const c of cases) { const a = String(F[c.fn](...c.args));"
                + " if (a !== c.expect) console.log(c.fn + JSON.stringify(c.args) + \" wrote '\" + a"
                + " + \"', expected '\" + c.expect + \"'\"); }";
        Process node = new ProcessBuilder("node", "-e", program, SCRIPT.toAbsolutePath().toString(),
                cases.toString()).redirectErrorStream(true).start();
        assertThat(node.waitFor(30, TimeUnit.SECONDS)).as("node finished").isTrue();
        String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.exitValue()).as(out).isZero();
        assertThat(out.lines().toList()).isEmpty();
    }

    private static String java(String fn, JsonNode args) {
        return switch (fn) {
            case "number" -> Figures.number(dbl(args.get(0)));
            case "bytes" -> Figures.bytes(dbl(args.get(0)));
            case "mbps" -> Figures.mbps(dbl(args.get(0)));
            case "bitrate" -> Figures.bitrate(dbl(args.get(0)));
            case "percent" -> Figures.percent(dbl(args.get(0)));
            case "pValue" -> Figures.pValue(dbl(args.get(0)));
            case "standardError" -> Figures.standardError(dbl(args.get(0)));
            case "quantity" -> Figures.quantity(str(args.get(0)), dbl(args.get(1)));
            case "unit" -> Figures.unit(str(args.get(0)));
            case "binary" -> String.valueOf(Figures.binary(str(args.get(0))));
            case "time" -> Figures.time(args.get(0).isNull() ? null : java.time.Instant.parse(str(args.get(0))));
            case "alertKind" -> Figures.alertKind(str(args.get(0)));
            case "formula" -> Figures.formula(str(args.get(0)), dbl(args.get(1)), dbl(args.get(2)), str(args.get(3)));
            case "rule" -> Figures.rule(str(args.get(0)));
            case "planFit" -> Figures.planFit(str(args.get(0)));
            case "capacityVersusFit" -> Figures.capacityVersusFit();
            case "overMarginVersusBottleneck" -> Figures.overMarginVersusBottleneck();
            case "safeX" -> Figures.safeX(dbl(args.get(0)), dbl(args.get(1)));
            case "beyondTestedNote" -> Figures.beyondTestedNote();
            case "noResourceReadings" -> Figures.noResourceReadings(str(args.get(0)));
            default -> throw new IllegalArgumentException("no figure '" + fn + "' in Figures");
        };
    }

    private static Double dbl(JsonNode n) {
        return n == null || n.isNull() ? null : n.asDouble();
    }

    private static String str(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
    }
}
