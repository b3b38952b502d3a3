package dev.caplab.schema.serde;

import org.apache.avro.util.ClassSecurityValidator;

/**
 * Avro 1.12 refuses to instantiate classes named in schemas unless trusted; caplab's generated event package is
 * added to whatever the process already trusts (never replacing it), once.
 */
final class TrustedEventClasses {

    static final String EVENT_PACKAGE = "dev.caplab.schema.event";

    static {
        ClassSecurityValidator.ClassSecurityPredicate before = ClassSecurityValidator.getGlobal();
        ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(before,
                type -> EVENT_PACKAGE.equals(type.getPackageName())));
    }

    private TrustedEventClasses() {
    }

    /** Runs the static initializer; later calls do nothing. */
    static void ensure() {
        // the class initialisation above is the work
    }
}
