package dev.caplab.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.access.AccessDeniedException.Refusal;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TokenAuthenticatorTest {

    private static final String WRITER = "writer-secret-0123456789";
    private static final String READER = "reader-secret-0123456789";
    private final TokenAuthenticator tokens = new TokenAuthenticator(List.of(
            new ApiToken("k6", WRITER, Set.of(Scope.WRITE)), new ApiToken("notebook", READER, Set.of(Scope.READ))),
            Set.of());

    @Test
    void everyAcceptedFormOfTheSecretAuthorizes() {
        String basic = Base64.getEncoder().encodeToString(("k6:" + WRITER).getBytes(StandardCharsets.UTF_8));
        assertThat(tokens.authorize(Scope.WRITE, "Bearer " + WRITER, null)).isEqualTo("k6");
        assertThat(tokens.authorize(Scope.WRITE, "Token " + WRITER, null)).isEqualTo("k6");
        assertThat(tokens.authorize(Scope.WRITE, "Basic " + basic, null)).isEqualTo("k6");
        assertThat(tokens.authorize(Scope.WRITE, null, "db=r1&u=k6&p=" + WRITER)).isEqualTo("k6");
        assertThat(tokens.authorize(Scope.READ, "bearer " + READER, "p=ignored-when-a-header-is-sent")).isEqualTo("notebook");
    }

    @Test
    void missingUnknownAndUnderScopedTokensAreRefusedWithTheReason() {
        assertThatThrownBy(() -> tokens.authorize(Scope.WRITE, null, "db=r1"))
                .isInstanceOfSatisfying(AccessDeniedException.class,
                        e -> assertThat(e.refusal()).isEqualTo(Refusal.UNAUTHENTICATED))
                .hasMessageStartingWith("missing token");
        assertThatThrownBy(() -> tokens.authorize(Scope.WRITE, "Bearer " + WRITER + "x", null))
                .hasMessage("unknown token");
        assertThatThrownBy(() -> tokens.authorize(Scope.WRITE, "Bearer " + READER, null))
                .isInstanceOfSatisfying(AccessDeniedException.class,
                        e -> assertThat(e.refusal()).isEqualTo(Refusal.INSUFFICIENT_SCOPE))
                .hasMessage("token 'notebook' lacks the 'write' scope");
        assertThatThrownBy(() -> tokens.authorize(Scope.READ, "Digest abc", null))
                .hasMessageContaining("unsupported Authorization scheme 'Digest'");
    }

    /** InfluxDB 2 clients (Telegraf's influxdb_v2, influxdb-client, xk6-output-influxdb) send "Token": same checks. */
    @Test
    void influxDb2TokenSchemeIsCheckedLikeBearer() {
        assertThat(tokens.authorize(Scope.WRITE, "token  " + WRITER + " ", null)).isEqualTo("k6");
        assertThatThrownBy(() -> tokens.authorize(Scope.WRITE, "Token " + WRITER + "x", null))
                .hasMessage("unknown token");
        assertThatThrownBy(() -> tokens.authorize(Scope.WRITE, "Token " + READER, null))
                .isInstanceOfSatisfying(AccessDeniedException.class,
                        e -> assertThat(e.refusal()).isEqualTo(Refusal.INSUFFICIENT_SCOPE));
        assertThatThrownBy(() -> tokens.authorize(Scope.WRITE, "Token", null)).hasMessage("unknown token");
    }

    @Test
    void anonymousScopesOpenOnlyWhatTheyName() {
        TokenAuthenticator readOpen = new TokenAuthenticator(List.of(new ApiToken("k6", WRITER, Set.of(Scope.WRITE))),
                Set.of(Scope.READ));
        assertThat(readOpen.authorize(Scope.READ, null, null)).isEqualTo(TokenAuthenticator.ANONYMOUS);
        assertThatThrownBy(() -> readOpen.authorize(Scope.WRITE, null, null)).isInstanceOf(AccessDeniedException.class);
    }

    @Test
    void theScopesOfARequestAreThoseItsCredentialsHoldAndTheAnonymousOnes() {
        assertThat(tokens.scopesOf("Bearer " + READER, null)).containsExactly(Scope.READ);
        assertThat(tokens.scopesOf(null, "p=" + WRITER)).containsExactly(Scope.WRITE);
        assertThat(tokens.scopesOf("Bearer not-a-token-0123456789", null)).isEmpty();
        assertThat(tokens.scopesOf(null, null)).isEmpty();
        TokenAuthenticator readOpen = new TokenAuthenticator(List.of(new ApiToken("k6", WRITER, Set.of(Scope.WRITE))),
                Set.of(Scope.READ));
        assertThat(readOpen.scopesOf(null, null)).containsExactly(Scope.READ);
        assertThat(readOpen.scopesOf("Bearer " + WRITER, null)).containsExactlyInAnyOrder(Scope.READ, Scope.WRITE);
    }

    @Test
    void cliOptionsParseIntoTheSameTokenType() {
        ApiToken token = ApiToken.fromOption("0123456789abcdef=read,write", 2);
        assertThat(token).isEqualTo(new ApiToken("cli-2", "0123456789abcdef", Set.of(Scope.READ, Scope.WRITE)));
        assertThatThrownBy(() -> ApiToken.fromOption("0123456789abcdef=admin", 1))
                .hasMessage("--token cli-1: unknown scope 'admin' (read, write)");
        assertThatThrownBy(() -> ApiToken.fromOption("short=read", 1)).hasMessageContaining("at least 16 characters");
    }

    /**
     * An ingest token (write) and a query token (read) go through one comparison whatever port carries them: the
     * HTTP port's header and the ClickHouse port's reader password ({@code grants}) agree for every token and scope.
     */
    @Test
    void headerAndPasswordFormsOfATokenGetTheSameAnswerForEveryScope() {
        for (String secret : List.of(WRITER, READER, WRITER + "x", "")) {
            for (Scope scope : Scope.values()) {
                boolean viaHeader;
                try {
                    tokens.authorize(scope, "Bearer " + secret, null);
                    viaHeader = true;
                } catch (AccessDeniedException e) {
                    viaHeader = false;
                }
                assertThat(tokens.grants(scope, secret)).as("%s %s", secret, scope).isEqualTo(viaHeader);
            }
        }
        assertThat(tokens.grants(Scope.WRITE, WRITER)).isTrue();
        assertThat(tokens.grants(Scope.READ, READER)).isTrue();
        assertThat(tokens.grants(Scope.WRITE, READER)).as("a read-only token cannot ingest").isFalse();
        assertThat(tokens.grants(Scope.READ, WRITER)).as("an ingest token cannot query").isFalse();
        assertThat(tokens.grants(Scope.READ, null)).isFalse();
    }

    @Test
    void anonymousScopesAreReportedForPortsThatAdmitRequestsWithoutCredentials() {
        TokenAuthenticator open = new TokenAuthenticator(List.of(), Set.of(Scope.READ));
        assertThat(open.grantsAnonymously(Scope.READ)).isTrue();
        assertThat(open.grantsAnonymously(Scope.WRITE)).isFalse();
        assertThat(tokens.grantsAnonymously(Scope.READ)).isFalse();
    }

    @Test
    void aTokenNeverShowsItsSecretAndARandomOneIsLongAndFresh() {
        ApiToken a = ApiToken.random("own", Set.of(Scope.READ));
        ApiToken b = ApiToken.random("own", Set.of(Scope.READ));
        assertThat(a.secret()).hasSizeGreaterThanOrEqualTo(43).isNotEqualTo(b.secret());
        assertThat(a.toString()).doesNotContain(a.secret()).contains("own");
        assertThat(new ApiToken("k6", WRITER, Set.of(Scope.WRITE)).toString()).doesNotContain(WRITER);
    }
}
