package dev.caplab.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.Test;

/** Dedup tokens and the intent committed in offset metadata. */
class BatchIntentTest {

    @Test
    void closingBatchesOfOneRangeShareTheRangeTokenWhateverTheyHold() {
        var rest = new BatchIntent("caplab.samples", 3, 1005, 1999, 1000, 2000, true);
        var whole = new BatchIntent("caplab.samples", 3, 1000, 1998, 1000, 2000, true);
        assertThat(rest.token("samples")).isEqualTo(whole.token("samples"))
                .isEqualTo("caplab.samples-3-range-1000-1999:samples");
    }

    @Test
    void openBatchesTakeTheirOwnOffsetsAndNeverARangeToken() {
        var head = BatchIntent.open("caplab.samples", 3, 1000, 1004, 1000, 2000);
        assertThat(head.token("samples")).isEqualTo("caplab.samples-3-1000-1004:samples");
        assertThat(BatchIntent.open("caplab.samples", 3, 1000, 1999, 1000, 2000).token("samples"))
                .isNotEqualTo(new BatchIntent("caplab.samples", 3, 1000, 1999, 1000, 2000, true).token("samples"));
    }

    @Test
    void intentSurvivesTheOffsetMetadataRoundTrip() {
        var closing = new BatchIntent("caplab.runs", 0, 12, 19, 10, 20, true);
        var open = BatchIntent.open("caplab.runs", 0, 20, 23, 20, 30);
        assertThat(BatchIntent.from("caplab.runs", 0, closing.asCommit())).contains(closing);
        assertThat(BatchIntent.from("caplab.runs", 0, open.asCommit())).contains(open);
        assertThat(closing.asCommit().offset()).isEqualTo(12);
    }

    @Test
    void intentFromBeforeAlignmentRecoversWithTheTokenItWasWrittenWith() {
        var legacy = BatchIntent.from("caplab.samples", 1, new OffsetAndMetadata(40, "caplab-sink-intent:40-57"));
        assertThat(legacy).get().extracting(i -> i.token("samples")).isEqualTo("caplab.samples-1-40-57:samples");
        assertThat(BatchIntent.from("caplab.samples", 1, new OffsetAndMetadata(58, ""))).isEmpty();
    }

    @Test
    void batchCrossingItsRangeOrUnreadableIntentIsRejectedWithContext() {
        assertThatThrownBy(() -> new BatchIntent("caplab.samples", 2, 95, 105, 0, 100, true))
                .hasMessageContaining("caplab.samples-2 95..105 crosses its aligned range 0..99");
        assertThatThrownBy(() -> BatchIntent.from("caplab.samples", 2, new OffsetAndMetadata(7,
                "caplab-sink-intent:seven"))).hasMessageContaining("caplab.samples-2 at offset 7");
    }
}
