package dev.caplab.store.http;

import dev.caplab.store.engine.ClickHouseException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a reader may set: limits capped, overflow modes pinned, everything else refused. */
class ReaderSettingsTest {

    @Test
    void limitsAreCappedAndPinnedWhateverTheReaderAsks() {
        ReaderLimits limits = ReaderLimits.defaults("caplab");
        assertThat(ReaderSettings.effective(Map.of("max_execution_time", "0", "max_result_bytes", "5",
                "output_format_json_quote_64bit_integers", "1"), limits)).containsEntry("max_execution_time", "30")
                .containsEntry("max_result_bytes", "5").containsEntry("max_memory_usage", Long.toString(2L << 30))
                .containsEntry("result_overflow_mode", "throw").containsEntry("timeout_overflow_mode", "throw")
                .containsEntry("output_format_json_quote_64bit_integers", "1");
        assertThat(ReaderSettings.effective(Map.of("max_execution_time", "99999"), limits))
                .containsEntry("max_execution_time", "30");
        // max_threads: absent, "0" (all cores) and more than the cap all become the cap; less is kept
        ReaderLimits twoThreads = limits.withMaxThreads(2);
        for (Map<String, String> asked : java.util.List.of(Map.<String, String>of(), Map.of("max_threads", "0"),
                Map.of("max_threads", "64"), Map.of("MAX_THREADS", "64"))) {
            assertThat(ReaderSettings.effective(asked, twoThreads)).as("%s", asked).containsEntry("max_threads", "2");
        }
        assertThat(ReaderSettings.effective(Map.of("max_threads", "1"), twoThreads)).containsEntry("max_threads", "1");
        for (Map<String, String> loosening : java.util.List.of(Map.of("timeout_overflow_mode", "break"),
                Map.of("allow_introspection_functions", "1"), Map.of("output_format_schema", "/tmp/x"),
                Map.of("readonly", "0"))) {
            assertThatThrownBy(() -> ReaderSettings.effective(loosening, limits)).as("%s", loosening)
                    .isInstanceOf(ClickHouseException.class).hasMessageContaining("Cannot modify");
        }
    }
}
