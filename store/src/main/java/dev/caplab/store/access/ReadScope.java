package dev.caplab.store.access;

import java.util.List;
import java.util.function.Supplier;

/**
 * Where the repositories keep the reads they made within one scope (the query API's: one HTTP request), so the same
 * read asked for by several callers is made once and every caller gets the same rows. What is kept is immutable
 * (lists and records). {@link #NONE} keeps nothing: every read goes to the store.
 */
public interface ReadScope {

    /** Keeps nothing. */
    ReadScope NONE = new ReadScope() {
        @Override
        public <T> T once(String what, List<?> key, Supplier<T> read) {
            return read.get();
        }

        @Override
        public <T> T kept(String what, List<?> key) {
            return null;
        }

        @Override
        public void keep(String what, List<?> key, Object value) {
        }
    };

    /** What {@code read} returned the first time this scope asked for {@code what} of {@code key}; reads it now if none. */
    <T> T once(String what, List<?> key, Supplier<T> read);

    /** The read of {@code what} of {@code key} this scope already made, or null if it made none. */
    <T> T kept(String what, List<?> key);

    /** Keeps {@code value} as this scope's read of {@code what} of {@code key}. */
    void keep(String what, List<?> key, Object value);
}
