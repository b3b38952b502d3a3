package dev.caplab.ingest.http;

import dev.caplab.ingest.publish.GroupCommit;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Announces each write request to {@link GroupCommit} from its arrival until its answer, so a transaction about to
 * commit waits (briefly) for writes still being parsed and they share it. OTLP is not announced: requests carrying
 * deltas are serialised before they publish, so a group would wait for one that cannot come.
 */
final class ArrivalsFilter extends OncePerRequestFilter {

    private final GroupCommit groupCommit;

    ArrivalsFilter(GroupCommit groupCommit) {
        this.groupCommit = groupCommit;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!"POST".equals(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        try (GroupCommit.Arrival arrival = groupCommit.arriving()) {
            chain.doFilter(request, response);
        }
    }
}
