package dev.caplab.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OriginPolicyTest {

    private static final String SERVER = "http://localhost:8080";
    private final OriginPolicy policy = new OriginPolicy(List.of("https://Dash.Example/"));

    @Test
    void toolsWithoutOriginAndSafeMethodsPass() {
        assertThat(policy.refusal("POST", null, null, SERVER)).isEmpty();
        assertThat(policy.refusal("GET", "http://evil.example", "cross-site", SERVER)).isEmpty();
    }

    @Test
    void ownPageAndAllowListedOriginsPassWhateverTheirSpelling() {
        assertThat(policy.refusal("POST", "http://localhost:8080", "same-origin", SERVER)).isEmpty();
        assertThat(policy.refusal("POST", "https://dash.example:443", "cross-site", SERVER)).isEmpty();
        assertThat(policy.refusal("DELETE", "https://dash.example", "cross-site", SERVER)).isEmpty();
    }

    @Test
    void otherOriginsAndCrossSiteFetchesAreRefusedNamingWhy() {
        assertThat(policy.refusal("POST", "http://evil.example", null, SERVER)).get().asString()
                .startsWith("cross-origin request from Origin http://evil.example refused");
        assertThat(policy.refusal("POST", "http://localhost:8081", null, SERVER)).isPresent();
        assertThat(policy.refusal("POST", "https://localhost:8080", null, SERVER)).isPresent();
        assertThat(policy.refusal("PUT", "null", null, SERVER)).isPresent();
        assertThat(policy.refusal("POST", null, "cross-site", SERVER)).get().asString()
                .contains("Sec-Fetch-Site: cross-site");
    }
}
