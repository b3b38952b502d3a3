package dev.caplab.ingest.locust;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Finds the files of one {@code --csv PREFIX} run, given the prefix or any one of its files. */
public final class LocustFiles {

    private LocustFiles() {
    }

    /** The prefix of a path: {@code out_stats.csv} and {@code out} both give {@code out}. */
    public static Path prefixOf(Path given) {
        String name = given.getFileName().toString();
        for (LocustFile file : LocustFile.values()) {
            if (name.endsWith(file.suffix())) {
                return given.resolveSibling(name.substring(0, name.length() - file.suffix().length()));
            }
        }
        return given;
    }

    /** The files of that run which exist, history first (the only one that grows while Locust runs). */
    public static Map<LocustFile, Path> existing(Path given) {
        Path prefix = prefixOf(given);
        Map<LocustFile, Path> found = new LinkedHashMap<>();
        for (LocustFile file : LocustFile.values()) {
            Path path = prefix.resolveSibling(prefix.getFileName() + file.suffix());
            if (Files.isRegularFile(path)) {
                found.put(file, path);
            }
        }
        return found;
    }

    /** Whether a path names a Locust run (one of its files, or a prefix with files). */
    public static boolean isLocustRun(Path given) {
        return !existing(given).isEmpty();
    }
}
