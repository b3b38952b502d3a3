package dev.caplab.query.sql;

import dev.caplab.query.QueryApiProperties;
import dev.caplab.query.QueryApiProperties.SqlLimits;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * Sends read-only statements to ClickHouse's HTTP interface with the limits as settings ClickHouse enforces:
 * {@code readonly=1}, {@code max_execution_time}, {@code max_result_rows}/{@code max_result_bytes} with
 * {@code result_overflow_mode=throw}, the caplab database as default. Results come back in ClickHouse's own
 * encoding (JSON, CSVWithNames, ArrowStream), so no Arrow library is needed in the JVM.
 */
@Component
class ClickHouseHttp {

    private static final String PARAMETER_NAME = "[A-Za-z_][A-Za-z0-9_]{0,63}";

    private final SqlLimits limits;
    private final String database;
    private final HttpClient client;

    ClickHouseHttp(QueryApiProperties properties) {
        this.limits = properties.sql();
        this.database = properties.database();
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    byte[] query(String sql, String clickhouseFormat, Map<String, String> params) {
        Map<String, String> url = new LinkedHashMap<>();
        url.put("database", database);
        url.put("default_format", clickhouseFormat);
        url.put("readonly", "1");
        url.put("max_execution_time", Long.toString(limits.maxExecutionTime().toSeconds()));
        url.put("max_result_rows", Long.toString(limits.maxResultRows()));
        url.put("max_result_bytes", Long.toString(limits.maxResultBytes()));
        url.put("result_overflow_mode", "throw");
        for (Map.Entry<String, String> p : params.entrySet()) {
            if (!p.getKey().matches(PARAMETER_NAME)) {
                throw new SqlRejectedException("query parameter name '" + p.getKey() + "' is not an identifier");
            }
            url.put("param_" + p.getKey(), p.getValue());
        }
        String query = url.entrySet().stream()
                .map(e -> enc(e.getKey()) + "=" + enc(e.getValue())).collect(Collectors.joining("&"));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + "?" + query))
                .timeout(limits.maxExecutionTime().plusSeconds(5))
                .POST(HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8));
        if (!limits.user().isEmpty()) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (limits.user() + ":" + limits.password()).getBytes(StandardCharsets.UTF_8)));
        }
        HttpResponse<byte[]> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
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
