package dev.caplab.ingest.http;

import dev.caplab.ingest.lifecycle.InvalidLifecycleRequestException;
import dev.caplab.ingest.lifecycle.LifecycleChecks;
import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.parse.SampleChecks.LimitException;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.schema.event.Sample;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * An events batch checked whole before anything is published: its lifecycle events and samples, or an
 * {@link InvalidLifecycleRequestException} naming the first bad item by index and field ({@code samples[3].source}).
 */
record EventsBatch(List<SpecificRecord> events, RoutedSamples samples) {

    static EventsBatch of(EventsRequest request, LifecycleEvents lifecycle, SampleChecks checks, Instant now) {
        LifecycleChecks lifecycleChecks = new LifecycleChecks(checks);
        List<SpecificRecord> events = new ArrayList<>();
        for (int i = 0; i < request.events().size(); i++) {
            SpecificRecord event = lifecycle.toEvent(request.events().get(i), request.runId());
            try {
                lifecycleChecks.check(event, now);
            } catch (LimitException e) {
                throw invalid("events[" + i + "]", e);
            }
            events.add(event);
        }
        RoutedSamples.Builder samples = new RoutedSamples.Builder(checks.limits().maxSamplesPerRequest());
        for (int i = 0; i < request.samples().size(); i++) {
            SampleRequest s = request.samples().get(i);
            String run = s.runId() != null ? s.runId() : request.runId();
            Sample sample = new Sample(s.timestamp().truncatedTo(ChronoUnit.MICROS), s.source(), s.metric(),
                    s.kind(), s.value(), s.labels(), s.summary() == null ? null : s.summary().toStats());
            try {
                checks.check(run, sample, now);
            } catch (LimitException e) {
                throw invalid("samples[" + i + "]", e);
            }
            samples.add(run, sample);
        }
        return new EventsBatch(List.copyOf(events), samples.build());
    }

    private static InvalidLifecycleRequestException invalid(String item, LimitException e) {
        return new InvalidLifecycleRequestException(item + (e.field() == null ? "" : "." + e.field()) + ": "
                + e.reason() + "; nothing was published");
    }
}
