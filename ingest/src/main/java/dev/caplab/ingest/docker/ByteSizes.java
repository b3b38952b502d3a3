package dev.caplab.ingest.docker;

import dev.caplab.ingest.adapter.FieldException;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes as docker prints them: memory in binary units ("145MiB", go-units BytesSize) and network and block I/O in
 * decimal ones ("1.2kB", "3.4MB", go-units HumanSize). Both spellings are accepted wherever they appear.
 */
final class ByteSizes {

    private static final Pattern SIZE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)\\s*([a-zA-Z]*)");
    private static final Map<String, Double> UNITS = Map.ofEntries(
            Map.entry("b", 1.0), Map.entry("", 1.0),
            Map.entry("kb", 1e3), Map.entry("mb", 1e6), Map.entry("gb", 1e9), Map.entry("tb", 1e12),
            Map.entry("pb", 1e15),
            Map.entry("kib", 1024.0), Map.entry("mib", 1024.0 * 1024), Map.entry("gib", 1024.0 * 1024 * 1024),
            Map.entry("tib", 1024.0 * 1024 * 1024 * 1024), Map.entry("pib", 1024.0 * 1024 * 1024 * 1024 * 1024));

    private ByteSizes() {
    }

    static double bytes(String field, String text) {
        Matcher m = SIZE.matcher(text.strip());
        Double unit = m.matches() ? UNITS.get(m.group(2).toLowerCase(Locale.ROOT)) : null;
        if (unit == null) {
            throw new FieldException(field, "not a size like 145MiB or 1.2kB: '" + text + "'");
        }
        return new BigDecimal(m.group(1)).doubleValue() * unit;
    }
}
