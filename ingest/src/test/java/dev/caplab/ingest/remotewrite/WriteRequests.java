package dev.caplab.ingest.remotewrite;

import dev.caplab.ingest.remotewrite.prompb.Remote.WriteRequest;
import dev.caplab.ingest.remotewrite.prompb.Types.Label;
import dev.caplab.ingest.remotewrite.prompb.Types.Sample;
import dev.caplab.ingest.remotewrite.prompb.Types.TimeSeries;
import io.airlift.compress.v3.snappy.SnappyJavaCompressor;
import java.util.Arrays;

/** Remote write bodies as a sender builds them: labels, samples, then snappy block compression (also for app ITs). */
public final class WriteRequests {

    private WriteRequests() {
    }

    /** A series from alternating label names and values, e.g. {@code "__name__", "up", "job", "x"}. */
    public static TimeSeries.Builder series(String... nameValues) {
        TimeSeries.Builder series = TimeSeries.newBuilder();
        for (int i = 0; i < nameValues.length; i += 2) {
            series.addLabels(Label.newBuilder().setName(nameValues[i]).setValue(nameValues[i + 1]));
        }
        return series;
    }

    public static Sample sample(double value, long timestampMillis) {
        return Sample.newBuilder().setValue(value).setTimestamp(timestampMillis).build();
    }

    public static byte[] snappy(byte[] raw) {
        SnappyJavaCompressor compressor = new SnappyJavaCompressor();
        byte[] out = new byte[compressor.maxCompressedLength(raw.length)];
        int n = compressor.compress(raw, 0, raw.length, out, 0, out.length);
        return Arrays.copyOf(out, n);
    }

    public static byte[] body(WriteRequest request) {
        return snappy(request.toByteArray());
    }
}
