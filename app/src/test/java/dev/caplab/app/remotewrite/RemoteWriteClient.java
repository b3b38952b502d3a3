package dev.caplab.app.remotewrite;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * Sends remote write requests with the headers Prometheus 2.42 sends (remote write 1.0 specification); bodies come
 * from ingest's {@code WriteRequests}.
 */
final class RemoteWriteClient {

    private final HttpClient http = HttpClient.newHttpClient();
    private final int port;

    RemoteWriteClient(int port) {
        this.port = port;
    }

    HttpResponse<String> send(String target, byte[] body, String... extraHeaders) throws IOException,
            InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + target))
                .header("Content-Encoding", "snappy")
                .header("Content-Type", "application/x-protobuf")
                .header("User-Agent", "Prometheus/2.42.0")
                .header("X-Prometheus-Remote-Write-Version", "0.1.0");
        for (int i = 0; i < extraHeaders.length; i += 2) {
            request.setHeader(extraHeaders[i], extraHeaders[i + 1]);
        }
        return http.send(request.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
