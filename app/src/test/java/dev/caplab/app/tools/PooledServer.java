package dev.caplab.app.tools;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The system under test of the real-tool ITs, run as its own process ({@link SutProcess}): an HTTP server with a fixed
 * pool of {@code workers} threads where every request burns {@code cpuMillis} of its thread's CPU time and holds its
 * worker for {@code serviceMillis} of wall time in all. Capacity is therefore exactly workers / serviceMillis requests
 * per second and its CPU plateaus at capacity × cpuMillis, whatever else runs on the machine, as long as a worker
 * gets cpuMillis of CPU within serviceMillis (a quarter of a core for 10 of 40 ms): a designed saturation point that
 * a shared 2-core CI machine reproduces. A request whose query holds {@code failEvery=N} answers 500 instead of 200
 * for every N-th such request (counted over the process), so a tool sees a known share of server errors. Prints
 * {@code listening PORT} once bound.
 */
public final class PooledServer {

    private static final Pattern FAIL_EVERY = Pattern.compile("(?:^|&)failEvery=(\\d+)");
    private static final AtomicLong FAILABLE = new AtomicLong();

    private PooledServer() {
    }

    /** Arguments: workers cpuMillis serviceMillis. */
    public static void main(String[] args) throws IOException {
        int workers = Integer.parseInt(args[0]);
        long cpuNanos = Long.parseLong(args[1]) * 1_000_000L;
        long serviceNanos = Long.parseLong(args[2]) * 1_000_000L;
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        byte[] body = "ok\n".getBytes(StandardCharsets.US_ASCII);
        server.createContext("/", exchange -> serve(exchange, threads, cpuNanos, serviceNanos, body));
        server.setExecutor(Executors.newFixedThreadPool(workers));
        server.start();
        System.out.println("listening " + server.getAddress().getPort());
        System.out.flush();
    }

    private static void serve(HttpExchange exchange, ThreadMXBean threads, long cpuNanos, long serviceNanos,
            byte[] body) throws IOException {
        long wallStart = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long spin = 0;
        while (threads.getCurrentThreadCpuTime() - cpuStart < cpuNanos) {
            spin += Long.numberOfTrailingZeros(spin + 1);
        }
        long left = serviceNanos - (System.nanoTime() - wallStart);
        if (left > 0) {
            try {
                Thread.sleep(left / 1_000_000L, (int) (left % 1_000_000L));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        exchange.getRequestBody().readAllBytes();
        exchange.getResponseHeaders().add("X-Spin", Long.toString(spin & 1));
        exchange.sendResponseHeaders(status(exchange.getRequestURI().getRawQuery()), body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static int status(String query) {
        Matcher failEvery = FAIL_EVERY.matcher(query == null ? "" : query);
        if (failEvery.find()) {
            return FAILABLE.incrementAndGet() % Long.parseLong(failEvery.group(1)) == 0 ? 500 : 200;
        }
        return 200;
    }
}
