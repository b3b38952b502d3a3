package dev.caplab.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void ephemeralPortsClaimedTogetherAreDistinct() {
        for (int i = 0; i < 200; i++) {
            int[] ports = Ports.claim("127.0.0.1", new String[] {"a", "b", "c"}, new int[] {0, 0, 0});
            assertThat(Arrays.stream(ports).distinct().count()).isEqualTo(3);
        }
    }

    @Test
    void aTakenPortIsNamedInTheError() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> Ports.claim("HTTP", "127.0.0.1", taken.getLocalPort()))
                    .isInstanceOf(PortInUseException.class).hasMessageContaining("HTTP port " + taken.getLocalPort());
        }
    }
}
