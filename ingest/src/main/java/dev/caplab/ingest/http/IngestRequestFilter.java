package dev.caplab.ingest.http;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Guards every ingest write (POST to {@code /write}, {@code /api/v1/events}, {@code /api/v1/k6},
 * {@code /api/v1/runs/**}): refuses requests without a write token (401) and bodies over the limit (413) before a
 * controller reads them, including chunked bodies that declare no length. Reads (query API) pass untouched.
 */
final class IngestRequestFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(IngestRequestFilter.class);

    private final TokenAuthenticator authenticator;
    private final long maxBodyBytes;

    IngestRequestFilter(TokenAuthenticator authenticator, long maxBodyBytes) {
        this.authenticator = authenticator;
        this.maxBodyBytes = maxBodyBytes;
    }

    static boolean isIngestWrite(String method, String path) {
        return "POST".equals(method) && (path.equals(InfluxWriteController.WRITE_PATH)
                || path.equals(EventsController.PATH) || path.equals(K6Controller.PATH)
                || path.equals(RunsController.PATH) || path.startsWith(RunsController.PATH + "/"));
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return !isIngestWrite(request.getMethod(), path);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            authenticator.authorizeWrite(request.getHeader("Authorization"), request.getParameter("p"));
        } catch (UnauthorizedException e) {
            log.warn("Refused ingest write to {} from {}: {}", request.getRequestURI(), request.getRemoteAddr(),
                    e.getMessage());
            response.setHeader("WWW-Authenticate", "Bearer realm=\"caplab-ingest\"");
            IngestErrors.write(response, HttpServletResponse.SC_UNAUTHORIZED, e.getMessage());
            return;
        }
        long declared = request.getContentLengthLong();
        if (declared > maxBodyBytes) {
            IngestErrors.write(response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
                    new BodyTooLargeException("request body of " + declared + " bytes", maxBodyBytes).getMessage());
            return;
        }
        chain.doFilter(new BoundedRequest(request, maxBodyBytes), response);
    }

    /** Counts bytes as the controller reads them, for bodies whose length was not declared. */
    private static final class BoundedRequest extends HttpServletRequestWrapper {

        private final long limit;
        private ServletInputStream stream;

        BoundedRequest(HttpServletRequest request, long limit) {
            super(request);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new BoundedStream(super.getInputStream(), limit);
            }
            return stream;
        }
    }

    private static final class BoundedStream extends ServletInputStream {

        private final ServletInputStream in;
        private final long limit;
        private long read;

        BoundedStream(ServletInputStream in, long limit) {
            this.in = in;
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws BodyTooLargeException {
            read += n;
            if (read > limit) {
                throw new BodyTooLargeException("request body", limit);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
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
