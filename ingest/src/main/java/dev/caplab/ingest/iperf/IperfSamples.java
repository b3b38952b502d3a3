package dev.caplab.ingest.iperf;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.schema.sample.Samples;
import dev.caplab.schema.event.Sample;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * An iperf3 measurement as samples of the host that ran it: the whole-test rate of each side measured
 * ({@code scope=test}, {@code side=sender|receiver}) and this host's rate per interval ({@code scope=interval}).
 */
public final class IperfSamples {

    private IperfSamples() {
    }

    public static List<Sample> of(IperfMeasurement m) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("direction", m.direction().name().toLowerCase(Locale.ROOT));
        labels.put("protocol", m.protocol());
        labels.put("streams", Integer.toString(m.streams()));
        labels.put("remote", m.remoteHost());
        Instant end = at(m.startedAt(), m.durationSeconds());
        List<Sample> out = new ArrayList<>();
        add(out, end, m, MetricNames.NET_THROUGHPUT_MBPS, m.senderMbps(), with(labels, LabelNames.SCOPE, "test", LabelNames.SIDE, "sender"));
        add(out, end, m, MetricNames.NET_THROUGHPUT_MBPS, m.receiverMbps(),
                with(labels, LabelNames.SCOPE, "test", LabelNames.SIDE, "receiver"));
        add(out, end, m, MetricNames.NET_RETRANSMITS_COUNT, m.retransmits(), with(labels, LabelNames.SCOPE, "test"));
        add(out, end, m, MetricNames.NET_JITTER_MS, m.jitterMillis(), with(labels, LabelNames.SCOPE, "test"));
        add(out, end, m, MetricNames.NET_LOSS_PERCENT, m.lossPercent(), with(labels, LabelNames.SCOPE, "test"));
        String localSide = m.direction() == Direction.EGRESS ? "sender" : "receiver";
        for (IperfInterval interval : m.intervals()) {
            out.add(Samples.gauge(at(m.startedAt(), interval.endSeconds()), m.localHost(),
                    MetricNames.NET_THROUGHPUT_MBPS, interval.mbps(),
                    with(labels, LabelNames.SCOPE, "interval", LabelNames.SIDE, localSide)));
        }
        return out;
    }

    private static void add(List<Sample> out, Instant at, IperfMeasurement m, String metric, OptionalDouble value,
            Map<String, String> labels) {
        if (value.isPresent()) {
            out.add(Samples.gauge(at, m.localHost(), metric, value.getAsDouble(), labels));
        }
    }

    private static Instant at(Instant start, double seconds) {
        return start.plus(Duration.ofNanos(Math.round(seconds * 1e9)));
    }

    private static Map<String, String> with(Map<String, String> labels, String... pairs) {
        Map<String, String> copy = new LinkedHashMap<>(labels);
        for (int i = 0; i < pairs.length; i += 2) {
            copy.put(pairs[i], pairs[i + 1]);
        }
        return copy;
    }
}
