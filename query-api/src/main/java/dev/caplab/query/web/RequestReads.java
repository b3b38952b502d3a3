package dev.caplab.query.web;

import dev.caplab.store.access.ReadScope;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * Store reads shared within one HTTP request: the store repositories' {@link ReadScope} in the query API. An answer about a run is assembled by several services (detail,
 * throughput, endpoints, plan, report), each asking the store for the rows it needs; within one request the same
 * read is made once and its rows are handed to every service that asks again, so one answer costs one statement per
 * table rather than one per service, and every part of it shows the same rows. Outside a request (a test calling a
 * service, a background thread) every read goes to the store.
 *
 * <p>What is kept must not be changed by whoever receives it: readers keep immutable lists and records.
 */
public final class RequestReads implements ReadScope {

    /** The one scope: the current request's. */
    public static final RequestReads SCOPE = new RequestReads();

    private static final String ATTRIBUTE = RequestReads.class.getName();

    private RequestReads() {
    }

    /**
     * The value {@code read} returned the first time this request asked for {@code what} of {@code key}; reads it now
     * if it is the first time, or if there is no current request.
     */
    @Override
    public <T> T once(String what, List<?> key, Supplier<T> read) {
        RequestAttributes request = RequestContextHolder.getRequestAttributes();
        if (request == null) {
            return read.get();
        }
        Map<Key, Object> kept = kept(request);
        Key k = new Key(what, List.copyOf(key));
        if (kept.containsKey(k)) {
            @SuppressWarnings("unchecked")
            T value = (T) kept.get(k);
            return value;
        }
        // not computeIfAbsent: a read may itself make reads kept here
        T value = Objects.requireNonNull(read.get(), () -> what + " read returned null");
        kept.put(k, value);
        return value;
    }

    /** The read of {@code what} of {@code key} this request already made, or null if it made none (or no request). */
    @Override
    public <T> T kept(String what, List<?> key) {
        RequestAttributes request = RequestContextHolder.getRequestAttributes();
        if (request == null) {
            return null;
        }
        @SuppressWarnings("unchecked")
        T value = (T) kept(request).get(new Key(what, List.copyOf(key)));
        return value;
    }

    /** Keeps {@code value} as this request's read of {@code what} of {@code key}; nothing without a request. */
    @Override
    public void keep(String what, List<?> key, Object value) {
        RequestAttributes request = RequestContextHolder.getRequestAttributes();
        if (request != null) {
            kept(request).put(new Key(what, List.copyOf(key)), Objects.requireNonNull(value, what));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<Key, Object> kept(RequestAttributes request) {
        Object map = request.getAttribute(ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
        if (map == null) {
            map = new HashMap<Key, Object>();
            request.setAttribute(ATTRIBUTE, map, RequestAttributes.SCOPE_REQUEST);
        }
        return (Map<Key, Object>) map;
    }

    private record Key(String what, List<?> key) {
    }
}
