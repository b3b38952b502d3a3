package dev.caplab.ingest.publish;

import static dev.caplab.schema.vocabulary.LabelNames.HOST;
import static dev.caplab.schema.vocabulary.LabelNames.RUN;
import static dev.caplab.schema.vocabulary.LabelNames.RUN_ID;
import static dev.caplab.schema.vocabulary.LabelNames.SOURCE;

import java.util.Map;

/**
 * The tag conventions shared by tag-based formats (line protocol, k6 JSON): the {@code run} or {@code run_id} tag
 * names the run (else the request's default), the {@code source} tag, else {@code host}, names the source.
 * {@code run}, {@code run_id} and {@code source} are consumed; every other tag stays a label.
 */
public final class RunTags {

    private RunTags() {
    }

    /** True for tags that route the sample rather than label it. */
    public static boolean isRouting(String key) {
        return RUN.equals(key) || RUN_ID.equals(key) || SOURCE.equals(key);
    }

    /** The run named by the tags, else the default (may be null: the caller reports the missing run). */
    public static String runOf(Map<String, String> tags, String defaultRunId) {
        String run = tags.get(RUN);
        if (run == null) {
            run = tags.get(RUN_ID);
        }
        return run != null ? run : defaultRunId;
    }

    /** The source named by the tags, else the default. */
    public static String sourceOf(Map<String, String> tags, String defaultSource) {
        String source = tags.get(SOURCE);
        if (source == null) {
            source = tags.get(HOST);
        }
        return source != null ? source : defaultSource;
    }
}
