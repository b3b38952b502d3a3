package dev.caplab.query.plan;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.query.testing.UntouchableStore;
import dev.caplab.query.web.BadRequestParameterException;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A plan's lists are bounded before any run is read: a reader that fails on any call proves no query ran. */
class PlanLimitsTest {

    private static final PlanRequest.Profile PROFILE = new PlanRequest.Profile("p", 10.0, null, null, null);

    private final PlanService plans = new PlanService(UntouchableStore.runs(), null, null);

    @Test
    void moreTiersThanTheLimitAreRefusedBeforeAnyQuery() {
        List<String> tiers = Collections.nCopies(PlanService.MAX_TIERS + 1, "c5.large");

        assertThatThrownBy(() -> plans.plan(new PlanRequest(PROFILE, List.of(), tiers, null, null)))
                .isInstanceOf(BadRequestParameterException.class)
                .hasMessageContaining("'tiers'").hasMessageContaining("at most 20");
    }

    @Test
    void moreRunIdsThanTheLimitAreRefusedBeforeAnyQuery() {
        List<String> runIds = Collections.nCopies(100_000, "run");

        assertThatThrownBy(() -> plans.plan(new PlanRequest(PROFILE, runIds, List.of(), null, null)))
                .isInstanceOf(BadRequestParameterException.class)
                .hasMessageContaining("'runIds'").hasMessageContaining("at most 20");
    }

    @Test
    void runIdsAndTiersCountTogether() {
        assertThatThrownBy(() -> plans.plan(new PlanRequest(PROFILE, Collections.nCopies(15, "run"),
                Collections.nCopies(6, "tier"), null, null)))
                .isInstanceOf(BadRequestParameterException.class)
                .hasMessageContaining("'tiers' = '6 tiers besides 15 run ids'");
    }
}
