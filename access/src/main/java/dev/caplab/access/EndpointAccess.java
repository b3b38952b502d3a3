package dev.caplab.access;

import java.util.Optional;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.ParameterizableViewController;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;

/**
 * What a routed handler requires: a scope, or nothing because it is public. Public are handlers marked
 * {@link PublicEndpoint} and these framework handlers, none of which returns caplab data: static files (the web page's
 * HTML, JS, CSS, webjars), the welcome-page forward to {@code index.html}, Spring's error page, and springdoc's
 * OpenAPI document and Swagger UI. Anything else without {@link RequiresScope} is undeclared and refused.
 */
public record EndpointAccess(Scope scope, String publicReason) {

    private static final String SPRINGDOC_PACKAGE = "org.springdoc.";

    public boolean isPublic() {
        return scope == null;
    }

    /** The access the handler declares; empty when it declares none (the caller refuses it). */
    public static Optional<EndpointAccess> of(Object handler) {
        return switch (handler) {
            case HandlerMethod method -> ofMethod(method);
            case ResourceHttpRequestHandler ignored -> Optional.of(open("static files of the web page"));
            case ParameterizableViewController ignored -> Optional.of(open("welcome page forward to index.html"));
            default -> Optional.empty();
        };
    }

    private static Optional<EndpointAccess> ofMethod(HandlerMethod method) {
        RequiresScope scope = AnnotatedElementUtils.findMergedAnnotation(method.getMethod(), RequiresScope.class);
        PublicEndpoint open = AnnotatedElementUtils.findMergedAnnotation(method.getMethod(), PublicEndpoint.class);
        if (scope == null && open == null) {
            scope = AnnotatedElementUtils.findMergedAnnotation(method.getBeanType(), RequiresScope.class);
            open = AnnotatedElementUtils.findMergedAnnotation(method.getBeanType(), PublicEndpoint.class);
        }
        if (scope != null && open != null) {
            throw new IllegalStateException(method + " is declared both public and requiring a scope");
        }
        if (scope != null) {
            return Optional.of(new EndpointAccess(scope.value(), null));
        }
        if (open != null) {
            return Optional.of(open(open.value()));
        }
        if (ErrorController.class.isAssignableFrom(method.getBeanType())) {
            return Optional.of(open("error page of a request already refused or failed"));
        }
        if (method.getBeanType().getName().startsWith(SPRINGDOC_PACKAGE)) {
            return Optional.of(open("OpenAPI document and Swagger UI: describe the API, carry no data"));
        }
        return Optional.empty();
    }

    private static EndpointAccess open(String reason) {
        return new EndpointAccess(null, reason);
    }
}
