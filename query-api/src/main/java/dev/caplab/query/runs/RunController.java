package dev.caplab.query.runs;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.query.web.BadRequestParameterException;
import dev.caplab.store.access.RunFilter;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequiresScope(Scope.READ)
@RequestMapping("/api/v1/runs")
class RunController {

    /** Label filters one request may give: each is one condition of the store's query. */
    static final int MAX_LABELS = 20;

    private final RunService runs;

    RunController(RunService runs) {
        this.runs = runs;
    }

    @Operation(summary = "List runs, newest first (JSON or CSV)")
    @GetMapping
    List<RunSummary> list(@RequestParam(required = false) String sut,
                          @RequestParam(required = false) String version,
                          @RequestParam(required = false) String provider,
                          @RequestParam(required = false) String region,
                          @RequestParam(required = false) String tier,
                          @RequestParam(required = false) String tool,
                          @Parameter(description = "key=value, repeatable; all must match")
                          @RequestParam(name = "label", required = false) List<String> labels,
                          @Parameter(description = "started at or after, ISO-8601")
                          @RequestParam(required = false) Instant from,
                          @Parameter(description = "started before, ISO-8601")
                          @RequestParam(required = false) Instant to,
                          @RequestParam(defaultValue = "100") int limit,
                          @RequestParam(defaultValue = "0") int offset) {
        return runs.find(filter(sut, version, provider, region, tier, tool, labels(labels), from, to, limit, offset));
    }

    /** The store's filter; a component it refuses is named as the request parameter (they share their names). */
    private static RunFilter filter(String sut, String version, String provider, String region, String tier,
                                    String tool, Map<String, String> labels, Instant from, Instant to, int limit,
                                    int offset) {
        try {
            return new RunFilter(sut, version, provider, region, tier, tool, labels, from, to, limit, offset);
        } catch (RunFilter.InvalidRunFilterException e) {
            throw new BadRequestParameterException(e.component(), e.value(), e.reason());
        }
    }

    @Operation(summary = "A run with environment, steps, verdicts, fits, max stable load and bottleneck",
            description = "lateness: samples that came late and amended steps (each step says whether it was "
                    + "amended and by how many), and samples beyond the allowed lateness, kept raw in no aggregate")
    @GetMapping("/{runId}")
    RunDetail detail(@PathVariable String runId) {
        return runs.detail(runId);
    }

    private static Map<String, String> labels(List<String> pairs) {
        if (pairs != null && pairs.size() > MAX_LABELS) {
            throw new BadRequestParameterException("label", pairs.size() + " labels", "at most " + MAX_LABELS
                    + " label filters");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : pairs == null ? List.<String>of() : pairs) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new BadRequestParameterException("label", pair, "expected key=value");
            }
            out.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return out;
    }
}
