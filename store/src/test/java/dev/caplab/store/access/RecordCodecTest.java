package dev.caplab.store.access;

import dev.caplab.store.row.Column;
import dev.caplab.store.row.Flattened;
import dev.caplab.store.row.NotStored;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a record codec derives without an engine: names, and the refusals when the codec is made. */
class RecordCodecTest {

    @Test
    void aComponentIsStoredUnderItsNameInSnakeCase() {
        assertThat(List.of("breakpointPValue", "rSquared", "lower95", "safeCapacityX", "runId", "x").stream()
                .map(RecordCodec::snakeCase))
                .containsExactly("breakpoint_p_value", "r_squared", "lower95", "safe_capacity_x", "run_id", "x");
    }

    record Limit(double kneeX, @Column("plateau_per_s") double plateau, Instant fittedAt) {
    }

    record Row(String runId, @Column("sample_count") long count, @NotStored String cached,
               @Flattened(prefix = "limit_") Limit limit, int last) {
    }

    @Test
    void columnsFollowTheComponentsWithTheirAnnotationsAndFlattenedValuesInPlace() {
        assertThat(RecordCodec.of(Row.class).columns()).containsExactly("run_id", "sample_count", "limit_knee_x",
                "plateau_per_s", "limit_fitted_at", "last");
    }

    record WithSet(String runId, Set<String> tags) {
    }

    record Boxed(Double kneeX) {
    }

    record FlattenedBox(String runId, @Flattened(prefix = "b_") Boxed boxed) {
    }

    private record Hidden(String runId) {
    }

    @Test
    void aRecordTheStoreCannotSeeFailsWhenTheCodecIsMadeNotAtItsFirstRow() {
        assertThatThrownBy(() -> RecordCodec.of(Hidden.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("RecordCodecTest$Hidden").hasMessageContaining("not accessible to the store");
    }

    @Test
    void aComponentWithoutAStoredFormOrAnAmbiguousAbsenceFailsWhenTheCodecIsMade() {
        assertThatThrownBy(() -> RecordCodec.of(WithSet.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("WithSet.tags").hasMessageContaining("java.util.Set<java.lang.String>")
                .hasMessageContaining("@NotStored");
        assertThatThrownBy(() -> RecordCodec.of(FlattenedBox.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FlattenedBox.boxed").hasMessageContaining("first part must never be null");
    }
}
