package dev.caplab.app;

import dev.caplab.app.cli.FitCommand;
import dev.caplab.app.up.UpCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code caplab} command line: {@code caplab up} runs everything in one JVM; each role can also run alone. */
@Command(name = "caplab",
        mixinStandardHelpOptions = true,
        versionProvider = CaplabVersion.class,
        description = "Event-sourced pipeline for capacity testing: ingest load-test results, fit capacity, compare tiers.",
        subcommands = {
                UpCommand.class,
                dev.caplab.app.cli.ServeCommand.class,
                dev.caplab.app.cli.MigrateCommand.class,
                FitCommand.class,
                dev.caplab.app.cli.RunCommand.class, dev.caplab.app.cli.StepCommand.class, dev.caplab.app.cli.StepperCommand.class,
                dev.caplab.app.cli.StreamsCommand.class, dev.caplab.app.cli.SinkCommand.class,
                dev.caplab.app.cli.RebuildCommand.class, dev.caplab.app.cli.ReportCommand.class,
                dev.caplab.app.cli.IngestCommand.class, dev.caplab.app.cli.SampleCommand.class,
                CommandLine.HelpCommand.class
        })
public final class CaplabCli {

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, shared by {@link #main} and tests. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new CaplabCli());
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println(commandLine.getColorScheme().errorText("caplab: " + describe(e)));
            return 1;
        });
        return cli;
    }

    private static String describe(Throwable e) {
        StringBuilder message = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable cause = e.getCause(); cause != null && cause != e; cause = cause.getCause()) {
            if (cause.getMessage() != null && !message.toString().contains(cause.getMessage())) {
                message.append(": ").append(cause.getMessage());
            }
        }
        return message.toString();
    }
}
