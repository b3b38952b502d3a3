package dev.caplab.store.http;

/**
 * Which passwords of {@value HttpSettings#READER_USER} are read tokens. The store does not compare tokens itself:
 * caplab passes its one token check (the access module's {@code TokenAuthenticator}, the same that guards ingest and
 * the query API), so a token means the same on every port.
 */
@FunctionalInterface
public interface ReaderTokens {

    /** No password is a read token: readers get in anonymously or not at all. */
    ReaderTokens NONE = secret -> false;

    /** Whether {@code secret} is a token with the read scope. */
    boolean grantsRead(String secret);
}
