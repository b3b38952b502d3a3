package dev.caplab.store.engine;

import java.nio.file.Path;

/** Child JVM for the restart test: writes rows and exits, or reopens the same dir and reads them. */
public final class RestartChild {

    private RestartChild() {
    }

    public static void main(String[] args) {
        ChdbEngine engine = ChdbEngine.open(ChdbLibrary.locate(), Path.of(args[0]));
        if ("write".equals(args[1])) {
            engine.query("CREATE TABLE kept (n UInt64) ENGINE = MergeTree ORDER BY n", "CSV");
            engine.query("INSERT INTO kept SELECT number FROM system.numbers LIMIT 1000", "CSV");
            System.out.println("wrote " + engine.query("SELECT count() FROM kept", "CSV").text().strip());
        } else {
            String r = engine.query("SELECT count(), sum(n) FROM kept", "TabSeparated").text().strip();
            System.out.println("read " + r.replace('\t', ' '));
        }
        engine.close();
    }
}
