package dev.caplab.store.row;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The stored name of a row component whose column (or tuple element) is not the component's name in snake_case. On a
 * component of a {@link Flattened} value it names the whole column: the prefix is not added.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Column {

    /** The column's name as the table declares it. */
    String value();
}
