package dev.caplab.schema.serde;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every schema version caplab has released, read from {@code released/index.txt} on the classpath. Kept in the
 * repository so decoders can resolve data written by any earlier version and the compatibility test can check
 * every current schema against all of them.
 */
public final class ReleasedSchemas {

    static final String INDEX = "released/index.txt";

    private ReleasedSchemas() {
    }

    /** All released versions, oldest first. */
    public static List<SchemaSet> all() {
        Map<String, List<String>> filesByVersion = new LinkedHashMap<>();
        try (InputStream in = ReleasedSchemas.class.getClassLoader().getResourceAsStream(INDEX)) {
            if (in == null) {
                throw new SchemaCatalogException(INDEX + " is missing from the classpath");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            int lineNumber = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                String[] parts = trimmed.split("\\s+");
                if (parts.length != 2) {
                    throw new SchemaCatalogException(INDEX + " line " + lineNumber
                            + ": expected '<version> <file>', got '" + trimmed + "'");
                }
                filesByVersion.computeIfAbsent(parts[0], v -> new ArrayList<>())
                        .add("released/" + parts[0] + "/" + parts[1]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + INDEX, e);
        }
        return filesByVersion.entrySet().stream()
                .map(e -> SchemaSet.parseResources(e.getKey(), e.getValue()))
                .toList();
    }
}
