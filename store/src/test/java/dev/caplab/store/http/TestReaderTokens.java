package dev.caplab.store.http;

import dev.caplab.access.ApiToken;
import dev.caplab.access.Scope;
import dev.caplab.access.TokenAuthenticator;
import java.util.List;
import java.util.Set;

/** Read tokens as caplab wires them into the port: the access module's one token check, not a test double. */
final class TestReaderTokens {

    private TestReaderTokens() {
    }

    /** One token with the read scope and one with only write, so a write token used as password must fail. */
    static ReaderTokens readOnly(String readSecret, String writeSecret) {
        TokenAuthenticator tokens = new TokenAuthenticator(List.of(new ApiToken("reader", readSecret, Set.of(Scope.READ)),
                new ApiToken("writer", writeSecret, Set.of(Scope.WRITE))), Set.of());
        return secret -> tokens.grants(Scope.READ, secret);
    }
}
