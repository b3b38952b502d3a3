package dev.caplab.ingest.lifecycle;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses load dimensions written as {@code publishers=10,subscribers=10} (or a bare number: {@code load=n}). */
public final class LoadDimensions {

    /** The dimension a bare number names; also RunStarted's default load expression. */
    public static final String DEFAULT_DIMENSION = "load";

    private LoadDimensions() {
    }

    public static Map<String, Double> parse(String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidLifecycleRequestException("load dimensions are empty; write e.g. users=400");
        }
        Map<String, Double> load = new LinkedHashMap<>();
        for (String part : text.split(",")) {
            String item = part.strip();
            int eq = item.indexOf('=');
            String name = eq < 0 ? DEFAULT_DIMENSION : item.substring(0, eq).strip();
            String value = eq < 0 ? item : item.substring(eq + 1).strip();
            if (name.isEmpty()) {
                throw new InvalidLifecycleRequestException("load dimension '" + item + "' has no name");
            }
            double number;
            try {
                number = Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new InvalidLifecycleRequestException("load dimension " + name + ": '" + value + "' is not a number");
            }
            if (!Double.isFinite(number) || number < 0) {
                throw new InvalidLifecycleRequestException("load dimension " + name + " must be finite and >= 0, was "
                        + value);
            }
            if (load.put(name, number) != null) {
                throw new InvalidLifecycleRequestException("load dimension " + name + " given twice");
            }
        }
        return load;
    }
}
