package dev.caplab.ingest.iperf;

/** Which way the data flowed, seen from the host that wrote the iperf3 report. */
public enum Direction {
    /** This host sent: the test measured its egress ceiling. */
    EGRESS,
    /** This host received: the test measured its ingress ceiling. */
    INGRESS
}
