package dev.caplab.app;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository root (where docker-compose.yml lives), found upwards from a test's working directory. */
public final class RepoRoot {

    private RepoRoot() {
    }

    public static Path find() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("docker-compose.yml"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("docker-compose.yml not found above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
