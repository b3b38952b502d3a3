package dev.caplab.access;

import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.config.annotation.CorsRegistry;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Installs the access check on every handler of the port, the security headers on every answer
 * ({@link SecurityHeadersFilter}), and CORS for the allow-listed origins (a dashboard on
 * another origin needs both: the allow-list lets its writes through, CORS lets its page read the answers).
 * Configured by {@code caplab.access.*} ({@link AccessProperties}); imported by ingest and the query API alike.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AccessProperties.class)
public class AccessConfiguration implements WebMvcConfigurer {

    private static final Logger log = LoggerFactory.getLogger(AccessConfiguration.class);

    private final AccessProperties properties;
    private final TokenAuthenticator authenticator;
    private final AccessInterceptor interceptor;

    public AccessConfiguration(AccessProperties properties, Environment environment) {
        this.properties = properties;
        this.authenticator = new TokenAuthenticator(properties.tokens(), properties.anonymousScopes());
        this.interceptor = new AccessInterceptor(authenticator,
                new OriginPolicy(properties.allowedOrigins()),
                HostPolicy.forBindAddress(environment.getProperty("server.address"), properties.allowedOrigins()));
        if (!properties.anonymousScopes().isEmpty()) {
            log.warn("caplab.access.anonymous-scopes={}: anyone who reaches this port may {} without a token",
                    properties.anonymousScopes(), properties.anonymousScopes().stream().map(Scope::label)
                            .collect(Collectors.joining(" and ")));
        } else if (properties.tokens().isEmpty()) {
            log.warn("No caplab.access.tokens configured: every request to a non-public endpoint is refused with 401");
        }
    }

    /** The security headers on every answer, registered first so refusals and errors carry them too. */
    @Bean
    FilterRegistrationBean<SecurityHeadersFilter> securityHeadersFilter() {
        FilterRegistrationBean<SecurityHeadersFilter> registration =
                new FilterRegistrationBean<>(new SecurityHeadersFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /** The scopes of the caller's own credentials, by the same authenticator as the check. */
    @Bean
    ScopesController scopesController() {
        return new ScopesController(authenticator);
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(interceptor).order(Ordered.HIGHEST_PRECEDENCE);
    }

    @Override
    public void addCorsMappings(CorsRegistry registry) {
        if (!properties.allowedOrigins().isEmpty()) {
            registry.addMapping("/**")
                    .allowedOrigins(properties.allowedOrigins().stream().map(AccessConfiguration::withoutDefaultPort)
                            .toArray(String[]::new))
                    .allowedMethods("GET", "HEAD", "POST")
                    .allowedHeaders("Authorization", "Content-Type", "Content-Encoding");
        }
    }

    /** CORS compares the Origin header literally, and browsers omit default ports. */
    private static String withoutDefaultPort(String origin) {
        return origin.endsWith(":80") && origin.startsWith("http://") ? origin.substring(0, origin.length() - 3)
                : origin.endsWith(":443") && origin.startsWith("https://") ? origin.substring(0, origin.length() - 4)
                : origin;
    }
}
