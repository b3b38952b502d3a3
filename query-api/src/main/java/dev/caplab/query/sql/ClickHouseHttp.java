package dev.caplab.query.sql;

import dev.caplab.query.QueryApiProperties;
import dev.caplab.query.QueryApiProperties.SqlLimits;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * Sends read-only statements to ClickHouse's HTTP interface with the limits as settings ClickHouse enforces:
 * {@code readonly=1}, {@code max_execution_time} with {@code timeout_overflow_mode=throw},
 * {@code max_result_rows}/{@code max_result_bytes} with {@code result_overflow_mode=throw}, {@code max_memory_usage},
 * {@code max_threads},
 * {@code cancel_http_readonly_queries_on_client_close=1}, a fresh {@code query_id} (so an operator can
 * {@code KILL QUERY} it), the caplab database as default. The HTTP exchange itself gives up one second after
 * {@code max_execution_time}, leaving ClickHouse the first word on a timeout and closing the connection (which
 * cancels the query on a ClickHouse server) when it did not speak. Results come back in ClickHouse's own encoding
 * (JSON, CSVWithNames, ArrowStream), so no Arrow library is needed in the JVM.
 */
@Component
class ClickHouseHttp {

    private static final String PARAMETER_NAME = "[A-Za-z_][A-Za-z0-9_]{0,63}";
    private static final Duration GRACE = Duration.ofSeconds(1);

    private final SqlLimits limits;
    private final String database;
    private final HttpClient client;

    ClickHouseHttp(QueryApiProperties properties) {
        this.limits = properties.sql();
        this.database = properties.database();
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Runs {@code sql} under the endpoint's limits with ClickHouse binding {@code params}. */
    byte[] query(String sql, String clickhouseFormat, Map<String, String> params) {
        Map<String, String> url = readOnly(clickhouseFormat);
        url.put("max_result_rows", Long.toString(limits.maxResultRows()));
        url.put("max_result_bytes", Long.toString(limits.maxResultBytes()));
        url.put("result_overflow_mode", "throw");
        return send(sql, bind(url, params));
    }

    /**
     * ClickHouse's syntax tree of one statement, one node a line, with {@code params} substituted as they will be
     * when it runs; a tree longer than the result limit is still read whole.
     */
    List<String> explainAst(String statement, Map<String, String> params) {
        byte[] tree = send("EXPLAIN AST " + statement, bind(readOnly("TabSeparatedRaw"), params));
        return new String(tree, StandardCharsets.UTF_8).lines().toList();
    }

    /**
     * Rows of a catalogue query of the guard's own (never user text), tab-separated cells; read-only and timed, but
     * not held to the result limits, which are for answers.
     */
    List<List<String>> catalogue(String sql) {
        String text = new String(send(sql, readOnly("TabSeparatedRaw")), StandardCharsets.UTF_8);
        return text.lines().filter(l -> !l.isEmpty()).map(l -> List.of(l.split("\t", -1))).toList();
    }

    private static Map<String, String> bind(Map<String, String> url, Map<String, String> params) {
        for (Map.Entry<String, String> p : params.entrySet()) {
            if (!p.getKey().matches(PARAMETER_NAME)) {
                throw new SqlRejectedException("query parameter name '" + p.getKey() + "' is not an identifier");
            }
            url.put("param_" + p.getKey(), p.getValue());
        }
        return url;
    }

    private Map<String, String> readOnly(String clickhouseFormat) {
        Map<String, String> url = new LinkedHashMap<>();
        url.put("database", database);
        url.put("default_format", clickhouseFormat);
        url.put("query_id", "caplab-sql-" + UUID.randomUUID());
        url.put("readonly", "1");
        url.put("max_execution_time", Long.toString(limits.maxExecutionTime().toSeconds()));
        url.put("timeout_overflow_mode", "throw");
        url.put("max_memory_usage", Long.toString(limits.maxMemoryBytes()));
        url.put("max_threads", Integer.toString(limits.maxThreads()));
        url.put("cancel_http_readonly_queries_on_client_close", "1");
        return url;
    }

    private byte[] send(String sql, Map<String, String> url) {
        String query = url.entrySet().stream()
                .map(e -> enc(e.getKey()) + "=" + enc(e.getValue())).collect(Collectors.joining("&"));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + "?" + query))
                .timeout(limits.maxExecutionTime().plus(GRACE))
                .POST(HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8));
        if (!limits.user().isEmpty()) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (limits.user() + ":" + limits.password()).getBytes(StandardCharsets.UTF_8)));
        }
        HttpResponse<byte[]> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw new SqlFailedException(SqlFailedException.TIMEOUT_EXCEEDED, "ClickHouse did not answer query "
                    + url.get("query_id") + " within max_execution_time " + limits.maxExecutionTime()
                    + " + " + GRACE + "; the connection was closed");
        } catch (IOException e) {
            throw new SqlFailedException(-1, "ClickHouse at " + limits.clickhouseUrl() + " is unreachable: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SqlFailedException(-1, "interrupted while waiting for ClickHouse");
        }
        if (response.statusCode() != 200) {
            int code = response.headers().firstValue("X-ClickHouse-Exception-Code").map(Integer::parseInt).orElse(-1);
            throw new SqlFailedException(code, new String(response.body(), StandardCharsets.UTF_8).strip());
        }
        return response.body();
    }

    private String base() {
        String s = limits.clickhouseUrl().toString();
        return s.endsWith("/") ? s : s + "/";
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
