package dev.caplab.ingest.iperf;

/** One reporting interval of an iperf3 test: seconds since the test started, and the rate this host measured. */
public record IperfInterval(double endSeconds, double mbps) {

    public IperfInterval {
        if (!(endSeconds >= 0) || !(mbps >= 0)) {
            throw new IllegalArgumentException("interval needs endSeconds >= 0 and mbps >= 0, was " + endSeconds
                    + ", " + mbps);
        }
    }
}
