package dev.caplab.app.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * N concurrent clients posting batches (pre-built, or built when taken) to an InfluxDB 1.x style /write; every
 * answer must be 204.
 */
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
        return run(writeUri, batches.size(), batches::get, linesPerBatch, clients, authorization);
    }

    /**
     * As {@link #run(URI, List, int, int, String)} with batch i built by {@code batch} when a client takes it, so
     * a large load is never held in memory whole (the soak IT measures the heap of the JVM it runs in).
     */
    public static Result run(URI writeUri, int batches, IntFunction<byte[]> batch, int linesPerBatch, int clients,
            String authorization) throws InterruptedException {
        HttpClient http = newClient();
        AtomicInteger next = new AtomicInteger();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        long started = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            threads.add(Thread.ofPlatform().name("write-client-" + c).start(() -> {
                for (int i = next.getAndIncrement(); i < batches && failures.isEmpty(); i = next.getAndIncrement()) {
                    try {
                        post(http, writeUri, batch.apply(i), null, authorization, 204, "batch " + i);
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
        return new Result((long) batches * linesPerBatch, elapsed);
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
