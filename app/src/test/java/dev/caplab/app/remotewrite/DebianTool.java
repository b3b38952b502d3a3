package dev.caplab.app.remotewrite;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Debian package's program an IT runs for real: under {@code CI=true} its absence fails the test (CI installs it
 * through scripts/install-prereqs.sh), elsewhere the test is skipped with the command that installs it.
 */
public final class DebianTool {

    private DebianTool() {
    }

    public static Path require(String executable, String debianPackage) {
        Path path = Path.of(executable);
        if (Files.isExecutable(path)) {
            return path;
        }
        String message = executable + " is missing: apt-get install " + debianPackage
                + " (scripts/install-prereqs.sh installs it)";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(message);
        }
        assumeTrue(false, message);
        return path;
    }
}
