package dev.caplab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.caplab.access.ApiToken;
import dev.caplab.access.Scope;
import dev.caplab.app.CaplabCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Tokens from a file or the environment, never required on the command line; no token, no listening beyond loopback. */
class AccessOptionsTest {

    private static final String WRITER = "writer-secret-0123456789";
    private static final String READER = "reader-secret-0123456789";

    @Test
    void tokensComeFromTheFileTheEnvironmentAndTheCommandLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tokens");
        Files.writeString(file, "# caplab tokens\n" + WRITER + "=read,write   # the writer\n\n");
        AccessOptions options = parse("--token-file", file.toString(), "--token", "cli-secret-0123456789=read");

        List<ApiToken> tokens = AccessOptions.parseTokens(options.tokenOptions(
                Map.of(AccessOptions.TOKEN_ENV, READER + "=read")));

        assertThat(tokens).extracting(ApiToken::secret)
                .containsExactly(WRITER, READER, "cli-secret-0123456789");
        assertThat(tokens.getFirst().scopes()).isEqualTo(Set.of(Scope.READ, Scope.WRITE));
        assertThat(tokens.get(1).scopes()).isEqualTo(Set.of(Scope.READ));
    }

    @Test
    void anEmptyTokenFileIsAnErrorNotAnOpenDoor(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "# nothing yet\n");

        assertThatThrownBy(() -> parse("--token-file", file.toString()).tokenOptions(Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holds no token");
    }

    @Test
    void aBareSecretInTheEnvironmentIsNamedWithoutShowingIt() {
        assertThatThrownBy(() -> parse().tokenOptions(Map.of(AccessOptions.TOKEN_ENV, READER)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("env CAPLAB_TOKEN, entry 1: expected SECRET=SCOPES")
                .hasMessageNotContaining(READER);
    }

    @Test
    void listeningBeyondLoopbackWithoutATokenIsRefused() {
        for (String address : List.of("0.0.0.0", "::", "192.168.1.10", "")) {
            assertThatThrownBy(() -> AccessOptions.requireTokensBeyondLoopback(address, List.of()))
                    .as(address).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("refusing to listen on " + address + " without a token");
        }
        for (String address : List.of("127.0.0.1", "localhost", "::1", "[::1]")) {
            AccessOptions.requireTokensBeyondLoopback(address, List.of());
        }
        AccessOptions.requireTokensBeyondLoopback("0.0.0.0", List.of(WRITER + "=read,write"));
    }

    @Test
    void serveAndUpRefuseEveryInterfaceWithoutATokenBeforeStartingAnything() {
        assumeThat(System.getenv(AccessOptions.TOKEN_ENV)).as("no CAPLAB_TOKEN in this environment").isNull();
        for (String command : List.of("serve", "up")) {
            StringWriter err = new StringWriter();
            CommandLine cli = CaplabCli.commandLine();
            cli.setErr(new PrintWriter(err));

            int exit = cli.execute(command, "--bind", "0.0.0.0", "--http-port", "0");

            assertThat(exit).as(command).isEqualTo(1);
            assertThat(err.toString()).as(command).contains("refusing to listen on 0.0.0.0 without a token");
        }
    }

    @Test
    void serveBindsLoopbackByDefault() {
        CommandLine.ParseResult parsed = CaplabCli.commandLine().parseArgs("serve");
        ServeCommand serve = (ServeCommand) parsed.subcommand().commandSpec().userObject();
        assertThat(serve.host).isEqualTo("127.0.0.1");
    }

    @Test
    void aClientTakesTheSecretOfTheServersTokenEntry() {
        assertThat(ApiToken.clientSecret(READER + "=read")).isEqualTo(READER);
        assertThat(ApiToken.clientSecret(READER)).isEqualTo(READER);
        assertThat(ApiToken.clientSecret("abc=def-0123456789")).isEqualTo("abc=def-0123456789");
        assertThat(ApiToken.clientSecret(" ")).isNull();
    }

    private static AccessOptions parse(String... args) {
        AccessOptions options = new AccessOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }
}
