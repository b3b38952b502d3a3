package dev.caplab.query.security;

/** A known token without the scope the endpoint needs: answered 403 naming the token and the scope. */
public final class InsufficientScopeException extends RuntimeException {

    private final String scope;

    public InsufficientScopeException(String tokenName, String scope) {
        super("token '" + tokenName + "' lacks the '" + scope + "' scope");
        this.scope = scope;
    }

    public String scope() {
        return scope;
    }
}
