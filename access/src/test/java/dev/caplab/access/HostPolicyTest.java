package dev.caplab.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostPolicyTest {

    @Test
    void onLoopbackOnlyLoopbackNamesAndAllowListedOriginsAreThisServer() {
        HostPolicy policy = HostPolicy.forBindAddress("127.0.0.1", List.of("https://grafana.example"));
        for (String host : List.of("localhost:8080", "LOCALHOST", "app.localhost:8080", "127.0.0.1:8080",
                "127.1.2.3", "[::1]:8080", "grafana.example")) {
            assertThat(policy.refusal(host)).as(host).isEmpty();
        }
        for (String host : List.of("evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example:8080",
                "10.0.0.5:8080", "[::2]:8080")) {
            assertThat(policy.refusal(host)).as(host).isPresent();
        }
        assertThat(policy.refusal(null)).as("HTTP/1.0 without Host").isEmpty();
    }

    @Test
    void aServerBoundToAnotherAddressCannotKnowItsNamesAndChecksNone() {
        assertThat(HostPolicy.forBindAddress("0.0.0.0", List.of()).refusal("evil.example")).isEmpty();
        assertThat(HostPolicy.forBindAddress(null, List.of()).refusal("evil.example")).isEmpty();
        assertThat(HostPolicy.forBindAddress("localhost", List.of()).refusal("evil.example")).isPresent();
    }
}
