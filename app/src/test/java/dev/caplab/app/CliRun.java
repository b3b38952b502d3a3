package dev.caplab.app;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One {@code caplab} command line run in-process, as a user's shell would: its exit code and what it printed. */
public record CliRun(int exit, String out, String err) {

    public static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = CaplabCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }
}
