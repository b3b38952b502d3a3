package dev.caplab.app.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.caplab.store.access.StoreDataSources;
import dev.caplab.streams.sink.ClickHouseSink;
import dev.caplab.streams.sink.SinkSettings;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code caplab sink}: the ClickHouse sink role alone, until Ctrl-C. */
@Command(name = "sink", mixinStandardHelpOptions = true,
        description = "Copies every caplab topic into ClickHouse in idempotent batches (offsets committed after insert).")
public final class SinkCommand implements Callable<Integer> {

    @Option(names = "--bootstrap", required = true, paramLabel = "HOST:PORT", description = "Kafka bootstrap servers.")
    String bootstrap;

    @Option(names = "--clickhouse", required = true, paramLabel = "JDBC_URL",
            description = "ClickHouse JDBC URL, e.g. jdbc:clickhouse:http://localhost:8123/caplab.")
    String jdbcUrl;

    @Option(names = "--user", defaultValue = "default", description = "ClickHouse user (default: ${DEFAULT-VALUE}).")
    String user;

    @Option(names = "--password", defaultValue = "", description = "ClickHouse password.")
    String password;

    @Option(names = "--group", defaultValue = SinkSettings.DEFAULT_GROUP, description = "Consumer group id.")
    String group;

    @Override
    public Integer call() throws Exception {
        HikariDataSource ds = StoreDataSources.create(jdbcUrl, user, password);
        ClickHouseSink sink = ClickHouseSink.start(SinkSettings.of(bootstrap).withGroupId(group), ds);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            sink.close();
            ds.close();
            stopped.countDown();
        }));
        System.out.println("caplab sink running (" + group + ") " + bootstrap + " → " + jdbcUrl);
        stopped.await();
        return sink.failure() == null ? 0 : 1;
    }
}
