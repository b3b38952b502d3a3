package dev.caplab.query.web;

import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.servlet.config.annotation.ContentNegotiationConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.JacksonModule;

/**
 * CSV beside JSON for every table: {@code Accept: text/csv} or {@code ?format=csv}; JSON stays the default. Both
 * write with {@link ApiJson}'s configuration.
 */
@Configuration(proxyBeanMethods = false)
class ApiWebConfiguration implements WebMvcConfigurer {

    static final String FORMAT_PARAMETER = "format";

    /** Spring Boot adds every {@link JacksonModule} bean to the JSON mapper Spring MVC writes with. */
    @Bean
    static JacksonModule apiJsonModule() {
        return ApiJson.module();
    }

    @Override
    public void configureContentNegotiation(ContentNegotiationConfigurer configurer) {
        configurer.favorParameter(true).parameterName(FORMAT_PARAMETER)
                .mediaType("csv", CsvMessageConverter.TEXT_CSV)
                .mediaType("json", MediaType.APPLICATION_JSON)
                // the SQL endpoint's third result format
                .mediaType("arrow", new MediaType("application", "vnd.apache.arrow.stream"));
    }

    @Override
    @SuppressWarnings("removal")
    public void extendMessageConverters(List<HttpMessageConverter<?>> converters) {
        // appended last so that */* still picks JSON
        converters.add(new CsvMessageConverter());
    }
}
