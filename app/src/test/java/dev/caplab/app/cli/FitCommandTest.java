package dev.caplab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.app.CaplabCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code caplab fit} in-process on EP19's 1-vCPU table (seed 002 §3.1), with repeated samples at 19 sessions. */
class FitCommandTest {

    private static Path fixture() throws URISyntaxException {
        return Path.of(FitCommandTest.class.getResource("/cli/ep19-1vcpu.csv").toURI());
    }

    private record Run(int exit, String out, String err) {}

    private static Run run(String... args) {
        CommandLine cli = CaplabCli.commandLine();
        StringWriter out = new StringWriter(), err = new StringWriter();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static double field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":(-?[0-9.eE+-]+)").matcher(json);
        assertThat(m.find()).as("field " + name + " in " + json).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void jsonReportsTheCliffBetween18And19WithItsExtrapolationError() throws Exception {
        Run r = run("fit", "--csv", fixture().toString(), "--x", "sessions", "--y", "cpu_percent", "--format", "json",
                "--ceiling", "100");
        assertThat(r.exit()).as(r.err()).isZero();
        String json = r.out();
        assertThat(json).contains("\"modelName\":\"caplab-resource-fit\"", "\"chosenModel\":\"linear\"",
                "\"detected\":true", "\"breakpoints\":[]");
        assertThat(field(json, "steps")).isEqualTo(5);
        assertThat(field(json, "lastStableX")).isEqualTo(18);
        assertThat(field(json, "x")).isEqualTo(19);
        // Report: the 10-18 slope predicts "about 48-55 %"; measured 88-103 %.
        assertThat(field(json, "predicted")).isBetween(48.0, 55.0);
        assertThat(field(json, "measuredMin")).isEqualTo(88);
        assertThat(field(json, "measuredMax")).isEqualTo(103);
        assertThat(field(json, "breakpointExistencePValue")).isBetween(0.0, 1.0);
        assertThat(field(json, "safeX")).isCloseTo(18, within(1e-9));
    }

    @Test
    void textNamesModelPValueAndCliff() throws Exception {
        Run r = run("fit", "--csv", fixture().toString(), "--x", "sessions", "--y", "cpu_percent");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("model: linear", "existence p-value", "cliff: yes between x = 18.0000 and 19.0000",
                "measured 88.0000 … 103.000");
    }

    @Test
    void anUnknownColumnFailsWithTheHeaderInTheMessage() throws Exception {
        Run r = run("fit", "--csv", fixture().toString(), "--x", "users", "--y", "cpu_percent");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("no column users", "sessions");
    }
}
