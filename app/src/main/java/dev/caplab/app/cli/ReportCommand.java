package dev.caplab.app.cli;

import dev.caplab.access.ApiToken;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code caplab report RUN [RUN…] -o report.html}: fetches the report a running caplab renders
 * ({@code GET /api/v1/report?run=…}) and saves it: one self-contained HTML file that opens without a network, the
 * same bytes the endpoint serves, since the query API holds the only renderer.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Save one self-contained HTML report of runs (side by side when several) from a running "
                + "caplab's query API: environment, steps and verdicts, fits and knees, resources against ceilings, "
                + "throughput and latency against load, capacity plan, alerts and lateness.")
public final class ReportCommand implements Callable<Integer> {

    static final String REPORT_PATH = "/api/v1/report";
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    @Spec
    private CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "RUN", description = "run ids, in the order of the report's columns")
    private List<String> runIds;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE",
            description = "where to write the HTML file (replaced whole); - for standard output")
    private String output;

    @Option(names = "--url", paramLabel = "URL", defaultValue = "${env:CAPLAB_URL:-http://127.0.0.1:8080}",
            description = "the caplab HTTP port (default: $CAPLAB_URL, else ${DEFAULT-VALUE})")
    private String url;

    @Option(names = "--token", paramLabel = "SECRET", defaultValue = "${env:CAPLAB_TOKEN}",
            description = "a token with the read scope, sent as Authorization: Bearer (default: $CAPLAB_TOKEN, "
                    + "preferred: a command line is visible to every local user; SECRET or SECRET=SCOPES); needed "
                    + "when caplab runs with tokens")
    private String token;

    @Override
    public Integer call() throws IOException {
        byte[] html = fetch(reportUri(url, runIds), ApiToken.clientSecret(token));
        if ("-".equals(output)) {
            System.out.write(html);
            System.out.flush();
            return 0;
        }
        Path target = Path.of(output).toAbsolutePath();
        Path dir = target.getParent();
        Files.createDirectories(dir);
        // beside the target so the move is atomic; created with the umask's permissions: a report is for sharing
        Path partial = dir.resolve("." + target.getFileName() + "." + ProcessHandle.current().pid() + ".partial");
        try {
            Files.write(partial, html, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf("wrote the report of %d run%s to %s (%d bytes)%n", runIds.size(), runIds.size() == 1 ? "" : "s",
                target, html.length);
        out.flush();
        return 0;
    }

    /** {@code base}'s report endpoint for {@code runIds}, each id encoded as a query parameter. */
    static URI reportUri(String base, List<String> runIds) {
        String query = runIds.stream().map(id -> "run=" + URLEncoder.encode(id, StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return CaplabHttp.uri(base, REPORT_PATH + "?" + query);
    }

    private static byte[] fetch(URI uri, String token) throws IOException {
        return CaplabHttp.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Accept", "text/html").GET()
                .build(), token, 200).body();
    }
}
