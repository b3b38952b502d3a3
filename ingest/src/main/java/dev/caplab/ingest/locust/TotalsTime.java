package dev.caplab.ingest.locust;

import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.ingest.adapter.UndatedRows;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The time of Locust's totals files ({@code _stats.csv}, {@code _failures.csv}, {@code _exceptions.csv}), which
 * carry none: Locust rewrites them with the totals at each interval, so their last state is the run's state at the
 * history's last timestamp, which {@code caplab ingest} passes as the {@code at} option; a user without the history
 * gives {@code at} by hand. Never the read time, even from a pipe: the files are rewritten in place, never streamed.
 */
record TotalsTime(Optional<Instant> at) {

    TotalsTime {
        Objects.requireNonNull(at, "at");
    }

    /** @throws FieldException (field {@code timestamp}) when no time was given */
    Instant instant() {
        return at.orElseThrow(() -> new FieldException("timestamp", "Locust's _stats.csv, _failures.csv and "
                + "_exceptions.csv rows carry no time: ingest them beside their _stats_history.csv (the --csv "
                + "prefix or any of its files), whose last timestamp they take, or give -o " + UndatedRows.OPTION
                + "=<ISO-8601 instant of the run's end, e.g. 2026-12-02T10:15:00Z>"));
    }
}
