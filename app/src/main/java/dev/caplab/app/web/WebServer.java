package dev.caplab.app.web;

import dev.caplab.access.ApiToken;
import dev.caplab.access.Scope;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts and stops the Spring Boot HTTP tier with a given ClickHouse {@link DataSource}. */
public final class WebServer implements AutoCloseable {

    private final ConfigurableApplicationContext context;

    private WebServer(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /** Starts the HTTP tier; one set of tokens for ingest (write) and the query API (read). No tokens: open access. */
    public static WebServer start(WebSettings settings, DataSource dataSource) {
        return start(settings, dataSource, HealthParts.none());
    }

    /** As {@link #start(WebSettings, DataSource)}, {@code /api/v1/health} also reporting {@code health}'s parts. */
    public static WebServer start(WebSettings settings, DataSource dataSource, HealthParts health) {
        SpringApplication app = new SpringApplicationBuilder(CaplabWebApplication.class)
                .web(WebApplicationType.SERVLET)
                .bannerMode(org.springframework.boot.Banner.Mode.OFF)
                .logStartupInfo(false)
                .properties(properties(settings))
                .initializers(ctx -> {
                    ctx.getBeanFactory().registerSingleton("caplabDataSource", dataSource);
                    ctx.getBeanFactory().registerSingleton("caplabHealthParts", health);
                })
                .build();
        return new WebServer(app.run());
    }

    /** The port actually bound (useful when 0 was asked for). */
    public int port() {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    /** The running application context, for tests that inspect what is mapped. */
    ConfigurableApplicationContext context() {
        return context;
    }

    @Override
    public void close() {
        context.close();
    }

    static Map<String, Object> properties(WebSettings s) {
        Map<String, Object> p = new HashMap<>();
        p.put("server.address", s.host());
        p.put("server.port", s.port());
        p.put("spring.main.register-shutdown-hook", false);
        // Our own hook stops every role in order; logging must outlive it to report what happened.
        p.put("logging.register-shutdown-hook", false);
        p.put("caplab.ingest.bootstrap-servers", s.bootstrapServers());
        p.put("caplab.ingest.kafka-user", s.kafkaSecurity().user());
        p.put("caplab.ingest.kafka-password", s.kafkaSecurity().password());
        if (s.kafkaSecurity().encrypted()) {
            p.put("caplab.ingest.kafka-ca-file", s.kafkaSecurity().trustedCertificate().toString());
        }
        p.put("caplab.query.database", s.database());
        p.put("caplab.query.sql.clickhouse-url", s.clickhouseHttpUrl().toString());
        p.put("caplab.query.sql.user", s.clickhouseUser());
        p.put("caplab.query.sql.password", s.clickhousePassword());
        p.put("caplab.query.live.run-idle-end", s.runIdleEnd().toMillis() + "ms");
        // Bodies reach controllers unread whatever their Content-Type: no form or multipart parsing anywhere.
        p.put("spring.mvc.formcontent.filter.enabled", false);
        p.put("spring.mvc.hiddenmethod.filter.enabled", false);
        p.put("spring.servlet.multipart.enabled", false);
        List<ApiToken> tokens = s.tokens();
        if (!s.anonymousScopes().isEmpty()) {
            p.put("caplab.access.anonymous-scopes",
                    s.anonymousScopes().stream().map(Scope::label).sorted().collect(Collectors.joining(",")));
        }
        for (int i = 0; i < tokens.size(); i++) {
            ApiToken t = tokens.get(i);
            String prefix = "caplab.access.tokens[" + i + "]";
            p.put(prefix + ".name", t.name());
            p.put(prefix + ".secret", t.secret());
            p.put(prefix + ".scopes", t.scopes().stream().map(Scope::label).collect(Collectors.joining(",")));
        }
        for (int i = 0; i < s.allowedOrigins().size(); i++) {
            p.put("caplab.access.allowed-origins[" + i + "]", s.allowedOrigins().get(i));
        }
        return p;
    }
}
