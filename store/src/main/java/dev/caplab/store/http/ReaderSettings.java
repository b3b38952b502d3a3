package dev.caplab.store.http;

import dev.caplab.store.engine.ClickHouseException;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The settings a reader's query runs with: the reader's own URL settings, if allowed, with the limits capped to
 * {@link ReaderLimits} and the overflow modes pinned to {@code throw}, so a limit ends the query with an error
 * instead of truncating it silently or being lifted.
 */
final class ReaderSettings {

    static final int READONLY = 164;

    // Limits a reader may ask for only up to the cap ("0" means "none" to ClickHouse, so it becomes the cap).
    private static final List<String> CAPPED = List.of("max_execution_time", "max_memory_usage", "max_threads",
            "max_result_rows", "max_result_bytes");
    private static final Set<String> PINNED_TO_THROW = Set.of("result_overflow_mode", "timeout_overflow_mode");
    // Limits whose default is "none": any value a reader sets only tightens them.
    private static final Set<String> TIGHTENING = Set.of("max_rows_to_read", "max_bytes_to_read",
            "max_rows_to_group_by", "max_rows_to_sort", "max_bytes_to_sort", "max_rows_in_join", "max_bytes_in_join",
            "max_rows_in_set", "max_bytes_in_set", "max_rows_in_distinct", "max_bytes_in_distinct",
            "max_rows_to_transfer", "max_bytes_to_transfer", "max_columns_to_read", "max_ast_elements",
            "max_ast_depth", "max_expanded_ast_elements", "read_overflow_mode", "group_by_overflow_mode",
            "sort_overflow_mode", "join_overflow_mode", "set_overflow_mode", "distinct_overflow_mode",
            "transfer_overflow_mode");
    // How results look; none of these reads or writes anything.
    private static final Set<String> PRESENTATION = Set.of("extremes", "join_use_nulls", "session_timezone",
            "date_time_output_format", "output_format_json_quote_64bit_integers", "output_format_json_quote_denormals",
            "output_format_json_quote_decimals", "output_format_json_named_tuples_as_objects",
            "output_format_decimal_trailing_zeros", "output_format_csv_crlf_end_of_line",
            "output_format_tsv_crlf_end_of_line", "output_format_pretty_max_rows",
            "output_format_pretty_color", "output_format_write_statistics", "output_format_json_escape_forward_slashes",
            "output_format_native_write_json_as_string", "output_format_arrow_string_as_string",
            "output_format_parquet_string_as_string", "format_csv_delimiter", "format_tsv_null_representation",
            "format_csv_null_representation", "enable_analyzer", "allow_experimental_analyzer");

    private ReaderSettings() {
    }

    /** The settings to apply for a reader who asked for {@code requested}; refuses what readers may not set. */
    static Map<String, String> effective(Map<String, String> requested, ReaderLimits limits) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : requested.entrySet()) {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            if (CAPPED.contains(name)) {
                continue; // set below, capped
            }
            if (PINNED_TO_THROW.contains(name)) {
                if (!"throw".equalsIgnoreCase(e.getValue().strip())) {
                    throw refused(e.getKey(), "limits end a reader's query with an error; only 'throw' is accepted");
                }
                continue;
            }
            if (!TIGHTENING.contains(name) && !PRESENTATION.contains(name)) {
                throw refused(e.getKey(), "readers may set only result limits and presentation settings");
            }
            out.put(name, e.getValue());
        }
        out.put("max_execution_time", cap(requested, "max_execution_time", limits.maxExecutionSeconds()));
        out.put("max_memory_usage", cap(requested, "max_memory_usage", limits.maxMemoryBytes()));
        out.put("max_threads", cap(requested, "max_threads", limits.maxThreads()));
        out.put("max_result_rows", cap(requested, "max_result_rows", limits.maxResultRows()));
        out.put("max_result_bytes", cap(requested, "max_result_bytes", limits.maxResultBytes()));
        out.put("result_overflow_mode", "throw");
        out.put("timeout_overflow_mode", "throw");
        return out;
    }

    private static String cap(Map<String, String> requested, String name, long limit) {
        String asked = requested.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue).findFirst().orElse(null);
        if (asked == null) {
            return Long.toString(limit);
        }
        BigDecimal value;
        try {
            value = new BigDecimal(asked.strip());
        } catch (NumberFormatException e) {
            throw new ClickHouseException(ClickHouseRequest.BAD_ARGUMENTS, "Code: 36. DB::Exception: setting " + name
                    + " must be a number, was '" + asked + "'. (BAD_ARGUMENTS)");
        }
        if (value.signum() < 0) {
            throw new ClickHouseException(ClickHouseRequest.BAD_ARGUMENTS, "Code: 36. DB::Exception: setting " + name
                    + " must not be negative, was " + asked + ". (BAD_ARGUMENTS)");
        }
        boolean none = value.signum() == 0;
        return none || value.compareTo(BigDecimal.valueOf(limit)) > 0 ? Long.toString(limit)
                : value.stripTrailingZeros().toPlainString();
    }

    private static ClickHouseException refused(String name, String why) {
        return new ClickHouseException(READONLY, "Code: 164. DB::Exception: Cannot modify '" + name + "' setting: "
                + why + ". (READONLY)");
    }
}
