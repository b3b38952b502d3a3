package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.streams.TopologySettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The wall clock is checked at least every 200 ms for steps due, whatever the amendment throttle. */
class PunctuationTickTest {

    @Test
    void theDefaultOneSecondThrottleIsCheckedFiveTimesASecond() {
        assertThat(TopologySettings.defaults().punctuateInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(RunProcessor.tick(TopologySettings.defaults())).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void aThrottleFinerThan200MillisIsItsOwnTick() {
        TopologySettings d = TopologySettings.defaults();
        TopologySettings fine = new TopologySettings(d.grace(), Duration.ofMillis(50), d.loadLevelMetrics(),
                d.minInferredStep(), d.inferredWarmup(), d.resourceMetrics(), d.groupLabels(), d.bucket(),
                d.sustained(), d.trimFraction(), d.contamination(), d.fitMargin(), d.allowedLateness(), d.limits(),
                d.runIdleEnd(), d.defaultRules());
        assertThat(RunProcessor.tick(fine)).isEqualTo(Duration.ofMillis(50));
    }
}
