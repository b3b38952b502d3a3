package dev.caplab.access;

/** A request the port refuses before any controller runs; {@link Refusal} fixes the status and problem type. */
public final class AccessDeniedException extends RuntimeException {

    /** Why a request was refused, with the HTTP status and the RFC 9457 problem type it is answered with. */
    public enum Refusal {
        /** No credentials, or credentials no token matches. */
        UNAUTHENTICATED(401, "unauthenticated", "Authentication required"),
        /** A known token without the scope the endpoint declares. */
        INSUFFICIENT_SCOPE(403, "insufficient-scope", "Insufficient scope"),
        /** A state-changing call from a browser page of another origin. */
        CROSS_ORIGIN(403, "cross-origin", "Cross-origin request refused"),
        /** The routed handler declares no scope and is not public: refused rather than left open. */
        UNDECLARED_SCOPE(403, "undeclared-scope", "Endpoint declares no scope"),
        /** The query string (where credentials may be) does not decode. */
        MALFORMED(400, "malformed-request", "Malformed request");

        private final int status;
        private final String type;
        private final String title;

        Refusal(int status, String type, String title) {
            this.status = status;
            this.type = type;
            this.title = title;
        }

        public int status() {
            return status;
        }

        public String type() {
            return type;
        }

        public String title() {
            return title;
        }
    }

    private final Refusal refusal;
    private final Scope scope;

    public AccessDeniedException(Refusal refusal, Scope scope, String message) {
        super(message);
        this.refusal = refusal;
        this.scope = scope;
    }

    public Refusal refusal() {
        return refusal;
    }

    /** The scope the endpoint needed; null for refusals that are not about scopes. */
    public Scope scope() {
        return scope;
    }
}
