package dev.caplab.app.remotewrite;

import dev.caplab.ingest.remotewrite.prompb.Remote.WriteRequest;
import dev.caplab.ingest.remotewrite.prompb.Types.Label;
import dev.caplab.ingest.remotewrite.prompb.Types.Sample;
import dev.caplab.ingest.remotewrite.prompb.Types.TimeSeries;
import io.airlift.compress.v3.snappy.SnappyJavaCompressor;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;

/** Sends remote write requests with the headers Prometheus 2.42 sends (remote write 1.0 specification). */
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

    static byte[] body(WriteRequest request) {
        return snappy(request.toByteArray());
    }

    static byte[] snappy(byte[] raw) {
        SnappyJavaCompressor compressor = new SnappyJavaCompressor();
        byte[] out = new byte[compressor.maxCompressedLength(raw.length)];
        return Arrays.copyOf(out, compressor.compress(raw, 0, raw.length, out, 0, out.length));
    }

    /** A series from alternating label names and values. */
    static TimeSeries.Builder series(String... nameValues) {
        TimeSeries.Builder series = TimeSeries.newBuilder();
        for (int i = 0; i < nameValues.length; i += 2) {
            series.addLabels(Label.newBuilder().setName(nameValues[i]).setValue(nameValues[i + 1]));
        }
        return series;
    }

    static Sample sample(double value, long timestampMillis) {
        return Sample.newBuilder().setValue(value).setTimestamp(timestampMillis).build();
    }
}
