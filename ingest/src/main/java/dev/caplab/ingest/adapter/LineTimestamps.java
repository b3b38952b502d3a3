package dev.caplab.ingest.adapter;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Timestamps that wrapper scripts put before or between lines of tools that print none (docker stats): an
 * ISO-8601 instant with offset ({@code date -Is}, {@code date -Ins}, {@code ts '%FT%T%z'}) or epoch seconds
 * ({@code date +%s.%N}).
 */
public final class LineTimestamps {

    private static final Pattern LEADING = Pattern.compile(
            "^(\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})|\\d{9,10}(?:\\.\\d+)?)"
                    + "(?:\\s+|$)(.*)$");

    private LineTimestamps() {
    }

    /** A line split into its leading timestamp, if any, and the rest. */
    public record Stamped(Optional<Instant> at, String rest) {
    }

    public static Stamped split(String line) {
        Matcher m = LEADING.matcher(line);
        if (!m.matches()) {
            return new Stamped(Optional.empty(), line);
        }
        Optional<Instant> at = parse(m.group(1));
        return at.isPresent() ? new Stamped(at, m.group(2)) : new Stamped(Optional.empty(), line);
    }

    private static Optional<Instant> parse(String text) {
        try {
            if (text.indexOf('-') < 0) {
                BigDecimal seconds = new BigDecimal(text);
                return Optional.of(Instant.ofEpochSecond(seconds.longValue(),
                        seconds.remainder(BigDecimal.ONE).movePointRight(9).longValue()));
            }
            String iso = text.replace(' ', 'T').replace(',', '.');
            // date -Is writes +0000 on some systems; OffsetDateTime wants +00:00
            iso = iso.replaceFirst("([+-]\\d{2})(\\d{2})$", "$1:$2");
            return Optional.of(OffsetDateTime.parse(iso).toInstant());
        } catch (DateTimeException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
