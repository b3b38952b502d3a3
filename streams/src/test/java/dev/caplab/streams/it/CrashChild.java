package dev.caplab.streams.it;

import com.zaxxer.hikari.HikariDataSource;
import dev.caplab.store.access.StoreDataSources;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.StreamsSettings;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.sink.ClickHouseSink;
import dev.caplab.streams.sink.SinkSettings;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The streams app and the sink in a JVM of their own, so {@link CrashRecoveryIT} can kill both with SIGKILL: no
 * close, no final commit, no transaction abort, exactly what a crashed node leaves behind. It reaches the parent's
 * ClickHouse over HTTP (chDB allows one engine per process) and never exits by itself.
 */
public final class CrashChild {

    /** Printed once both roles run, so the parent knows the child is live. */
    static final String READY = "caplab-crash-child running";
    static final String APPLICATION_ID = "caplab-crash-streams";
    static final String SINK_GROUP = "caplab-crash-sink";

    private CrashChild() {
    }

    /** Arguments: bootstrap servers, ClickHouse JDBC URL, user, password, streams state directory. */
    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            throw new IllegalArgumentException("usage: CrashChild <bootstrap> <jdbcUrl> <user> <password> <stateDir>,"
                    + " got " + args.length + " arguments");
        }
        HikariDataSource ds = StoreDataSources.create(args[1], args[2], args[3]);
        StreamsRunner streams = StreamsRunner.start(settings(args[0], Path.of(args[4])));
        ClickHouseSink sink = ClickHouseSink.start(SinkSettings.of(args[0]).withGroupId(SINK_GROUP), ds);
        streams.awaitRunning(Duration.ofSeconds(120));
        System.out.println(READY);
        System.out.flush();
        while (true) {
            Thread.sleep(1000);
            if (sink.failure() != null) {
                sink.failure().printStackTrace();
                System.exit(3); // the parent sees the exit code instead of waiting for rows that never come
            }
        }
    }

    static StreamsSettings settings(String bootstrap, Path stateDir) {
        return new StreamsSettings(bootstrap, APPLICATION_ID, stateDir, Duration.ofMillis(200), 1,
                TopologySettings.defaults().withGrace(Duration.ofSeconds(2)));
    }
}
