package dev.caplab.store.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension: inject a {@link TestDatabase} (one per test class, dropped afterwards) or the shared
 * {@link EmbeddedClickHouse} into constructors, lifecycle methods or tests.
 */
public final class ClickHouseTestExtension implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == TestDatabase.class || type == EmbeddedClickHouse.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        EmbeddedClickHouse clickHouse = EmbeddedClickHouse.shared();
        if (parameter.getParameter().getType() == EmbeddedClickHouse.class) {
            return clickHouse;
        }
        ExtensionContext classContext = context.getRoot() == context ? context
                : findClassContext(context);
        ExtensionContext.Store store = classContext.getStore(ExtensionContext.Namespace.create(getClass()));
        return store.computeIfAbsent("database", k -> new Holder(clickHouse,
                clickHouse.freshDatabase(classContext.getRequiredTestClass().getSimpleName())), Holder.class)
                .database();
    }

    private static ExtensionContext findClassContext(ExtensionContext context) {
        ExtensionContext c = context;
        while (c.getTestMethod().isPresent() && c.getParent().isPresent()) {
            c = c.getParent().get();
        }
        return c;
    }

    /** Drops the class's database when JUnit closes the class context. */
    private record Holder(EmbeddedClickHouse clickHouse, TestDatabase database) implements AutoCloseable {
        @Override
        public void close() {
            clickHouse.drop(database);
        }
    }
}
