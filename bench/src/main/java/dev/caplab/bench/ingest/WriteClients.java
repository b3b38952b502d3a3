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
final class WriteClients {

    /** Points written and the wall time from the first request to the last 204. */
    record Result(long points, Duration elapsed) {

        double pointsPerSecond() {
            return points / (elapsed.toNanos() / 1e9);
        }
    }

    private WriteClients() {
    }

    static Result run(URI writeUri, List<byte[]> batches, int linesPerBatch, int clients, String authorization)
            throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        AtomicInteger next = new AtomicInteger();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        long started = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            threads.add(Thread.ofPlatform().name("write-client-" + c).start(() -> {
                for (int i = next.getAndIncrement(); i < batches.size() && failures.isEmpty();
                        i = next.getAndIncrement()) {
                    try {
                        HttpRequest.Builder request = HttpRequest.newBuilder(writeUri)
                                .POST(HttpRequest.BodyPublishers.ofByteArray(batches.get(i)));
                        if (authorization != null) {
                            request.header("Authorization", authorization);
                        }
                        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                        if (response.statusCode() != 204) {
                            failures.add(new IllegalStateException("batch " + i + ": HTTP " + response.statusCode()
                                    + " " + response.body()));
                        }
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
}
