package dev.caplab.app.tools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** The handshake of the tests' HTTP servers: their first output line is {@code listening <port>}. */
final class ListeningLine {

    private static final String PREFIX = "listening ";

    private ListeningLine() {
    }

    /** The port {@code process} says it listens on; kills it and says {@code what} failed when it says anything else. */
    static int portOf(Process process, String what) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith(PREFIX)) {
            process.destroyForcibly();
            throw new IllegalStateException(what + " did not start: " + line);
        }
        return Integer.parseInt(line.substring(PREFIX.length()).strip());
    }
}
