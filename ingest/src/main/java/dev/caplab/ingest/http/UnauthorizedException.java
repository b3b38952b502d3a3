package dev.caplab.ingest.http;

/** The request's credentials do not allow writing; answered with 401 and the reason. */
public final class UnauthorizedException extends RuntimeException {

    public UnauthorizedException(String reason) {
        super(reason);
    }
}
