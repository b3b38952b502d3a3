package dev.caplab.store.row;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A row component its table has no column for: never written, and read back as null (zero or false for a
 * primitive). Without it, every component must have its column.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface NotStored {
}
