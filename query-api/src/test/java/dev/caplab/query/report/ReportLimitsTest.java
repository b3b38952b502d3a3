package dev.caplab.query.report;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.query.web.BadRequestParameterException;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A report's runs are bounded before any is read: the service has no reader at all here. */
class ReportLimitsTest {

    @Test
    void moreRunsThanTheLimitAreRefusedBeforeAnyQuery() {
        List<String> runs = IntStream.rangeClosed(0, ReportService.MAX_RUNS).mapToObj(i -> "run-" + i).toList();

        assertThatThrownBy(() -> new ReportService(null, null, null, null, null, null).html(runs))
                .isInstanceOf(BadRequestParameterException.class)
                .hasMessageContaining("'run'").hasMessageContaining("at most 6 runs");
    }
}
