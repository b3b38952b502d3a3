package dev.caplab.store.http;

import dev.caplab.store.engine.ChdbEngine;
import dev.caplab.store.testing.EmbeddedClickHouse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Port 8123 before login: clients that send their request slowly, byte by byte, or stop halfway, must stall no one
 * (caplab's own requests, other readers) and are cut off after {@link ClickHouseHttpServer#MAX_REQUEST_SECONDS}.
 */
class ClickHouseHttpStallIT {

    private static final String DB = "stall_it";
    /** Far more slow clients than the dispatch threads a fixed pool would have. */
    private static final int SLOW_CLIENTS = 24;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static ChdbEngine engine;
    private static ClickHouseHttpServer server;

    @BeforeAll
    static void start() {
        engine = EmbeddedClickHouse.sharedEmbedded().engine().orElseThrow();
        engine.query("CREATE DATABASE IF NOT EXISTS " + DB, "TabSeparated");
        server = ClickHouseHttpServer.start(engine, HttpSettings.defaults().withPort(0)
                .withReaderLimits(ReaderLimits.defaults(DB)));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void slowClientsBeforeLoginStallNoOneAndAreCutOff() throws Exception {
        // warm: the first reader statement also reads the engine's function catalogue for the statement policy
        assertThat(HTTP.send(HttpRequest.newBuilder(URI.create(server.httpUrl() + "/?database=" + DB))
                .POST(HttpRequest.BodyPublishers.ofString("SELECT 1")).build(), HttpResponse.BodyHandlers.ofString())
                .body()).isEqualTo("1\n");
        ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();
        List<Socket> sockets = new ArrayList<>();
        List<CompletableFuture<Long>> cutOffAfterMillis = new ArrayList<>();
        CountDownLatch started = new CountDownLatch(SLOW_CLIENTS);
        long t0 = System.nanoTime();
        try {
            for (int i = 0; i < SLOW_CLIENTS; i++) {
                Socket socket = new Socket("127.0.0.1", server.port());
                socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(ClickHouseHttpServer.MAX_REQUEST_SECONDS + 20));
                sockets.add(socket);
                // half send their headers a byte every 100 ms for ever, half stop after the first header line
                boolean trickle = i % 2 == 0;
                clients.submit(() -> sendSlowly(socket.getOutputStream(), trickle, started));
                cutOffAfterMillis.add(CompletableFuture.supplyAsync(() -> millisUntilClosed(socket, t0), clients));
            }
            assertThat(started.await(10, TimeUnit.SECONDS)).as("every slow client sent its first bytes").isTrue();

            // with every slow client holding a connection mid-headers, others are answered at once, repeatedly
            for (int i = 0; i < 10; i++) {
                assertAnsweredPromptly(HttpRequest.newBuilder(URI.create(server.httpUrl() + "/?database=" + DB)),
                        "a reader");
                assertAnsweredPromptly(HttpRequest.newBuilder(URI.create(server.httpUrl() + "/"))
                        .header("X-ClickHouse-User", server.settings().internal().user())
                        .header("X-ClickHouse-Key", server.settings().internal().password()), "caplab itself");
            }

            // and the server closes each slow connection once it has taken MAX_REQUEST_SECONDS over its request
            long limitMillis = TimeUnit.SECONDS.toMillis(ClickHouseHttpServer.MAX_REQUEST_SECONDS);
            for (CompletableFuture<Long> closed : cutOffAfterMillis) {
                long millis = closed.get(ClickHouseHttpServer.MAX_REQUEST_SECONDS + 25, TimeUnit.SECONDS);
                // the JDK's timer looks once a second
                assertThat(millis).as("a slow client was cut off after").isBetween(limitMillis - 1_000,
                        limitMillis + 3_000);
            }
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
            clients.shutdownNow();
        }
        assertAnsweredPromptly(HttpRequest.newBuilder(URI.create(server.httpUrl() + "/?database=" + DB)), "after");
    }

    private static void assertAnsweredPromptly(HttpRequest.Builder request, String who) throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> r = HTTP.send(request.timeout(Duration.ofSeconds(8))
                .POST(HttpRequest.BodyPublishers.ofString("SELECT 1")).build(), HttpResponse.BodyHandlers.ofString());
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(r.body()).as(who).isEqualTo("1\n");
        // an unloaded answer takes milliseconds; 5 s leaves room for a 2-core machine shared by a dozen builds
        assertThat(millis).as("%s answered after (ms)", who).isLessThan(5_000);
    }

    /** Writes a request line and one header, then either trickles a never-ending header or stops. */
    private static Void sendSlowly(OutputStream out, boolean trickle, CountDownLatch started) throws Exception {
        try {
            out.write("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            started.countDown();
            if (trickle) {
                out.write("X-Slow: ".getBytes(StandardCharsets.US_ASCII));
                while (true) {
                    out.write('a');
                    out.flush();
                    Thread.sleep(100); // the client's pace, not a wait for anything
                }
            }
        } catch (IOException closedByServer) {
            // the server cut the connection: what the test waits for on the reading side
        }
        return null;
    }

    /** Milliseconds from {@code t0} until the server closes the socket (end of stream or reset). */
    private static long millisUntilClosed(Socket socket, long t0) {
        try {
            InputStream in = socket.getInputStream();
            while (in.read() >= 0) {
                // a 408 or any answer before the close is fine; the close is what is measured
            }
        } catch (IOException reset) {
            // a reset is a close too
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }
}
