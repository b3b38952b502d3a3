package dev.caplab.bench.ingest;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** N concurrent clients posting pre-built batches to an InfluxDB 1.x style /write; every answer must be 204. */
public final class WriteClients {

    /** Points written and the wall time from the first request to the last 204. */
    public record Result(long points, Duration elapsed) {

        public double pointsPerSecond() {
            return points / (elapsed.toNanos() / 1e9);
        }
    }

    private WriteClients() {
    }

    public static Result run(URI writeUri, List<byte[]> batches, int linesPerBatch, int clients, String authorization)
            throws InterruptedException {
        HttpClient http = newClient();
        AtomicInteger next = new AtomicInteger();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        long started = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            threads.add(Thread.ofPlatform().name("write-client-" + c).start(() -> {
                for (int i = next.getAndIncrement(); i < batches.size() && failures.isEmpty();
                        i = next.getAndIncrement()) {
                    try {
                        post(http, writeUri, batches.get(i), null, authorization, 204, "batch " + i);
                    } catch (Exception e) {
                        failures.add(e);
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        if (!failures.isEmpty()) {
            throw new IllegalStateException("write to " + writeUri + " failed: " + failures.getFirst().getMessage(),
                    failures.getFirst());
        }
        return new Result((long) batches.size() * linesPerBatch, elapsed);
    }

    /** An HTTP/1.1 client as every bench writer uses. */
    public static HttpClient newClient() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    /**
     * POSTs one body (null contentType or authorization: no such header); anything but {@code expectedStatus}
     * throws, naming {@code what}, the status and the answer.
     */
    public static void post(HttpClient http, URI uri, byte[] body, String contentType, String authorization,
            int expectedStatus, String what) throws java.io.IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expectedStatus) {
            throw new IllegalStateException(what + " to " + uri + ": HTTP " + response.statusCode() + " "
                    + response.body());
        }
    }
}
