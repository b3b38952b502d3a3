package dev.caplab.streams.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class GenerationTest {

    private static final Generation EARLIER = Generation.startedAt(Instant.parse("2026-03-01T10:00:00Z"));
    private static final Generation LATER = Generation.startedAt(Instant.parse("2026-03-01T10:00:00.001Z"));

    @Test
    void liveVersionsAreTheLocalOnesAsBeforeGenerations() {
        assertThat(Generation.LIVE.version(8)).isEqualTo(8);
    }

    @Test
    void aLaterGenerationOutranksAnyRevisionOfAnEarlierOne() {
        // A changed analysis can end a record on a lower revision (a contaminated step drops a refit): 7 after 8.
        assertThat(EARLIER.version(7)).isGreaterThan(Generation.LIVE.version(Generation.SPAN - 1));
        assertThat(LATER.version(7)).isGreaterThan(EARLIER.version(Generation.SPAN - 1));
    }

    @Test
    void aStoredVersionSaysItsGenerationAndRevision() {
        long v = LATER.version(6);
        assertThat(Generation.of(v)).isEqualTo(LATER);
        assertThat(Generation.localOf(v)).isEqualTo(6);
    }

    @Test
    void aRevisionThatWouldSpillIntoTheGenerationIsRefused() {
        assertThatThrownBy(() -> EARLIER.version(Generation.SPAN)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outside");
        assertThatThrownBy(() -> new Generation(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
