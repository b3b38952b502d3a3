package dev.caplab.access;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parameters of the raw query string only, decoded as UTF-8 with {@code +} as space. Never the body: the servlet
 * container's {@code getParameter} parses a form-encoded POST body, and curl's default content type is form-encoded,
 * so reading parameters that way would consume every line sent to {@code /write}.
 */
public final class QueryString {

    private QueryString() {
    }

    /** Name to values, in order of appearance; an empty map for a null or empty query string. */
    public static Map<String, List<String>> parse(String rawQuery) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return parameters;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq), null);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), name);
            parameters.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
        }
        return parameters;
    }

    /** The first value of {@code name}, or null. */
    public static String first(String rawQuery, String name) {
        List<String> values = parse(rawQuery).get(name);
        return values == null ? null : values.getFirst();
    }

    /**
     * Decodes a name ({@code parameter} null) or the value of {@code parameter}. The error names the parameter but
     * never shows a value or the query string: it is answered and logged, and a value may be a token ({@code p=}).
     */
    private static String decode(String part, String parameter) {
        try {
            return URLDecoder.decode(part, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new MalformedQueryStringException("malformed percent-encoding in the query string, in "
                    + (parameter == null ? "a parameter name" : "the value of parameter '" + parameter + "'")
                    + " (escape '%' as %25)", null);
        }
    }

    /** A query string that does not decode; answered with 400. */
    public static final class MalformedQueryStringException extends IllegalArgumentException {
        MalformedQueryStringException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
