package dev.caplab.store.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Finds libchdb.so the way scripts/fetch-chdb.sh caches it, or where the user points. */
public final class ChdbLibrary {

    /** The chDB version scripts/fetch-chdb.sh fetches by default. */
    public static final String DEFAULT_VERSION = "26.5.3";
    /** System property naming libchdb.so explicitly. */
    public static final String LIB_PROPERTY = "caplab.chdb.lib";
    /** Environment variable naming libchdb.so explicitly. */
    public static final String LIB_ENV = "CAPLAB_CHDB_LIB";
    /** The command that fills the cache. */
    public static final String FETCH_COMMAND = "bash scripts/fetch-chdb.sh";

    private ChdbLibrary() {
    }

    /** Locates libchdb.so from the JVM's properties and environment, or fails naming the fetch command. */
    public static Path locate() {
        return locate(System.getProperties().entrySet().stream()
                        .collect(java.util.stream.Collectors.toMap(e -> String.valueOf(e.getKey()),
                                e -> String.valueOf(e.getValue()))),
                System.getenv());
    }

    /** Locates libchdb.so from explicit properties and environment (testable without touching the process). */
    public static Path locate(Map<String, String> properties, Map<String, String> env) {
        Optional<Path> explicit = nonBlank(properties.get(LIB_PROPERTY)).or(() -> nonBlank(env.get(LIB_ENV)))
                .map(Path::of);
        if (explicit.isPresent()) {
            Path lib = explicit.get();
            if (!Files.isRegularFile(lib)) {
                throw new EngineException("libchdb.so not found at " + lib + " (set by -D" + LIB_PROPERTY
                        + " or " + LIB_ENV + "); fetch it with: " + FETCH_COMMAND);
            }
            return lib;
        }
        String version = nonBlank(properties.get("caplab.chdb.version")).orElse(DEFAULT_VERSION);
        Path cached = cacheRoot(env, properties.getOrDefault("user.home", "")).resolve(version)
                .resolve("libchdb.so");
        if (!Files.isRegularFile(cached)) {
            throw new EngineException("libchdb.so " + version + " not found at " + cached
                    + "; fetch it with: " + FETCH_COMMAND + " (or point -D" + LIB_PROPERTY + " / "
                    + LIB_ENV + " at an existing copy)");
        }
        return cached;
    }

    /** Mirrors the script: CAPLAB_CHDB_CACHE, else XDG_CACHE_HOME/caplab/chdb, else ~/.cache/caplab/chdb. */
    static Path cacheRoot(Map<String, String> env, String userHome) {
        return nonBlank(env.get("CAPLAB_CHDB_CACHE")).map(Path::of)
                .orElseGet(() -> nonBlank(env.get("XDG_CACHE_HOME")).map(Path::of)
                        .orElseGet(() -> Path.of(userHome, ".cache"))
                        .resolve("caplab").resolve("chdb"));
    }

    private static Optional<String> nonBlank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }
}
