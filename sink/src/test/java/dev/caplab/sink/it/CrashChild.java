package dev.caplab.sink.it;

import com.zaxxer.hikari.HikariDataSource;
import dev.caplab.store.access.StoreDataSources;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.StreamsSettings;
import dev.caplab.streams.TopologySettings;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The streams app, and optionally the sink, in a JVM of their own ({@link ChildJvm}), so a fault test can kill them
 * with SIGKILL. The sink reaches the parent's ClickHouse over HTTP (chDB allows one engine per process). The child
 * never exits by itself.
 */
public final class CrashChild {

    /** Printed once every role runs, so the parent knows the child is live. */
    static final String READY = "caplab-crash-child running";
    static final String APPLICATION_ID = "caplab-crash-streams";
    static final String SINK_GROUP = "caplab-crash-sink";

    private CrashChild() {
    }

    /** Arguments: bootstrap servers, streams state directory, then for the sink: ClickHouse JDBC URL, user, password. */
    public static void main(String[] args) throws Exception {
        if (args.length != 2 && args.length != 5) {
            throw new IllegalArgumentException("usage: CrashChild <bootstrap> <stateDir> [<jdbcUrl> <user> <password>],"
                    + " got " + args.length + " arguments");
        }
        StreamsRunner streams = StreamsRunner.start(settings(args[0], Path.of(args[1])));
        ClickHouseSink sink = null;
        if (args.length == 5) {
            HikariDataSource ds = StoreDataSources.create(args[2], args[3], args[4]);
            sink = ClickHouseSink.start(SinkSettings.of(args[0]).withGroupId(SINK_GROUP), ds);
        }
        streams.awaitRunning(Duration.ofSeconds(120));
        System.out.println(READY);
        System.out.flush();
        while (true) {
            Thread.sleep(1000);
            if (sink != null && sink.failure() != null) {
                sink.failure().printStackTrace();
                System.exit(3); // the parent sees the exit code instead of waiting for rows that never come
            }
            if (streams.state() == KafkaStreams.State.ERROR
                    || streams.state() == KafkaStreams.State.NOT_RUNNING) {
                System.out.println("caplab streams stopped: " + streams.state());
                System.exit(4);
            }
        }
    }

    /** Runs streams and the sink, the sink into the parent's ClickHouse database. */
    static ChildJvm streamsAndSink(ItEnvironment env, String name, Path stateDir) throws IOException {
        return ChildJvm.start(env.dir(), name, CrashChild.class, List.of(env.bootstrap(), stateDir.toString(),
                env.db().jdbcUrl(), EmbeddedClickHouse.shared().user(),
                EmbeddedClickHouse.shared().password()));
    }

    /** Runs one streams instance of {@link #APPLICATION_ID} only. */
    static ChildJvm streamsOnly(ItEnvironment env, String name, Path stateDir) throws IOException {
        return ChildJvm.start(env.dir(), name, CrashChild.class, List.of(env.bootstrap(), stateDir.toString()));
    }

    static StreamsSettings settings(String bootstrap, Path stateDir) {
        return new StreamsSettings(bootstrap, APPLICATION_ID, stateDir, Duration.ofMillis(200), 1,
                TopologySettings.defaults().withGrace(Duration.ofSeconds(2)));
    }
}
