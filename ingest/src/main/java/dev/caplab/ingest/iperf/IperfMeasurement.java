package dev.caplab.ingest.iperf;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What one iperf3 {@code -J} report measured. The sender's and receiver's rates differ (the receiver's is what
 * actually arrived); the ceiling of the path is the receiver's rate. A side is empty when this report did not
 * measure it (a server's report has no sender figures in iperf3 3.12).
 */
public record IperfMeasurement(Instant startedAt, String localHost, String remoteHost, String protocol,
        int streams, double durationSeconds, Direction direction, OptionalDouble senderMbps,
        OptionalDouble receiverMbps, OptionalDouble retransmits, OptionalDouble jitterMillis,
        OptionalDouble lossPercent, List<IperfInterval> intervals) {

    public IperfMeasurement {
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(localHost, "localHost");
        Objects.requireNonNull(direction, "direction");
        if (streams < 1) {
            throw new IllegalArgumentException("streams must be >= 1, was " + streams);
        }
        intervals = List.copyOf(intervals);
    }

    /** The ceiling of the path: what arrived, else what was sent when only the sender's figure is known. */
    public OptionalDouble ceilingMbps() {
        return receiverMbps.isPresent() ? receiverMbps : senderMbps;
    }

    /** The value for {@code Environment.measuredEgressMbps}: the ceiling when this host sent, else empty. */
    public OptionalDouble measuredEgressMbps() {
        return direction == Direction.EGRESS ? ceilingMbps() : OptionalDouble.empty();
    }

    /** The ceiling when this host received ({@code -R} on the client, or the server's own report). */
    public OptionalDouble measuredIngressMbps() {
        return direction == Direction.INGRESS ? ceilingMbps() : OptionalDouble.empty();
    }
}
