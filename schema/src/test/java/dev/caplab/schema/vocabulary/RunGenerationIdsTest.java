package dev.caplab.schema.vocabulary;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The chain k6, k6.2, k6.3 read both ways; ids that only look like a generation are not one. */
class RunGenerationIdsTest {

    @Test
    void generationsFollowEachOther() {
        assertThat(RunGenerationIds.next("k6")).isEqualTo("k6.2");
        assertThat(RunGenerationIds.next("k6.2")).isEqualTo("k6.3");
        assertThat(RunGenerationIds.previous("k6.2")).hasValue("k6");
        assertThat(RunGenerationIds.previous("k6.3")).hasValue("k6.2");
        assertThat(RunGenerationIds.previous("load.test.10")).hasValue("load.test.9");
    }

    @Test
    void idsThatAreNoLaterGenerationHaveNoPrevious() {
        assertThat(RunGenerationIds.previous("k6")).isEmpty();
        assertThat(RunGenerationIds.previous("k6.1")).isEmpty();
        assertThat(RunGenerationIds.previous("k6.02")).isEmpty();
        assertThat(RunGenerationIds.previous("k6.x")).isEmpty();
        assertThat(RunGenerationIds.previous(".2")).isEmpty();
        assertThat(RunGenerationIds.next("k6.1")).isEqualTo("k6.1.2");
    }
}
