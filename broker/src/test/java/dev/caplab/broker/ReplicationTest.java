package dev.caplab.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ReplicationTest {

    @Test
    void minInSyncIsAllReplicasButOneAndNeverZero() {
        assertThat(new Replication((short) 3).minInSyncReplicas()).isEqualTo(2);
        assertThat(new Replication((short) 2).minInSyncReplicas()).isEqualTo(1);
        assertThat(Replication.SINGLE.minInSyncReplicas()).isEqualTo(1);
        assertThatThrownBy(() -> new Replication((short) 0)).hasMessageContaining("was 0");
    }
}
