package dev.caplab.query.testing;

/** The bearer headers of the tokens in the test application.properties. */
public final class Tokens {

    public static final String READ = "Bearer read-token-0123456789";
    public static final String WRITE_ONLY = "Bearer write-token-0123456789";

    private Tokens() {
    }
}
