package dev.caplab.schema.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonDecoder;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Arrays of Avro records in Avro's own JSON encoding (the spec's "JSON Encoding": unions as {"type": value}), for
 * nested values a store column keeps as text. Unlike {@code toString()}, Avro promises to read this back.
 */
public final class AvroJson {

    static {
        AvroTrust.install(); // the reader loads caplab's generated classes by name
    }

    private AvroJson() {
    }

    /** The records as one JSON array in Avro's JSON encoding. */
    public static <T extends SpecificRecordBase> String encodeArray(List<T> items, Schema itemSchema) {
        Schema array = Schema.createArray(itemSchema);
        DatumWriter<List<T>> writer = new SpecificDatumWriter<>(array);
        try (ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            Encoder encoder = EncoderFactory.get().jsonEncoder(array, out);
            writer.write(items, encoder);
            encoder.flush();
            return out.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("encoding " + items.size() + " " + itemSchema.getName()
                    + " as Avro JSON", e);
        }
    }

    /**
     * Reads an array written by {@link #encodeArray} with the same item schema.
     *
     * @throws IllegalArgumentException naming the type when the text is not such an array
     */
    public static <T extends SpecificRecordBase> List<T> decodeArray(String json, Schema itemSchema) {
        Schema array = Schema.createArray(itemSchema);
        DatumReader<List<T>> reader = new SpecificDatumReader<>(array);
        try {
            JsonDecoder decoder = DecoderFactory.get().jsonDecoder(array, json);
            return new ArrayList<>(reader.read(null, decoder));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not an Avro JSON array of " + itemSchema.getFullName() + ": "
                    + (json.length() > 200 ? json.substring(0, 200) + "…" : json), e);
        }
    }
}
