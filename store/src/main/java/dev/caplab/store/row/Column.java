package dev.caplab.store.row;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.RECORD_COMPONENT;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/** The stored column's name where it is not the component's name in snake_case. */
@Retention(RUNTIME)
@Target({RECORD_COMPONENT, PARAMETER, FIELD, METHOD})
public @interface Column {
    String value();
}
