package dev.caplab.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

/** Compose cannot run here (no Docker engine), so the file is checked structurally and against the real CLI. */
class DockerComposeFileTest {

    private static final Pattern DEFAULTED_VARIABLE = Pattern.compile("\\$\\{([A-Z_]+):-([^}]*)}");
    private static final Set<String> ROLE_SERVICES = Set.of("caplab-migrate", "caplab-streams", "caplab-sink", "caplab-serve");

    private static Map<String, Object> compose;
    private static Map<String, Map<String, Object>> services;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void load() throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(100);
        try (Reader reader = Files.newBufferedReader(RepoRoot.find().resolve("docker-compose.yml"))) {
            compose = new Yaml(options).load(reader);
        }
        services = (Map<String, Map<String, Object>>) compose.get("services");
    }

    @Test
    void declaresKafkaClickHouseEveryRoleAndJupyter() {
        assertThat(services).containsKeys("kafka", "clickhouse", "jupyter");
        assertThat(services).containsKeys(ROLE_SERVICES.toArray(String[]::new));
        assertThat(image("kafka")).startsWith("apache/kafka:");
        assertThat(image("clickhouse")).startsWith("clickhouse/clickhouse-server:");
    }

    @Test
    void everyRoleIsARealCaplabSubcommandWhoseOptionsParse() {
        for (String role : ROLE_SERVICES) {
            Map<String, Object> service = services.get(role);
            assertThat(service.get("build")).as(role + " builds from the repo").isEqualTo(".");
            List<String> command = command(role);
            assertThat(CaplabCli.commandLine().getSubcommands()).as(role).containsKey(command.getFirst());
            CommandLine.ParseResult parsed = CaplabCli.commandLine().parseArgs(command.toArray(String[]::new));
            assertThat(parsed.subcommand().commandSpec().name()).isEqualTo(command.getFirst());
        }
    }

    @Test
    void everyServiceHasAHealthcheckAndDeclaredVolumes() {
        @SuppressWarnings("unchecked")
        Set<String> declared = ((Map<String, Object>) compose.get("volumes")).keySet();
        for (Map.Entry<String, Map<String, Object>> service : services.entrySet()) {
            if ("no".equals(service.getValue().get("restart"))) {
                // A one-shot job: others wait for it to complete, not to be healthy.
                assertThat(dependents(service.getKey())).as(service.getKey() + " dependents").isNotEmpty()
                        .allMatch("service_completed_successfully"::equals);
            } else {
                assertThat(service.getValue()).as(service.getKey() + " healthcheck").containsKey("healthcheck");
            }
            for (Object volume : (List<?>) service.getValue().getOrDefault("volumes", List.of())) {
                String source = volume.toString().split(":")[0];
                if (!source.startsWith(".") && !source.startsWith("/")) {
                    assertThat(declared).as(service.getKey() + " volume " + source).contains(source);
                }
            }
        }
    }

    @Test
    void publishesTheDocumentedPorts() {
        assertThat(ports("kafka")).contains("9092:9092");
        assertThat(ports("clickhouse")).contains("8123:8123");
        assertThat(ports("caplab-serve")).contains("8080:8080");
        assertThat(ports("jupyter")).contains("8888:8888");
    }

    @Test
    @SuppressWarnings("unchecked")
    void haProfileRunsThreeVotingBrokersWithReplicationFactorThree() {
        List<String> brokers = services.entrySet().stream()
                .filter(e -> ((List<String>) e.getValue().getOrDefault("profiles", List.of())).contains("ha"))
                .map(Map.Entry::getKey).sorted().toList();
        assertThat(brokers).containsExactly("kafka-1", "kafka-2", "kafka-3");
        Set<Object> nodeIds = new java.util.HashSet<>();
        for (String broker : brokers) {
            Map<String, Object> env = (Map<String, Object>) services.get(broker).get("environment");
            nodeIds.add(env.get("KAFKA_NODE_ID"));
            assertThat(env.get("KAFKA_CONTROLLER_QUORUM_VOTERS").toString().split(",")).hasSize(3);
            assertThat(env.get("KAFKA_DEFAULT_REPLICATION_FACTOR")).isEqualTo(3);
            assertThat(env.get("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR")).isEqualTo(3);
            assertThat(env.get("KAFKA_ADVERTISED_LISTENERS").toString()).contains(broker + ":9092");
        }
        assertThat(nodeIds).hasSize(3);
    }

    @Test
    @SuppressWarnings("unchecked")
    void rolesReachKafkaAndClickHouseByServiceName() {
        Map<String, Object> env = (Map<String, Object>) services.get("caplab-serve").get("environment");
        assertThat(substitute(env.get("CAPLAB_BOOTSTRAP").toString())).isEqualTo("kafka:9092");
        assertThat(env.get("CAPLAB_CLICKHOUSE_URL").toString()).startsWith("jdbc:clickhouse://clickhouse:8123/");
    }

    /** Serve listens on its container's every interface, so it needs a token: from the environment, required. */
    @Test
    @SuppressWarnings("unchecked")
    void serveBindsEveryInterfaceOnlyWithARequiredTokenFromTheEnvironment() {
        List<String> command = command("caplab-serve");
        assertThat(command.get(command.indexOf("--host") + 1)).isEqualTo("0.0.0.0");
        assertThat(command).noneMatch(part -> part.startsWith("--token"));
        for (String service : List.of("caplab-serve", "jupyter")) {
            Map<String, Object> env = (Map<String, Object>) services.get(service).get("environment");
            assertThat(env.get("CAPLAB_TOKEN").toString()).as(service).startsWith("${CAPLAB_TOKEN:?");
        }
    }

    @Test
    void dockerfileRunsTheCaplabJarWithTheLaunchersJvmOptions() throws IOException {
        String dockerfile = Files.readString(RepoRoot.find().resolve("Dockerfile"));
        assertThat(dockerfile).contains("ENTRYPOINT").contains("caplab.jar")
                .contains("COPY --from=build /src/app/src/main/jvm/caplab.jvmopts /opt/caplab/caplab.jvmopts")
                .contains("\"java\", \"@/opt/caplab/caplab.jvmopts\"");
        assertThat(Files.readString(RepoRoot.find().resolve("caplab")))
                .contains("\"@$ROOT/app/src/main/jvm/caplab.jvmopts\"");
        assertThat(Files.readAllLines(RepoRoot.find().resolve("app/src/main/jvm/caplab.jvmopts")))
                .contains("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow");
    }

    @SuppressWarnings("unchecked")
    private static List<Object> dependents(String dependency) {
        return services.values().stream()
                .map(s -> s.get("depends_on"))
                .filter(d -> d instanceof Map<?, ?> m && m.containsKey(dependency))
                .map(d -> ((Map<String, Map<String, Object>>) d).get(dependency).get("condition"))
                .toList();
    }

    private static String image(String service) {
        return services.get(service).get("image").toString();
    }

    private static List<String> ports(String service) {
        return ((List<?>) services.get(service).getOrDefault("ports", List.of())).stream()
                .map(Object::toString).collect(Collectors.toList());
    }

    private static List<String> command(String service) {
        List<String> command = new ArrayList<>();
        for (Object part : (List<?>) services.get(service).get("command")) {
            command.add(substitute(part.toString()));
        }
        return command;
    }

    private static String substitute(String value) {
        Matcher m = DEFAULTED_VARIABLE.matcher(value);
        return m.replaceAll(r -> Matcher.quoteReplacement(r.group(2)));
    }

}
