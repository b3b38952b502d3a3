package dev.caplab.ingest.iperf;

/** An iperf3 report that is not JSON, reports a failed test, or lacks a field the measurement needs. */
public final class IperfReportException extends RuntimeException {

    private final long line;
    private final String field;

    public IperfReportException(long line, String field, String reason) {
        super(reason);
        this.line = line;
        this.field = field;
    }

    /** Line of the report the problem is on, 0 when it concerns the whole report. */
    public long line() {
        return line;
    }

    public String field() {
        return field;
    }
}
