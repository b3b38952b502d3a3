package dev.caplab.store.http;

import dev.caplab.store.engine.ClickHouseException;

import java.io.ByteArrayOutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One request in ClickHouse's HTTP protocol, decoded: credentials, database, format, settings,
 * {@code param_*} values and the statement bytes (URL {@code query} + newline + body, as ClickHouse joins them),
 * or for an INSERT with data after its FORMAT clause, that data split off.
 */
record ClickHouseRequest(Optional<String> user, String password, Optional<String> database, String format,
                         Map<String, String> settings, Map<String, String> params, byte[] statement,
                         Optional<InsertData> insert, Optional<String> queryId, boolean readOnly) {

    /** ClickHouse's BAD_ARGUMENTS code, used for protocol options this interface does not support. */
    static final int BAD_ARGUMENTS = 36;
    static final String DEFAULT_FORMAT = "TabSeparated";

    private static final Pattern SETTING_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
    private static final Pattern FORMAT_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]{0,63}");
    // HTTP-level options the real server consumes itself rather than treating as query settings.
    private static final Set<String> PROTOCOL_OPTIONS = Set.of("query", "database", "default_format", "query_id",
            "user", "password", "compress", "decompress", "session_id", "session_timeout", "session_check",
            "wait_end_of_query", "buffer_size", "quota_key", "stacktrace", "role", "readonly",
            "enable_http_compression", "send_progress_in_http_headers", "add_http_cors_header",
            "client_protocol_version", "http_headers_progress_interval_ms", "http_wait_end_of_query",
            "http_response_buffer_size", "http_zlib_compression_level",
            "http_native_compression_disable_checksumming_on_decompress",
            "cancel_http_readonly_queries_on_client_close", "default_session_timeout", "extremes_in_http_headers");

    ClickHouseRequest {
        settings = Map.copyOf(settings);
        params = Map.copyOf(params);
    }

    /** Decodes the URL query string, headers and (already decompressed) body of one request. */
    static ClickHouseRequest parse(String rawQuery, Map<String, String> headers, byte[] body) {
        Map<String, String> url = decodeQueryString(rawQuery);
        if ("1".equals(url.get("compress"))) {
            throw new ClickHouseException(BAD_ARGUMENTS, "Code: 36. DB::Exception: the embedded HTTP interface does"
                    + " not compress responses; set compress=0 in the JDBC URL. (BAD_ARGUMENTS)");
        }
        if ("1".equals(url.get("decompress"))) {
            throw new ClickHouseException(BAD_ARGUMENTS, "Code: 36. DB::Exception: the embedded HTTP interface does"
                    + " not read ClickHouse-compressed bodies (decompress=1); send the body plain or gzip."
                    + " (BAD_ARGUMENTS)");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        Map<String, String> params = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : url.entrySet()) {
            String name = e.getKey();
            if (name.startsWith("param_")) {
                params.put(name.substring("param_".length()), e.getValue());
            } else if (!PROTOCOL_OPTIONS.contains(name)) {
                if (!SETTING_NAME.matcher(name).matches()) {
                    throw new ClickHouseException(115, "Code: 115. DB::Exception: Unknown setting '" + name
                            + "'. (UNKNOWN_SETTING)");
                }
                settings.put(name, e.getValue());
            }
        }
        String format = Optional.ofNullable(url.get("default_format"))
                .or(() -> Optional.ofNullable(headers.get("x-clickhouse-format"))).orElse(DEFAULT_FORMAT);
        if (!FORMAT_NAME.matcher(format).matches()) {
            throw new ClickHouseException(73, "Code: 73. DB::Exception: Unknown format " + format
                    + ". (UNKNOWN_FORMAT)");
        }
        Credentials credentials = Credentials.of(url, headers);
        String readonly = url.getOrDefault("readonly", "0");
        return new ClickHouseRequest(credentials.user(), credentials.password(),
                Optional.ofNullable(url.get("database")).or(() -> Optional.ofNullable(headers.get("x-clickhouse-database")))
                        .filter(s -> !s.isEmpty()),
                format, settings, params, joinStatement(url.get("query"), body), InsertData.of(url.get("query"), body),
                Optional.ofNullable(url.get("query_id")).filter(s -> !s.isEmpty()),
                !readonly.isEmpty() && !"0".equals(readonly));
    }

    private static byte[] joinStatement(String queryParam, byte[] body) {
        if (queryParam == null || queryParam.isEmpty()) {
            return body;
        }
        byte[] head = queryParam.getBytes(StandardCharsets.UTF_8);
        if (body.length == 0) {
            return head;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(head.length + 1 + body.length);
        out.writeBytes(head);
        out.write('\n');
        out.writeBytes(body);
        return out.toByteArray();
    }

    static Map<String, String> decodeQueryString(String rawQuery) {
        Map<String, String> out = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return out;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.put(name, value);
        }
        return out;
    }

    /**
     * Who the client says it is: Basic auth, X-ClickHouse-User/Key headers, or user/password URL options;
     * {@code inHeader} tells whether they came in a header, which a browser cannot add to a cross-site request.
     */
    record Credentials(Optional<String> user, String password, boolean inHeader) {

        /** Whether the client claimed any identity at all. */
        boolean presented() {
            return user.isPresent() || !password.isEmpty();
        }

        static Credentials of(Map<String, String> url, Map<String, String> headers) {
            String auth = headers.get("authorization");
            if (auth != null && auth.regionMatches(true, 0, "Basic ", 0, 6)) {
                String decoded;
                try {
                    decoded = new String(Base64.getDecoder().decode(auth.substring(6).strip()),
                            StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    throw new ClickHouseException(516, "Code: 516. DB::Exception: malformed Basic authorization"
                            + " header. (AUTHENTICATION_FAILED)");
                }
                int colon = decoded.indexOf(':');
                return colon < 0 ? new Credentials(Optional.of(decoded), "", true)
                        : new Credentials(Optional.of(decoded.substring(0, colon)), decoded.substring(colon + 1),
                                true);
            }
            Optional<String> user = Optional.ofNullable(headers.get("x-clickhouse-user"))
                    .or(() -> Optional.ofNullable(url.get("user")));
            String password = Optional.ofNullable(headers.get("x-clickhouse-key"))
                    .or(() -> Optional.ofNullable(url.get("password"))).orElse("");
            boolean inHeader = headers.containsKey("x-clickhouse-user") || headers.containsKey("x-clickhouse-key");
            return new Credentials(user, password, inHeader);
        }
    }
}
