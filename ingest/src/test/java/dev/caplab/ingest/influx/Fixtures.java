package dev.caplab.ingest.influx;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Reads test resources as bytes. */
final class Fixtures {

    private Fixtures() {
    }

    static byte[] bytes(String resource) {
        try (InputStream in = Fixtures.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
