package dev.caplab.access;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The scope a controller method (or every method of a controller) needs. Checked by {@link AccessInterceptor} on the
 * handler Spring routed to, so the check holds for every spelling of the path that reaches the method.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface RequiresScope {

    Scope value();
}
