package dev.caplab.analysis;

import dev.caplab.analysis.fit.StepPoint;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** Reads the values that src/test/resources/r/reference.R wrote with R (segmented, lm, nls). */
public final class RReference {
    private static final Properties VALUES = load();

    private RReference() {
    }

    /** The R value stored under {@code key}; fails loudly when the key is missing. */
    public static double value(String key) {
        String v = VALUES.getProperty(key);
        if (v == null) {
            throw new IllegalStateException("reference.properties has no key " + key + "; rerun reference.R");
        }
        return Double.parseDouble(v);
    }

    /** A fixture CSV written by reference.R: columns x, y and optionally w (sample count). */
    public static List<StepPoint> fixture(String name) {
        try (InputStream in = RReference.class.getResourceAsStream("/r/" + name + ".csv")) {
            if (in == null) {
                throw new IllegalStateException("missing fixture /r/" + name + ".csv");
            }
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\\R");
            List<StepPoint> pts = new ArrayList<>();
            for (int i = 1; i < lines.length; i++) {
                if (lines[i].isBlank()) {
                    continue;
                }
                String[] f = lines[i].split(",");
                long count = f.length > 2 ? (long) Double.parseDouble(f[2]) : 1;
                pts.add(StepPoint.of(Double.parseDouble(f[0]), Double.parseDouble(f[1]), count));
            }
            return pts;
        } catch (IOException e) {
            throw new UncheckedIOException("reading fixture " + name, e);
        }
    }

    private static Properties load() {
        try (InputStream in = RReference.class.getResourceAsStream("/r/reference.properties")) {
            Properties p = new Properties();
            p.load(in);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("reading reference.properties", e);
        }
    }
}
