package dev.caplab.ingest.http;

import com.fasterxml.jackson.annotation.JsonFormat;
import dev.caplab.ingest.lifecycle.InvalidLifecycleRequestException;
import dev.caplab.schema.event.SampleKind;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.Map;

/**
 * One sample in an events batch; {@code timestamp} is RFC 3339 (or epoch seconds), {@code kind} gauge by default, or
 * summary when {@code summary} carries a tool's pre-aggregated statistics. Names, labels and the time window are
 * checked with the batch ({@link EventsBatch}).
 */
@Schema(description = "One measurement of one metric from one source")
public record SampleRequest(String runId,
        @Schema(example = "2026-03-01T10:00:00.250Z") Instant timestamp,
        @Schema(example = "loadgen-1") String source,
        @Schema(example = "webrtc.rtt.ms") String metric,
        // the API documents the kinds in lower case, as curl users write them; the enum's names are upper case
        @JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_VALUES)
        @Schema(description = "gauge, counter (monotonic total) or summary; any case") SampleKind kind,
        Double value,
        Map<String, String> labels,
        @Schema(description = "statistics the tool aggregated; only on summary samples") SummaryRequest summary) {

    public SampleRequest {
        if (timestamp == null) {
            throw new InvalidLifecycleRequestException("sample of " + metric + ": timestamp is required");
        }
        // blank or oversized source, metric and labels are refused by SampleChecks, naming the item's index
        if (value == null) {
            throw new InvalidLifecycleRequestException("sample of " + metric + ": value is required");
        }
        if (!Double.isFinite(value)) {
            throw new InvalidLifecycleRequestException("sample of " + metric + ": value must be finite");
        }
        kind = kind == null ? (summary == null ? SampleKind.GAUGE : SampleKind.SUMMARY) : kind;
        if (summary != null && kind != SampleKind.SUMMARY) {
            throw new InvalidLifecycleRequestException("sample of " + metric + ": summary statistics need kind "
                    + "SUMMARY, was " + kind);
        }
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
}
