package dev.caplab.schema.serde;

import org.apache.avro.util.ClassSecurityValidator;
import org.apache.avro.util.ClassSecurityValidator.ClassSecurityPredicate;

/**
 * Trusts caplab's generated event classes in Avro 1.12's class check. Avro loads an enum by name to fill in its
 * default (a builder that leaves {@code RunStarted.origin} unset, or a record written before the field existed) and
 * refuses any class outside its default trust list, which failed every such build or read.
 */
public final class AvroTrust {

    /** The package the Avro compiler generates caplab's events into (schema/src/main/avro). */
    static final String EVENT_PACKAGE = "dev.caplab.schema.event.";

    static {
        ClassSecurityPredicate before = ClassSecurityValidator.getGlobal();
        ClassSecurityValidator.setGlobal(type -> type.getName().startsWith(EVENT_PACKAGE) || before.isTrusted(type));
    }

    private AvroTrust() {
    }

    /** Installs the trust once per JVM (class initialisation); later calls do nothing. */
    public static void install() {
        // the static initialiser did the work
    }
}
