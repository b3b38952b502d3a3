package dev.caplab.query.security;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Guards the query API's own paths only: the ingest endpoints in the same application check their write tokens
 * themselves, and the static page and OpenAPI document carry no data.
 */
@Configuration(proxyBeanMethods = false)
class SecurityWebConfiguration implements WebMvcConfigurer {

    static final String[] GUARDED = {"/api/v1/runs", "/api/v1/runs/**", "/api/v1/compare", "/api/v1/compare/**",
            "/api/v1/plans", "/api/v1/plans/**", "/api/v1/sql", "/api/v1/sql/**", "/api/v1/tiers"};

    private final ReadScopeInterceptor interceptor;

    SecurityWebConfiguration(ReadScopeInterceptor interceptor) {
        this.interceptor = interceptor;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(interceptor).addPathPatterns(GUARDED);
    }
}
