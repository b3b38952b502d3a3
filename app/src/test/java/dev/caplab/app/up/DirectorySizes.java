package dev.caplab.app.up;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Bytes on disk under a directory, for soak tests and benches that report what the stack keeps. */
public final class DirectorySizes {

    private DirectorySizes() {
    }

    /** The sum of the regular files' sizes under {@code dir}; 0 when it does not exist. */
    public static long bytesUnder(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            // RocksDB and the broker delete files while we walk: a vanished file counts 0.
            return files.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException("sizing " + dir, e);
        }
    }
}
