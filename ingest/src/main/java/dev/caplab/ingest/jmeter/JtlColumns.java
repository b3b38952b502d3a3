package dev.caplab.ingest.jmeter;

import java.util.List;
import java.util.Set;

/** The columns of JMeter's CSV result files (JTL), as JMeter's SampleSaveConfiguration writes them, in its order. */
public final class JtlColumns {

    public static final String TIME_STAMP = "timeStamp";
    public static final String ELAPSED = "elapsed";
    public static final String LABEL = "label";
    public static final String RESPONSE_CODE = "responseCode";
    public static final String RESPONSE_MESSAGE = "responseMessage";
    public static final String THREAD_NAME = "threadName";
    public static final String DATA_TYPE = "dataType";
    public static final String SUCCESS = "success";
    public static final String FAILURE_MESSAGE = "failureMessage";
    public static final String BYTES = "bytes";
    public static final String SENT_BYTES = "sentBytes";
    public static final String GRP_THREADS = "grpThreads";
    public static final String ALL_THREADS = "allThreads";
    public static final String URL = "URL";
    public static final String LATENCY = "Latency";
    public static final String IDLE_TIME = "IdleTime";
    public static final String CONNECT = "Connect";

    /** JMeter's default column set and order, assumed for a headerless file unless the user names the columns. */
    public static final List<String> DEFAULT = List.of(TIME_STAMP, ELAPSED, LABEL, RESPONSE_CODE, RESPONSE_MESSAGE,
            THREAD_NAME, DATA_TYPE, SUCCESS, FAILURE_MESSAGE, BYTES, SENT_BYTES, GRP_THREADS, ALL_THREADS, URL,
            LATENCY, IDLE_TIME, CONNECT);

    /** Columns that become labels of every sample of their row. */
    static final Set<String> LABEL_COLUMNS = Set.of(LABEL, RESPONSE_CODE, RESPONSE_MESSAGE, THREAD_NAME, DATA_TYPE,
            SUCCESS, FAILURE_MESSAGE, URL);

    /** Further columns JMeter can write that are neither measurements nor labels of the request. */
    static final Set<String> KNOWN_OTHER = Set.of("SampleCount", "ErrorCount", "Hostname", "Encoding", "Filename");

    private JtlColumns() {
    }
}
