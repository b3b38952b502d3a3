package dev.caplab.store.schema;

import java.util.List;
import java.util.Objects;

/**
 * One versioned DDL file, e.g. {@code V001__runs_and_steps.sql}.
 *
 * @param version    the number after V, applied in ascending order
 * @param name       the file name
 * @param sha256Hex  checksum of the file, recorded so an edited, already applied file is detected
 * @param statements the file's statements, comments removed
 */
public record Migration(int version, String name, String sha256Hex, List<String> statements) {

    public Migration {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(sha256Hex, "sha256Hex");
        statements = List.copyOf(statements);
        if (version < 1) {
            throw new IllegalArgumentException("migration version must be >= 1: " + name);
        }
        if (statements.isEmpty()) {
            throw new IllegalArgumentException("migration has no statements: " + name);
        }
    }
}
