package dev.caplab.ingest.http;

import dev.caplab.access.BodyTooLargeException;
import dev.caplab.access.BoundedBody;
import dev.caplab.access.QueryString;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * The door every request on the port goes through, before routing. It makes each body reach its controller unread:
 * parameters come from the query string only (the container's {@code getParameter} would otherwise parse a
 * form-encoded body, and with curl's default {@code Content-Type} every line sent to {@code /write} would be lost), a
 * form {@code Content-Type} is presented as {@code application/octet-stream} (no caplab endpoint takes forms, and
 * Spring rebuilds a form POST's body from the parameters), and multipart parsing is disabled; the body is decoded and
 * bounded by {@link BoundedBody} (gzip, deflate; a snappy body passes untouched to {@code /api/v1/write}, which
 * decodes its snappy block itself, and is refused elsewhere), so no body, declared or chunked, compressed or not, is
 * read past {@code caplab.ingest.max-body-bytes} (413). Access (tokens, scopes, origins) is checked after routing, by
 * {@code dev.caplab.access.AccessInterceptor}.
 */
final class IngestRequestFilter extends OncePerRequestFilter {

    /** The setting a 413 names: what an operator raises. */
    static final String LIMIT_NAME = "caplab.ingest.max-body-bytes";

    private final long maxBodyBytes;

    IngestRequestFilter(long maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long declared = request.getContentLengthLong();
        if (declared > maxBodyBytes) {
            IngestErrors.write(response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
                    new BodyTooLargeException("request body of " + declared + " bytes", maxBodyBytes, LIMIT_NAME,
                            false).getMessage());
            return;
        }
        chain.doFilter(new DoorRequest(request, maxBodyBytes), response);
    }

    /** The request as controllers see it: query-string parameters, a decoded and bounded body, no forms. */
    private static final class DoorRequest extends HttpServletRequestWrapper {

        /** Endpoints that decode their body's Content-Encoding themselves, and that encoding. */
        private static final Map<String, String> SELF_DECODED = Map.of(RemoteWriteController.WRITE_PATH,
                RemoteWriteController.SNAPPY);

        private static final String FORM = "application/x-www-form-urlencoded";
        private static final String OPAQUE = "application/octet-stream";

        private final long limitBytes;
        private final boolean decodesBody;
        private final boolean formContentType;
        private Map<String, String[]> parameters;
        private ServletInputStream body;

        DoorRequest(HttpServletRequest request, long limitBytes) {
            super(request);
            this.limitBytes = limitBytes;
            this.decodesBody = BoundedBody.decodes(request.getHeader(HttpHeaders.CONTENT_ENCODING));
            String contentType = request.getContentType();
            this.formContentType = contentType != null
                    && contentType.strip().toLowerCase(Locale.ROOT).startsWith(FORM);
        }

        @Override
        public String getContentType() {
            return formContentType ? OPAQUE : super.getContentType();
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (body == null) {
                String path = getRequestURI().substring(getContextPath().length());
                body = new ServletBody(BoundedBody.decoded(super.getInputStream(),
                        super.getHeader(HttpHeaders.CONTENT_ENCODING), limitBytes, LIMIT_NAME, SELF_DECODED.get(path)));
            }
            return body;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            String encoding = getCharacterEncoding();
            Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
            return new BufferedReader(new InputStreamReader(getInputStream(), charset));
        }

        // Once decoded here, the body must not look compressed to anything downstream (no second decoding).
        @Override
        public String getHeader(String name) {
            if (formContentType && HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)) {
                return OPAQUE;
            }
            return hidden(name) ? null : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            if (formContentType && HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)) {
                return Collections.enumeration(List.of(OPAQUE));
            }
            return hidden(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
        }

        @Override
        public Enumeration<String> getHeaderNames() {
            return Collections.enumeration(Collections.list(super.getHeaderNames()).stream()
                    .filter(n -> !hidden(n)).toList());
        }

        @Override
        public int getContentLength() {
            return decodesBody ? -1 : super.getContentLength();
        }

        @Override
        public long getContentLengthLong() {
            return decodesBody ? -1 : super.getContentLengthLong();
        }

        private boolean hidden(String name) {
            return decodesBody && (HttpHeaders.CONTENT_ENCODING.equalsIgnoreCase(name)
                    || HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(name));
        }

        @Override
        public String getParameter(String name) {
            String[] values = getParameterMap().get(name);
            return values == null ? null : values[0];
        }

        @Override
        public String[] getParameterValues(String name) {
            String[] values = getParameterMap().get(name);
            return values == null ? null : values.clone();
        }

        @Override
        public Enumeration<String> getParameterNames() {
            return Collections.enumeration(getParameterMap().keySet());
        }

        @Override
        public Map<String, String[]> getParameterMap() {
            if (parameters == null) {
                Map<String, String[]> parsed = new LinkedHashMap<>();
                for (Map.Entry<String, List<String>> e : QueryString.parse(getQueryString()).entrySet()) {
                    parsed.put(e.getKey(), e.getValue().toArray(String[]::new));
                }
                parameters = Collections.unmodifiableMap(parsed);
            }
            return parameters;
        }

        // A multipart parser would consume the body; no caplab endpoint takes multipart.
        @Override
        public Collection<Part> getParts() {
            return List.of();
        }

        @Override
        public Part getPart(String name) {
            return null;
        }
    }

    /** The decoded, bounded body as the servlet API hands it out; read synchronously. */
    private static final class ServletBody extends ServletInputStream {

        private final InputStream in;
        private boolean finished;

        ServletBody(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            finished = b < 0;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            finished = n < 0;
            return n;
        }

        @Override
        public boolean isFinished() {
            return finished;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            throw new UnsupportedOperationException("caplab reads request bodies synchronously");
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** Error bodies in the InfluxDB 1.x shape ({@code {"error": "..."}}), which k6, Telegraf and JMeter log. */
    static final class IngestErrors {

        private static final JsonMapper JSON = JsonMapper.builder().build();

        private IngestErrors() {
        }

        static void write(HttpServletResponse response, int status, String message) throws IOException {
            response.setStatus(status);
            response.setContentType("application/json");
            response.getOutputStream().write(JSON.writeValueAsBytes(Map.of("error", message)));
        }
    }
}
