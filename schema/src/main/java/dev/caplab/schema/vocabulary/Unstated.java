package dev.caplab.schema.vocabulary;

/**
 * The value a run's system name, provider or tool is stored with when nobody said it (the schema requires them): a
 * reader shows it as not said, never as a provider or system called "unknown".
 */
public final class Unstated {

    public static final String VALUE = "unknown";

    private Unstated() {
    }

    /** Whether {@code value} says nothing: absent, blank, or {@link #VALUE}. */
    public static boolean is(String value) {
        return value == null || value.isBlank() || VALUE.equals(value);
    }

    /** {@code value}, or null when it says nothing. */
    public static String orNull(String value) {
        return is(value) ? null : value;
    }
}
