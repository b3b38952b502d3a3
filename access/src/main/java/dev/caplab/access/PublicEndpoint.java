package dev.caplab.access;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A controller method (or controller) anyone may call without a token; {@code value} says why that is safe. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface PublicEndpoint {

    /** Why no token is needed, e.g. "liveness probe: carries no data". */
    String value();
}
