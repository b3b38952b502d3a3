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

    @Operation(summary = "List runs with their outcome (max stable load, first failing load, bottleneck), newest "
            + "first unless sorted (JSON or CSV)")
    @GetMapping
    List<RunSummary> list(@Parameter(description = "system under test (its name)")
                          @RequestParam(required = false) String sut,
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
                          @Parameter(description = "runs per page, 1 to 1000")
                          @RequestParam(defaultValue = "100") int limit,
                          @Parameter(description = "runs skipped before the page, in the list's order")
                          @RequestParam(defaultValue = "0") int offset,
                          @Parameter(description = "RUNNING, COMPLETED or ABORTED")
                          @RequestParam(required = false) String status,
                          @Parameter(description = "order by startedAt (default), endedAt, runId, sut, version, "
                                  + "provider, region, tier, vcpu, tool or status; ties newest first")
                          @RequestParam(defaultValue = "startedAt") String sort,
                          @Parameter(description = "asc or desc (default)")
                          @RequestParam(defaultValue = "desc") String order,
                          @Parameter(description = "the runs' load expression, e.g. users or rooms")
                          @RequestParam(required = false) String loadExpression) {
        return runs.find(filter(sut, version, provider, region, tier, tool, labels(labels), from, to, limit, offset,
                status, sort(sort), descending(order), loadExpression));
    }

    /** The order a {@code sort} parameter names (camelCase, as the list's fields are named). */
    static RunFilter.RunSort sort(String name) {
        for (RunFilter.RunSort s : RunFilter.RunSort.values()) {
            if (s.name().replace("_", "").equalsIgnoreCase(name)) {
                return s;
            }
        }
        throw new BadRequestParameterException("sort", name, "expected one of startedAt, endedAt, runId, sut, "
                + "version, provider, region, tier, vcpu, tool, status");
    }

    private static boolean descending(String order) {
        return switch (order.toLowerCase(java.util.Locale.ROOT)) {
            case "desc" -> true;
            case "asc" -> false;
            default -> throw new BadRequestParameterException("order", order, "expected asc or desc");
        };
    }

    /** The store's filter; a component it refuses is named as the request parameter (they share their names). */
    private static RunFilter filter(String sut, String version, String provider, String region, String tier,
                                    String tool, Map<String, String> labels, Instant from, Instant to, int limit,
                                    int offset, String status, RunFilter.RunSort sort, boolean descending,
                                    String loadExpression) {
        try {
            return new RunFilter(sut, version, provider, region, tier, tool, labels, from, to, limit, offset, status,
                    sort, descending, loadExpression);
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
