package dev.caplab.query;

import dev.caplab.access.AccessConfiguration;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.FilterType;
import org.springframework.context.annotation.Import;

/**
 * The query API for an application to import: REST endpoints under {@code /api/v1}, the read-only SQL endpoint,
 * the web page; every controller declares the scope it needs, checked by {@link AccessConfiguration}. Needs a {@code javax.sql.DataSource} bean on caplab's ClickHouse.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(QueryApiProperties.class)
// The TypeExcludeFilter lets slice tests (@WebMvcTest) keep their narrowing when this configuration is picked up.
@ComponentScan(basePackages = "dev.caplab.query",
        excludeFilters = @ComponentScan.Filter(type = FilterType.CUSTOM, classes = TypeExcludeFilter.class))
@Import(AccessConfiguration.class)
public class QueryApiConfiguration {
}
