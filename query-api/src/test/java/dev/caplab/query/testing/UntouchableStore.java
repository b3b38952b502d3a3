package dev.caplab.query.testing;

import dev.caplab.store.access.RunRepository;
import java.lang.reflect.Proxy;
import javax.sql.DataSource;

/** A store whose every call fails the test: proves a request was refused before any query. */
public final class UntouchableStore {

    private UntouchableStore() {
    }

    /** A data source that fails on any call, connection or otherwise. */
    public static DataSource dataSource() {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    throw new AssertionError("no run may be read before the request's lists are bounded: "
                            + method.getName());
                });
    }

    /** The runs repository over {@link #dataSource()}. */
    public static RunRepository runs() {
        return new RunRepository(dataSource());
    }
}
