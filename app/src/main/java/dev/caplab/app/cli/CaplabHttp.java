package dev.caplab.app.cli;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * How client commands ({@code caplab report}, {@code caplab run delete}) call a running caplab's HTTP port: one
 * request with the token as {@code Authorization: Bearer}, and any failure said with the URL and what it answered.
 */
final class CaplabHttp {

    private CaplabHttp() {
    }

    /** caplab could not be reached, or refused the request; says which URL and what it answered. */
    public static final class CallFailedException extends RuntimeException {
        CallFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** {@code base} (the {@code --url}, with or without a trailing slash) and {@code pathAndQuery}. */
    static URI uri(String base, String pathAndQuery) {
        String trimmed = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        try {
            return URI.create(trimmed + pathAndQuery);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--url " + base + " is not a URL: " + e.getMessage(), e);
        }
    }

    /** Sends {@code request} (token: null or blank sends none); any status but {@code expected} is a failure. */
    static HttpResponse<byte[]> send(HttpRequest request, String token, int expected) throws IOException {
        HttpRequest.Builder authorized = HttpRequest.newBuilder(request, (name, value) -> true);
        if (token != null && !token.isBlank()) {
            authorized.header("Authorization", "Bearer " + token);
        }
        HttpResponse<byte[]> response;
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            response = http.send(authorized.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (ConnectException | HttpTimeoutException e) {
            throw new CallFailedException("cannot reach caplab at " + request.uri() + " (is it running? --url): " + e,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallFailedException("interrupted while calling " + request.uri(), e);
        }
        if (response.statusCode() != expected) {
            String body = new String(response.body(), StandardCharsets.UTF_8).strip();
            throw new CallFailedException(request.method() + " " + request.uri() + " answered "
                    + response.statusCode() + ": " + (body.length() > 500 ? body.substring(0, 500) + "…" : body),
                    null);
        }
        return response;
    }
}
