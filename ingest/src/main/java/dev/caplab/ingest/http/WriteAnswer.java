package dev.caplab.ingest.http;

import dev.caplab.ingest.runs.Landing;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * What a write's answer says besides its status, the same on every ingest endpoint: the run ids its samples were
 * stored under ({@value #RUN_HEADER}), how each run took them ({@value #LANDING_HEADER}: {@code <run>; as=running|
 * new-run|late|after-end; samples=N}) and, one {@value #WARNING_HEADER} each, what the sender must know: a new run
 * begun after an idle end, late data in an ended run, samples after a declared run's end, or nothing written at all
 * (an empty body: the status stays what InfluxDB 1.x answers, 204). JSON answers repeat them as {@code runs} and
 * {@code warnings}.
 */
record WriteAnswer(List<Landing> landings, List<String> warnings) {

    static final String RUN_HEADER = "X-Caplab-Run";
    static final String LANDING_HEADER = "X-Caplab-Landing";
    static final String WARNING_HEADER = "X-Caplab-Warning";
    static final String NOTHING_WRITTEN = "nothing written: the request carried no sample and no event (an empty "
            + "body?)";

    WriteAnswer {
        landings = List.copyOf(landings);
        warnings = List.copyOf(warnings);
    }

    static WriteAnswer of(List<Landing> landings, int events) {
        List<String> warnings = new ArrayList<>();
        landings.stream().map(Landing::warning).filter(w -> w != null).forEach(warnings::add);
        if (landings.isEmpty() && events == 0) {
            warnings.add(NOTHING_WRITTEN);
        }
        return new WriteAnswer(landings, warnings);
    }

    /** Sets the headers on the response of the request being handled, if there is one (not in a plain call). */
    void toCurrentResponse() {
        if (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes
                && attributes.getResponse() != null) {
            writeTo(attributes.getResponse());
        }
    }

    void writeTo(HttpServletResponse response) {
        List<String> runs = landings.stream().map(Landing::runId).distinct().toList();
        if (!runs.isEmpty()) {
            response.setHeader(RUN_HEADER, String.join(", ", runs));
        }
        for (Landing l : landings) {
            response.addHeader(LANDING_HEADER, l.runId() + "; as=" + l.kind().text() + "; samples=" + l.samples());
        }
        // header values are one line of visible ASCII: run ids are the client's, so anything else is replaced
        warnings.forEach(w -> response.addHeader(WARNING_HEADER, w.replaceAll("[^\\x20-\\x7e]", "?")));
    }

    /** {@code runs} (run id → how it took the samples, how many) and {@code warnings}, for a JSON answer. */
    Map<String, Object> json() {
        Map<String, Object> runs = new LinkedHashMap<>();
        for (Landing l : landings) {
            runs.put(l.runId(), Map.of("as", l.kind().text(), "samples", l.samples()));
        }
        return Map.of("runs", runs, "warnings", warnings);
    }
}
