package dev.caplab.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The runs this data directory's caplab accepted (202) from the demo loader, one id a line. The ingest API commits a
 * run to Kafka before it answers, but the query API lists it only once the pipeline stored it; this file covers that
 * gap, so a restart of {@code caplab up} right after loading sends nothing twice.
 */
public final class DemoLedger {

    /** The file's name inside {@code caplab up}'s data directory. */
    public static final String FILE_NAME = "demo-loaded.txt";

    private final Path file;

    private DemoLedger(Path file) {
        this.file = file;
    }

    /** The ledger kept in {@code dataDir}. */
    public static DemoLedger in(Path dataDir) {
        return new DemoLedger(dataDir.resolve(FILE_NAME));
    }

    /** Run ids recorded as loaded. */
    Set<String> loaded() {
        if (!Files.exists(file)) {
            return Set.of();
        }
        try {
            Set<String> ids = new LinkedHashSet<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    ids.add(line.strip());
                }
            }
            return ids;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the demo ledger " + file, e);
        }
    }

    /** Records a run the instance accepted. */
    void record(String runId) {
        try {
            Files.writeString(file, runId + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.SYNC);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the demo ledger " + file + " after loading " + runId, e);
        }
    }
}
