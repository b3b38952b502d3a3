package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** What the embedded-stack ITs ask of {@code caplab up}'s HTTP port, as k6 and a browser would. */
final class StackHttp {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private StackHttp() {
    }

    static URI uri(EmbeddedStack stack, String path) {
        return URI.create("http://127.0.0.1:" + stack.httpPort() + path);
    }

    /** A line-protocol body to {@code /write?db=run}, with second timestamps, as k6's InfluxDB output sends it. */
    static HttpResponse<String> write(EmbeddedStack stack, String run, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(stack, "/write?db=" + run + "&precision=s"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The body of a GET that must answer 200. */
    static String getText(EmbeddedStack stack, String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri(stack, path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return r.body();
    }

    static JsonNode get(EmbeddedStack stack, String path) throws Exception {
        return JSON.readTree(getText(stack, path));
    }

    /** The body of a GET that answers 200, or null while it answers 404; any other status fails. */
    static JsonNode getIfFound(EmbeddedStack stack, String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri(stack, path)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 404) {
            return null;
        }
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    /**
     * The run's detail once {@code done} holds, polled every 250 ms for up to {@code patience}; else an error with
     * the last detail seen and {@code context}.
     */
    static JsonNode awaitRun(EmbeddedStack stack, String run, Predicate<JsonNode> done, Duration patience,
            Supplier<String> context) throws Exception {
        long deadline = System.nanoTime() + patience.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri(stack, "/api/v1/runs/" + run)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200) {
                last = JSON.readTree(r.body());
                if (done.test(last)) {
                    return last;
                }
            }
            Thread.sleep(250);
        }
        throw new AssertionError("run " + run + " never got there; last seen: " + last + context.get());
    }
}
