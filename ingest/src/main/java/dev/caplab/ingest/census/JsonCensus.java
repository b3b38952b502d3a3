package dev.caplab.ingest.census;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * Counts the values of a JSON body while it is read from the request, before any tree is built: every array is a
 * repeated field ({@link CensusLimits}). The body is buffered as it streams past, so a body over a limit is refused
 * ({@link TooManyValuesException}, naming the array's path, e.g.
 * {@code resourceMetrics[0].scopeMetrics[0].metrics[0].exponentialHistogram.dataPoints[0].positive.bucketCounts})
 * as soon as the offending value is read, without reading, inflating or keeping the rest.
 */
public final class JsonCensus {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final CensusLimits limits;

    public JsonCensus(CensusLimits limits) {
        this.limits = limits;
    }

    /** The whole body, read from {@code body} once it is counted; malformed JSON throws Jackson's exception. */
    public byte[] read(InputStream body) throws IOException {
        Tee tee = new Tee(body);
        long[] counts = new long[limits.maxDepth() + 2];
        boolean[] arrays = new boolean[limits.maxDepth() + 2];
        long total = 0;
        int depth = 0;
        try (JsonParser parser = JSON.createParser(tee)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token == JsonToken.END_ARRAY || token == JsonToken.END_OBJECT) {
                    depth--;
                    continue;
                }
                if (token == JsonToken.PROPERTY_NAME) {
                    continue;
                }
                boolean opens = token == JsonToken.START_ARRAY || token == JsonToken.START_OBJECT;
                if (depth > 0 && arrays[depth]) {
                    TokenStreamContext array = opens ? parser.streamReadContext().getParent()
                            : parser.streamReadContext();
                    if (++counts[depth] > limits.maxValuesPerField()) {
                        throw new TooManyValuesException(path(array), limits.perField());
                    }
                    if (++total > limits.maxValuesPerRequest()) {
                        throw new TooManyValuesException(path(array), limits.perRequest());
                    }
                }
                if (opens) {
                    if (++depth > limits.maxDepth()) {
                        throw new TooManyValuesException(path(parser.streamReadContext()), limits.depth());
                    }
                    arrays[depth] = token == JsonToken.START_ARRAY;
                    counts[depth] = 0;
                }
            }
        }
        tee.readAllBytes(); // what follows the root value (whitespace), so the parser that follows sees it all
        return tee.bytes();
    }

    /** {@code a[0].b.c}: the path of a container, from the names and indices of its parents. */
    static String path(TokenStreamContext container) {
        StringBuilder path = new StringBuilder();
        for (TokenStreamContext c = container.getParent(); c != null && !c.inRoot(); c = c.getParent()) {
            path.insert(0, c.inArray() ? "[" + c.getCurrentIndex() + "]" : "." + c.currentName());
        }
        return path.isEmpty() ? "$" : path.charAt(0) == '.' ? path.substring(1) : path.toString();
    }

    /** Keeps a copy of every byte read through it. */
    private static final class Tee extends FilterInputStream {

        private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

        Tee(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                copy.write(b);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                copy.write(b, off, n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            return read(new byte[(int) Math.min(n, 8192)], 0, (int) Math.min(n, 8192));
        }

        @Override
        public void close() {
            // the request owns the stream; the parser's close must not end it before the tail is read
        }

        byte[] bytes() {
            return copy.toByteArray();
        }
    }
}
