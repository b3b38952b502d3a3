package dev.caplab.schema.serde;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.message.SchemaStore;

/**
 * Every writer schema a decoder may meet, by its single-object-encoding fingerprint (CRC-64-AVRO of the parsing
 * canonical form): the current schemas plus every released version, so data written by older caplab resolves.
 */
public final class KnownSchemas implements SchemaStore {

    private static final KnownSchemas STANDARD = build(
            java.util.stream.Stream.concat(
                    EventTypes.current().records().stream(),
                    ReleasedSchemas.all().stream().flatMap(set -> set.records().stream())).toList());

    private final Map<Long, Schema> byFingerprint;

    private KnownSchemas(Map<Long, Schema> byFingerprint) {
        this.byFingerprint = Map.copyOf(byFingerprint);
    }

    /** Current and released schemas of caplab. */
    public static KnownSchemas standard() {
        return STANDARD;
    }

    /** These writer schemas in addition to this store's, e.g. a schema from a newer caplab seen in tests. */
    public KnownSchemas plus(Collection<Schema> writerSchemas) {
        Map<Long, Schema> merged = new HashMap<>(byFingerprint);
        writerSchemas.forEach(s -> merged.putIfAbsent(fingerprint(s), s));
        return new KnownSchemas(merged);
    }

    /** The 64-bit fingerprint single-object encoding writes after its two marker bytes. */
    public static long fingerprint(Schema schema) {
        return SchemaNormalization.parsingFingerprint64(schema);
    }

    @Override
    public Schema findByFingerprint(long fingerprint) {
        return byFingerprint.get(fingerprint);
    }

    /** The full record name a fingerprint belongs to, if known. */
    public Optional<String> recordNameOf(long fingerprint) {
        return Optional.ofNullable(byFingerprint.get(fingerprint)).map(Schema::getFullName);
    }

    /** All known writer schemas of one record type, current and older. */
    public List<Schema> writersOf(String fullName) {
        return byFingerprint.values().stream().filter(s -> s.getFullName().equals(fullName)).toList();
    }

    private static KnownSchemas build(Collection<Schema> schemas) {
        Map<Long, Schema> map = new HashMap<>();
        schemas.forEach(s -> map.putIfAbsent(fingerprint(s), s));
        return new KnownSchemas(map);
    }
}
