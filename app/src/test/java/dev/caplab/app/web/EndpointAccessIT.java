package dev.caplab.app.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.access.ApiToken;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.access.EndpointAccess;
import dev.caplab.access.Scope;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * #12 item 2, for every endpoint Spring maps (so a new one cannot be forgotten): with tokens configured, no request
 * reaches a non-public handler without a token holding its declared scope, whatever the spelling of the path; a read
 * token cannot write; and no state-changing call is accepted from another origin, even with the right token.
 */
class EndpointAccessIT {

    private static final String READER = "reader-secret-0123456789";
    private static final String WRITER = "writer-secret-0123456789";
    private static final String BOTH = "admin-secret-0123456789";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Handlers anyone may call: each must be listed here, so making one public is a visible decision. */
    private static final Set<String> PUBLIC_HANDLERS = Set.of("HealthController.health", "InfluxWriteController.ping",
            "BasicErrorController.error", "BasicErrorController.errorHtml");
    private static final String SPRINGDOC = "org.springdoc.";

    private static TestDatabase database;
    private static WebServer server;

    @BeforeAll
    static void start() {
        database = EmbeddedClickHouse.shared().freshDatabase("endpoint_access");
        // Kafka is never reached: every request below is refused before a controller runs
        server = WebServer.start(new WebSettings("127.0.0.1", 0, "127.0.0.1:9", database.name(),
                URI.create(EmbeddedClickHouse.shared().httpUrl() + "/"), EmbeddedClickHouse.shared().user(),
                EmbeddedClickHouse.shared().password(), List.of(
                        new ApiToken("notebook", READER, Set.of(Scope.READ)),
                        new ApiToken("k6", WRITER, Set.of(Scope.WRITE)),
                        new ApiToken("admin", BOTH, EnumSet.allOf(Scope.class))), List.of(), KafkaClientSecurity.NONE),
                database.dataSource());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (database != null) {
            EmbeddedClickHouse.shared().drop(database);
        }
    }

    @Test
    void everyMappedEndpointRefusesRequestsWithoutTheDeclaredScopeWhateverThePathSpelling() throws Exception {
        List<String> checked = new ArrayList<>();
        for (Map.Entry<RequestMappingInfo, HandlerMethod> e : handlerMethods().entrySet()) {
            HandlerMethod handler = e.getValue();
            EndpointAccess access = EndpointAccess.of(handler).orElse(null);
            String name = handler.getBeanType().getSimpleName() + "." + handler.getMethod().getName();
            assertThat(access).as(name + " declares neither @RequiresScope nor @PublicEndpoint").isNotNull();
            if (access.isPublic()) {
                assertThat(PUBLIC_HANDLERS.contains(name) || handler.getBeanType().getName().startsWith(SPRINGDOC))
                        .as(name + " is public but not in the documented list").isTrue();
                continue;
            }
            String wrongScope = access.scope() == Scope.WRITE ? READER : WRITER;
            for (String method : methods(e.getKey())) {
                for (String pattern : e.getKey().getPathPatternsCondition().getPatternValues()) {
                    String path = pattern.replaceAll("\\{[^}]+}", "0");
                    for (String routed : List.of(path, withParams(path, true), withParams(path, false),
                            percentEncodeFirstLetter(path))) {
                        assertThat(send(method, routed, null, null).statusCode()).as(method + " " + routed)
                                .isEqualTo(401);
                        assertThat(send(method, routed, "Bearer " + wrongScope, null).statusCode())
                                .as(method + " " + routed + " with a token lacking " + access.scope()).isEqualTo(403);
                        assertThat(send(method, routed + "?p=" + wrongScope, null, null).statusCode())
                                .as(method + " " + routed + " with p lacking " + access.scope()).isEqualTo(403);
                    }
                    for (String other : List.of(path + "/", path.toUpperCase(Locale.ROOT))) {
                        assertThat(send(method, other, null, null).statusCode()).as(method + " " + other)
                                .isIn(401, 403, 404, 405);
                        assertThat(send(method, other, "Bearer " + wrongScope, null).statusCode())
                                .as(method + " " + other).isIn(401, 403, 404, 405);
                    }
                    if (!method.equals("GET")) {
                        HttpResponse<String> crossOrigin = send(method, path, "Bearer " + BOTH, "http://evil.example");
                        assertThat(crossOrigin.statusCode()).as(method + " " + path + " from another origin")
                                .isEqualTo(403);
                        assertThat(crossOrigin.body()).contains("cross-origin request from Origin http://evil.example");
                    }
                    checked.add(method + " " + path + " " + access.scope());
                }
            }
        }
        // the endpoints of #12's findings are among those enumerated (guards against an empty enumeration)
        assertThat(checked).contains("POST /write WRITE", "POST /api/v1/events WRITE", "POST /api/v1/k6 WRITE",
                "POST /api/v1/runs WRITE", "POST /api/v1/runs/0/end WRITE", "POST /api/v1/sql READ",
                "GET /api/v1/runs READ", "GET /api/v1/runs/0/steps READ", "DELETE /api/v1/runs/0 WRITE",
                "GET /api/v1/access READ");
    }

    @Test
    void publicEndpointsAnswerWithoutAToken() throws Exception {
        assertThat(send("GET", "/api/v1/health", null, null).statusCode()).isEqualTo(200);
        assertThat(send("GET", "/ping", null, null).statusCode()).isEqualTo(204);
        assertThat(send("GET", "/v3/api-docs", null, null).statusCode()).isEqualTo(200);
        assertThat(send("GET", "/", null, null).statusCode()).isEqualTo(200);
        assertThat(send("GET", "/app.js", null, null).statusCode()).isEqualTo(200);
    }

    private static Map<RequestMappingInfo, HandlerMethod> handlerMethods() {
        return server.context().getBean("requestMappingHandlerMapping", RequestMappingHandlerMapping.class)
                .getHandlerMethods();
    }

    private static Set<String> methods(RequestMappingInfo info) {
        Set<String> methods = new TreeSet<>();
        for (RequestMethod m : info.getMethodsCondition().getMethods()) {
            methods.add(m.name());
        }
        methods.remove("HEAD");
        return methods.isEmpty() ? Set.of("GET", "POST") : methods;
    }

    /** {@code ;x=1} after the last segment, or after the first. */
    private static String withParams(String path, boolean last) {
        if (last) {
            return path + ";x=1";
        }
        int second = path.indexOf('/', 1);
        return second < 0 ? path + ";x" : path.substring(0, second) + ";x" + path.substring(second);
    }

    private static String percentEncodeFirstLetter(String path) {
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (Character.isLetter(c)) {
                return path.substring(0, i) + String.format("%%%02x", (int) c) + path.substring(i + 1);
            }
        }
        throw new IllegalArgumentException("no letter in " + path);
    }

    private static HttpResponse<String> send(String method, String path, String authorization, String origin)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .method(method, method.equals("GET") ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString("{\"sut\":\"bypass\",\"sql\":\"SELECT 1\"}"))
                .header("Content-Type", "application/json");
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (origin != null) {
            request.header("Origin", origin);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
