package dev.caplab.schema.serde;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/** The named Avro types of one schema version (current or released), keyed by full name. */
public record SchemaSet(String version, Map<String, Schema> typesByFullName) {

    public SchemaSet {
        Objects.requireNonNull(version, "version");
        typesByFullName = Map.copyOf(typesByFullName);
    }

    /** The record types only: enums and fixed types are checked through the records that use them. */
    public List<Schema> records() {
        return typesByFullName.values().stream()
                .filter(s -> s.getType() == Schema.Type.RECORD)
                .sorted(java.util.Comparator.comparing(Schema::getFullName))
                .toList();
    }

    /**
     * Parses .avsc classpath resources in order with one parser, so later files may refer to types defined in
     * earlier ones (common types first), exactly as the build's avro-maven-plugin does.
     */
    static SchemaSet parseResources(String version, List<String> resourcePaths) {
        Schema.Parser parser = new Schema.Parser();
        for (String path : resourcePaths) {
            try (InputStream in = SchemaSet.class.getClassLoader().getResourceAsStream(path)) {
                if (in == null) {
                    throw new SchemaCatalogException("schema resource " + path + " of version " + version
                            + " is missing from the classpath");
                }
                parser.parse(in);
            } catch (IOException e) {
                throw new UncheckedIOException("reading schema resource " + path, e);
            } catch (SchemaParseException e) {
                throw new SchemaCatalogException("schema resource " + path + " of version " + version
                        + " does not parse: " + e.getMessage(), e);
            }
        }
        return new SchemaSet(version, new TreeMap<>(parser.getTypes()));
    }
}
