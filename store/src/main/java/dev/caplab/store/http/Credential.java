package dev.caplab.store.http;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;

/**
 * A user name and password for the embedded HTTP interface; {@link #toString()} never shows the password.
 *
 * @param user     ClickHouse user name the client sends
 * @param password its password, compared in constant time
 */
public record Credential(String user, String password) {

    private static final SecureRandom RANDOM = new SecureRandom();

    public Credential {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (user.isBlank()) {
            throw new IllegalArgumentException("a credential needs a user name");
        }
    }

    /** {@code user} with a fresh random password (256 bits, URL-safe base64), generated for one process. */
    public static Credential random(String user) {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return new Credential(user, Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
    }

    @Override
    public String toString() {
        return "Credential[user=" + user + ", password=" + password.substring(0, Math.min(2, password.length()))
                + "…]";
    }
}
