package dev.caplab.schema.limits;

/**
 * How large one sample may be: the one definition ingest refuses beyond at the door and streams guards against for
 * records that reached Kafka another way. Sizes are UTF-8 bytes. Every value stays far below the 65,535 bytes of
 * {@code DataOutput.writeUTF}, and a sample at every limit at once (about 67 KB encoded) fits one Kafka record and
 * one state record with room to spare.
 *
 * @param maxNameBytes           run id, source, metric name, summary quantile name
 * @param maxLabelsPerSample     labels (tags, string fields, columns) of one sample, and quantiles of one summary
 * @param maxLabelKeyBytes       one label key
 * @param maxLabelValueBytes     one label value
 * @param maxLabelBytesPerSample all label keys and values of one sample together
 */
public record SampleLimits(int maxNameBytes, int maxLabelsPerSample, int maxLabelKeyBytes, int maxLabelValueBytes,
                           int maxLabelBytesPerSample) {

    /** 512-byte names; 128 labels of 256-byte keys and 16 KiB values (a Locust traceback fits), 64 KiB in all. */
    public static final SampleLimits DEFAULTS = new SampleLimits(512, 128, 256, 16 * 1024, 64 * 1024);

    private static final int WRITE_UTF_MAX_BYTES = 65_535;

    public SampleLimits {
        for (int v : new int[] {maxNameBytes, maxLabelsPerSample, maxLabelKeyBytes, maxLabelValueBytes,
                maxLabelBytesPerSample}) {
            if (v < 1) {
                throw new IllegalArgumentException("every sample limit must be >= 1: " + this);
            }
        }
        if (maxNameBytes > WRITE_UTF_MAX_BYTES || maxLabelKeyBytes > WRITE_UTF_MAX_BYTES
                || maxLabelValueBytes > WRITE_UTF_MAX_BYTES) {
            throw new IllegalArgumentException("names and labels must stay within writeUTF's 65,535 bytes: " + this);
        }
    }
}
