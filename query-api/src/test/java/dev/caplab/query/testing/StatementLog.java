package dev.caplab.query.testing;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** The statements prepared or created through a data source, in order: what a request cost the store. */
public final class StatementLog {

    private final List<String> statements = new ArrayList<>();

    /** {@code target} with every statement prepared or created through it logged here. */
    public DataSource wrap(DataSource target) {
        return (DataSource) Proxy.newProxyInstance(StatementLog.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(method, target, args);
                    return result instanceof Connection c ? connection(c) : result;
                });
    }

    /** The statements logged since the last {@link #clear}; {@code createStatement} is logged as its name. */
    public synchronized List<String> statements() {
        return List.copyOf(statements);
    }

    public synchronized void clear() {
        statements.clear();
    }

    private synchronized void log(String statement) {
        statements.add(statement);
    }

    private Connection connection(Connection target) {
        return (Connection) Proxy.newProxyInstance(StatementLog.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "prepareStatement", "prepareCall" -> log(String.valueOf(args[0]));
                        case "createStatement" -> log("createStatement");
                        default -> { }
                    }
                    return invoke(method, target, args);
                });
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
