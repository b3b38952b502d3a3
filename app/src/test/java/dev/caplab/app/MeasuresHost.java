package dev.caplab.app;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * An IT whose truth is a real process's CPU or memory as the kernel counts it (a pinned server's knee, the host's
 * cores, a soak's heap). Such tests run one at a time after the others (the {@code measures-host} failsafe execution
 * in app/pom.xml), so no other test's JVM shares the machine's two cores with what they measure; the rest run in
 * parallel forks.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(MeasuresHost.TAG)
public @interface MeasuresHost {

    String TAG = "measures-host";
}
