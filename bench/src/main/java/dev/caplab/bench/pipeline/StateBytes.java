package dev.caplab.bench.pipeline;

import dev.caplab.app.up.DirectorySizes;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What the Streams tier keeps for a pass, measured on disk after the stack stopped: its local state directory
 * (RocksDB stores, checkpoints) and its changelog topics in the broker's log directory (segments not yet
 * compacted included, as a broker would hold them).
 */
record StateBytes(long stateDirBytes, long changelogBytes) {

    /** Kafka names a changelog topic {@code <application.id>-<store>-changelog}; its partitions' dirs end in -N. */
    private static final String CHANGELOG_DIR = ".*-changelog-\\d+";

    /** Sizes under {@code dataDir}: {@code streams/} and the {@code kafka/} partition dirs of changelog topics. */
    static StateBytes of(Path dataDir) {
        Path kafka = dataDir.resolve("kafka");
        long changelogs = 0;
        try (Stream<Path> all = Files.exists(kafka) ? Files.walk(kafka) : Stream.empty()) {
            changelogs = all.filter(Files::isDirectory)
                    .filter(d -> d.getFileName().toString().matches(CHANGELOG_DIR))
                    .mapToLong(StateBytes::bytesUnder).sum();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot walk " + kafka, e);
        }
        return new StateBytes(bytesUnder(dataDir.resolve("streams")), changelogs);
    }

    private static long bytesUnder(Path dir) {
        return DirectorySizes.bytesUnder(dir);
    }

    void print(PrintStream out, long samples) {
        out.printf(Locale.ROOT, "state store: streams state dir %.1f MiB (%.1f bytes/sample), changelog topics %.1f MiB"
                + " (%.1f bytes/sample)%n", stateDirBytes / 1048576.0, (double) stateDirBytes / samples,
                changelogBytes / 1048576.0, (double) changelogBytes / samples);
    }
}
