package dev.caplab.ingest.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.ingest.lifecycle.InvalidLifecycleRequestException;
import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.parse.SampleChecks;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bounded fuzzing of {@code /api/v1/events}' door: batches mixing valid samples (each with a unique label) and bad
 * ones. A batch is all or nothing: with a bad item it is refused naming the first bad item's index and field, and
 * nothing of it is kept; without, every sample is kept exactly once. Never another exception.
 */
class EventsFuzzTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SAMPLE = "{\"timestamp\":\"%s\",\"source\":\"%s\",\"metric\":\"%s\",\"value\":1,"
            + "\"labels\":{\"u\":\"%s\"}%s}";
    private static final String TIME = "2025-12-03T12:00:00Z";

    /** A bad item kind: its JSON for item i and the field path its error must name. */
    record Bad(Function<Integer, String> item, String field) {
    }

    private static final List<Bad> BAD = List.of(
            new Bad(i -> SAMPLE.formatted(TIME, " ", "m", i, ""), "source"),
            new Bad(i -> SAMPLE.formatted(TIME, "s", "", i, ""), "metric"),
            new Bad(i -> SAMPLE.formatted("1999-12-31T23:59:59Z", "s", "m", i, ""), "timestamp"),
            new Bad(i -> SAMPLE.formatted(TIME, "s", "m", "x".repeat(17_000), ""), "u"),
            new Bad(i -> SAMPLE.formatted(TIME, "s", "m".repeat(600), i, ""), "metric"),
            new Bad(i -> SAMPLE.formatted(TIME, "s", "m", i, ",\"runId\":\"  \""), "run"));

    @Property(tries = 200)
    void batchesAreAllOrNothingAndNameTheirFirstBadItem(
            @ForAll @Size(max = 30) List<@IntRange(min = 0, max = 99) Integer> plan) {
        StringBuilder samples = new StringBuilder();
        int firstBad = -1;
        for (int i = 0; i < plan.size(); i++) {
            samples.append(i == 0 ? "" : ",");
            if (plan.get(i) < 60) {
                samples.append(SAMPLE.formatted(TIME, "s", "m", i, ""));
            } else {
                samples.append(BAD.get(plan.get(i) % BAD.size()).item().apply(i));
                firstBad = firstBad < 0 ? i : firstBad;
            }
        }
        String body = "{\"runId\":\"r\",\"samples\":[" + samples + "]}";
        EventsRequest request = JSON.readValue(body, EventsRequest.class);
        LifecycleEvents lifecycle = new LifecycleEvents(Clock.systemUTC());
        SampleChecks checks = new SampleChecks(IngestLimits.DEFAULTS);

        if (firstBad >= 0) {
            String field = BAD.get(plan.get(firstBad) % BAD.size()).field();
            assertThatThrownBy(() -> EventsBatch.of(request, lifecycle, checks, Instant.now()))
                    .isInstanceOf(InvalidLifecycleRequestException.class)
                    .hasMessageStartingWith("samples[" + firstBad + "]." + field + ": ")
                    .hasMessageEndingWith("nothing was published");
            return;
        }
        EventsBatch batch = EventsBatch.of(request, lifecycle, checks, Instant.now());
        Map<String, Long> perTag = batch.samples().samplesByRun().getOrDefault("r", List.of()).stream()
                .collect(Collectors.groupingBy(s -> s.getLabels().get("u"), Collectors.counting()));
        assertThat(perTag).hasSize(plan.size()).allSatisfy((tag, count) -> assertThat(count).isEqualTo(1));
        assertThat(batch.samples().sampleCount()).isEqualTo(plan.size());
    }
}
