package dev.caplab.ingest.lifecycle;

import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunDeleted;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.SystemUnderTest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.avro.specific.SpecificRecord;

/** Turns lifecycle requests into Avro lifecycle events: fills the run id, missing times from the clock, parses SLOs. */
public final class LifecycleEvents {

    private static final DateTimeFormatter RUN_ID_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final Clock clock;

    public LifecycleEvents(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The event for a request; {@code runId} applies when the request names none (URL path, batch default).
     * A run start without any run id gets a new one: {@code <sut>-<yyyyMMdd-HHmmss>-<4 hex>}.
     */
    public SpecificRecord toEvent(LifecycleRequest request, String runId) {
        String run = request.runId() != null ? request.runId() : runId;
        return switch (request) {
            case RunStartRequest r -> runStarted(r, run != null ? run : newRunId(r.sut()));
            case StepStartRequest s -> new StepStarted(required(run), s.index(), new HashMap<>(s.load()),
                    orNow(s.startedAt()), Math.round(s.warmupSeconds() * 1_000_000));
            case StepEndRequest s -> new StepEnded(required(run), s.index(), orNow(s.endedAt()));
            case RunEndRequest e -> new RunEnded(required(run), orNow(e.endedAt()), e.status(), e.reason(),
                    e.allSamplesSent());
            case AnnotationRequest a -> new Annotation(required(run), orNow(a.at()), a.text(), new HashMap<>(a.labels()));
        };
    }

    /** The deletion of {@code runId} now, with the client's reason (null: none given). */
    public RunDeleted deletion(String runId, String reason) {
        return new RunDeleted(required(runId), orNow(null), reason);
    }

    /** A fresh run id for a system under test. */
    public String newRunId(String sut) {
        String slug = sut.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
        return (slug.isEmpty() ? "run" : slug) + "-" + RUN_ID_TIME.format(clock.instant()) + "-"
                + String.format("%04x", ThreadLocalRandom.current().nextInt(0x10000));
    }

    private RunStarted runStarted(RunStartRequest r, String runId) {
        return RunStarted.newBuilder()
                .setRunId(runId)
                .setStartedAt(orNow(r.startedAt()))
                .setSut(new SystemUnderTest(r.sut(), r.sutVersion(), r.configDigest()))
                .setEnvironment(new Environment(r.provider(), r.region(), r.instanceType(), r.tier(), r.vcpu(),
                        r.memoryBytes(), r.nominalEgressMbps(), r.measuredEgressMbps()))
                .setTool(r.tool())
                .setLabels(new HashMap<>(r.labels()))
                .setPlannedSteps(r.plannedSteps().stream().map(m -> (java.util.Map<String, Double>) new HashMap<>(m))
                        .toList())
                .setSloRules(r.slo().stream().map(SloRules::parse).toList())
                .setLoadExpression(r.loadExpression())
                .setOrigin(RunOrigin.DECLARED)
                .build();
    }

    private Instant orNow(Instant at) {
        Instant t = at != null ? at : clock.instant();
        // the schema stores microseconds: truncate here so what we return equals what a consumer decodes
        return t.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
    }

    private static String required(String runId) {
        if (runId == null || runId.isBlank()) {
            throw new InvalidLifecycleRequestException("runId is required");
        }
        return runId;
    }
}
