package dev.caplab.query.compare;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.query.testing.UntouchableStore;
import dev.caplab.query.web.BadRequestParameterException;
import java.util.Collections;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A comparison's run ids are bounded before any run is read. */
class RunSelectionLimitsTest {

    @Test
    void moreRunIdsThanTheLimitAreRefusedBeforeAnyQuery() {
        assertThatThrownBy(() -> RunSelection.of(UntouchableStore.runs(),
                Collections.nCopies(RunSelection.MAX_RUNS + 1, "run"), Optional.empty(), false))
                .isInstanceOf(BadRequestParameterException.class)
                .hasMessageContaining("'runId'").hasMessageContaining("at most 50");
    }
}
