package dev.caplab.query.testing;

import dev.caplab.query.runs.RunReader;
import java.lang.reflect.Proxy;

/** A run reader whose every call fails the test: proves a request was refused before any query. */
public final class UntouchableRunReader {

    private UntouchableRunReader() {
    }

    public static RunReader create() {
        return (RunReader) Proxy.newProxyInstance(RunReader.class.getClassLoader(), new Class<?>[] {RunReader.class},
                (proxy, method, args) -> {
                    throw new AssertionError("no run may be read before the request's lists are bounded: "
                            + method.getName());
                });
    }
}
