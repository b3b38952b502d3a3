package dev.caplab.store.row;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A record-valued row component stored as columns of the row's own table, one per component of its record, named
 * {@link #prefix()} + the component's name in snake_case (or its {@link Column}). The value is null exactly when its
 * first column is NULL: that first component is a primitive, so a stored value always has it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Flattened {

    /** What every column name of the value starts with. */
    String prefix();
}
