package dev.caplab.app.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code caplab sink}: the ClickHouse sink role alone, until Ctrl-C. */
@Command(name = "sink", mixinStandardHelpOptions = true,
        description = "Copies every caplab topic into ClickHouse in idempotent batches (offsets committed after insert).")
public final class SinkCommand implements Callable<Integer> {

    @Mixin
    ExternalOptions external;

    @Option(names = "--group", defaultValue = SinkSettings.DEFAULT_GROUP, description = "Consumer group id.")
    String group;

    @Option(names = "--health-file", paramLabel = "FILE",
            description = "Writes the role's status there every second (first word UP or DOWN), for a healthcheck.")
    java.nio.file.Path healthFile;

    /** Exits 1 (after saying so on stderr) when the sink thread stops on its own. */
    @Override
    public Integer call() throws Exception {
        HikariDataSource ds = external.clickhouse().dataSource();
        ClickHouseSink sink = ClickHouseSink.start(SinkSettings.of(external.bootstrap).withGroupId(group)
                .withKafkaSecurity(external.kafkaLogin.security()), ds);
        System.out.println("caplab sink running (" + group + ") " + external.bootstrap + " → " + external.clickhouseUrl);
        return UntilStopped.awaitWhileUp("sink", () -> java.util.List.of(sink.status()), healthFile, sink, ds);
    }
}
