package dev.caplab.query.sql;

import dev.caplab.query.web.BadRequestParameterException;
import java.util.Locale;
import org.springframework.http.MediaType;

/** Result formats of the SQL endpoint and the ClickHouse output format that produces each. */
enum SqlFormat {
    JSON("JSON", MediaType.APPLICATION_JSON),
    CSV("CSVWithNames", new MediaType("text", "csv")),
    ARROW("ArrowStream", new MediaType("application", "vnd.apache.arrow.stream"));

    final String clickhouseFormat;
    final MediaType mediaType;

    SqlFormat(String clickhouseFormat, MediaType mediaType) {
        this.clickhouseFormat = clickhouseFormat;
        this.mediaType = mediaType;
    }

    static SqlFormat parse(String name) {
        if (name == null || name.isBlank()) {
            return JSON;
        }
        try {
            return valueOf(name.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BadRequestParameterException("format", name, "expected json, csv or arrow");
        }
    }
}
