package dev.caplab.demo;

import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.SummaryStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * A demo run as the body of {@code POST /api/v1/events}, the JSON any custom client sends (see ingest's README): the
 * run id once, the lifecycle events with their {@code type}, then every sample. A pure function of the run; the
 * ingest API turns the body back into exactly the run's lifecycle events and samples.
 */
final class EventsBody {

    /** The adapter name the ingest API stores on the run's sample batches. */
    static final String ADAPTER = "caplab-demo";

    private EventsBody() {
    }

    static Map<String, Object> of(DemoRun run) {
        List<Map<String, Object>> events = new ArrayList<>();
        for (SpecificRecord event : run.lifecycle()) {
            events.add(lifecycle(run.runId(), event));
        }
        List<Map<String, Object>> samples = new ArrayList<>();
        run.samples().forEach(s -> samples.add(sample(s)));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("runId", run.runId());
        body.put("adapter", ADAPTER);
        body.put("events", events);
        body.put("samples", samples);
        return body;
    }

    private static Map<String, Object> lifecycle(String runId, SpecificRecord event) {
        Map<String, Object> json = new LinkedHashMap<>();
        switch (event) {
            case RunStarted r -> runStarted(r, json);
            case StepStarted s -> {
                json.put("type", "step_started");
                json.put("index", s.getStepIndex());
                json.put("load", s.getLoad());
                json.put("warmupSeconds", s.getWarmupMicros() / 1e6);
                json.put("startedAt", s.getStartedAt().toString());
            }
            case StepEnded s -> {
                json.put("type", "step_ended");
                json.put("index", s.getStepIndex());
                json.put("endedAt", s.getEndedAt().toString());
            }
            case Annotation a -> {
                json.put("type", "annotation");
                json.put("text", a.getText());
                json.put("labels", a.getLabels());
                json.put("at", a.getAt().toString());
            }
            case RunEnded e -> {
                json.put("type", "run_ended");
                json.put("status", e.getStatus().name());
                json.put("reason", e.getReason());
                json.put("endedAt", e.getEndedAt().toString());
            }
            default -> throw new IllegalArgumentException("demo run " + runId + ": no events API type for "
                    + event.getClass().getSimpleName());
        }
        return json;
    }

    private static void runStarted(RunStarted r, Map<String, Object> json) {
        if (r.getOrigin() != RunOrigin.DECLARED) {
            throw new IllegalArgumentException("demo run " + r.getRunId() + ": only a declared start can be sent");
        }
        Environment env = r.getEnvironment();
        json.put("type", "run_started");
        json.put("sut", r.getSut().getName());
        json.put("sutVersion", r.getSut().getVersion());
        json.put("configDigest", r.getSut().getConfigDigest());
        json.put("provider", env.getProvider());
        json.put("region", env.getRegion());
        json.put("tier", env.getTier());
        json.put("instanceType", env.getInstanceType());
        json.put("vcpu", env.getVcpu());
        json.put("memoryBytes", env.getMemoryBytes());
        json.put("nominalEgressMbps", env.getNominalEgressMbps());
        json.put("measuredEgressMbps", env.getMeasuredEgressMbps());
        json.put("tool", r.getTool());
        json.put("labels", r.getLabels());
        json.put("plannedSteps", r.getPlannedSteps());
        json.put("slo", r.getSloRules().stream().map(SloText::of).toList());
        json.put("loadExpression", r.getLoadExpression());
        json.put("startedAt", r.getStartedAt().toString());
    }

    private static Map<String, Object> sample(Sample s) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("timestamp", s.getTimestamp().toString());
        json.put("source", s.getSource());
        json.put("metric", s.getMetric());
        json.put("kind", s.getKind().name());
        json.put("value", s.getValue());
        if (!s.getLabels().isEmpty()) {
            json.put("labels", s.getLabels());
        }
        if (s.getSummary() != null) {
            json.put("summary", summary(s.getSummary()));
        }
        return json;
    }

    private static Map<String, Object> summary(SummaryStats stats) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("window", stats.getWindow().name());
        json.put("count", stats.getCount());
        json.put("windowMicros", stats.getWindowMicros());
        json.put("mean", stats.getMean());
        json.put("min", stats.getMin());
        json.put("max", stats.getMax());
        json.put("quantiles", stats.getQuantiles());
        return json;
    }
}
