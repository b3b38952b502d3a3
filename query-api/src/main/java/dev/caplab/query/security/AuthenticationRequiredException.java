package dev.caplab.query.security;

/** The request carries no token, or one the API does not know: answered 401 with the reason. */
public final class AuthenticationRequiredException extends RuntimeException {

    public AuthenticationRequiredException(String message) {
        super(message);
    }
}
