package dev.caplab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.app.CaplabCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code caplab report} asks for, and how it fails without a caplab to ask. */
class ReportCommandTest {

    @Test
    void runIdsAreEncodedAsRepeatedParametersInOrder() {
        assertThat(ReportCommand.reportUri("http://h:8080/", List.of("b run&x=1", "a")).toString())
                .isEqualTo("http://h:8080/api/v1/report?run=b+run%26x%3D1&run=a");
    }

    @Test
    void anUnreachableCaplabIsNamed() {
        StringWriter err = new StringWriter();
        var cli = CaplabCli.commandLine();
        cli.setErr(new PrintWriter(err, true));
        // port 9 (discard) has no listener here
        int exit = cli.execute("report", "r1", "-o", "target/unreachable.html", "--url", "http://127.0.0.1:9");
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).contains("cannot reach caplab at http://127.0.0.1:9/api/v1/report?run=r1");
    }
}
