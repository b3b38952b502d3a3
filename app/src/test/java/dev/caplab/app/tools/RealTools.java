package dev.caplab.app.tools;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the real tools an IT drives. Missing, the IT fails under {@code CI=true} (CI's install step must have put it
 * there: {@code scripts/install-prereqs.sh}, Maven for JMeter) and is skipped with the reason anywhere else.
 */
final class RealTools {

    private RealTools() {
    }

    /** Debian's {@code locust} (package python3-locust) on the PATH. */
    static Path locust() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "locust");
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return missing("locust is not on the PATH: apt-get install python3-locust (scripts/install-prereqs.sh does)");
    }

    /** The JMETER_HOME module jmeter-home lays out from Maven Central during the build. */
    static Path jmeterHome(Path repoRoot) {
        Path home = repoRoot.resolve("jmeter-home/target/jmeter");
        if (!Files.isRegularFile(home.resolve("bin/ApacheJMeter.jar"))) {
            return missing(home + " has no bin/ApacheJMeter.jar: build the jmeter-home module first "
                    + "(./mvnw -pl app -am verify builds it)");
        }
        return home;
    }

    private static <T> T missing(String reason) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            return fail(reason);
        }
        return abort(reason);
    }
}
