package dev.caplab.store.row;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The event field a row component is read from when the event names it otherwise: the sink maps an event to its row
 * by component name, and a component without a field of its name must say where its value comes from.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface EventField {

    /** The field's name as the event's Avro schema declares it. */
    String value();
}
