package dev.caplab.ingest.http;

import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.publish.ProducerSettings;
import dev.caplab.ingest.publish.TransactionalPublisher;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The HTTP ingest endpoints and their beans: {@code /write} (InfluxDB 1.x), {@code /api/v1/k6},
 * {@code /api/v1/events}, {@code /api/v1/runs/...} (POST), the token and body-size filter, and the Kafka producers.
 * Import it into the Spring Boot app; configure with {@code caplab.ingest.*} ({@link IngestProperties}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IngestProperties.class)
@Import({InfluxWriteController.class, K6Controller.class, EventsController.class, RunsController.class,
        IngestErrorHandler.class})
public class IngestHttpConfiguration {

    private static final Logger log = LoggerFactory.getLogger(IngestHttpConfiguration.class);

    @Bean(destroyMethod = "close")
    TransactionalPublisher ingestTransactionalPublisher(IngestProperties properties) {
        return new TransactionalPublisher(new ProducerSettings(properties.bootstrapServers(), "caplab-ingest"),
                properties.ackTimeout());
    }

    @Bean
    SampleChecks ingestSampleChecks() {
        return new SampleChecks(IngestLimits.DEFAULTS);
    }

    @Bean
    AckedPublisher ingestAckedPublisher(TransactionalPublisher publisher) {
        return new AckedPublisher(publisher, IngestLimits.DEFAULTS, Clock.systemUTC());
    }

    @Bean
    LifecycleEvents ingestLifecycleEvents() {
        return new LifecycleEvents(Clock.systemUTC());
    }

    @Bean
    FilterRegistrationBean<IngestRequestFilter> ingestRequestFilter(IngestProperties properties) {
        if (properties.authDisabled()) {
            log.warn("caplab.ingest.auth-disabled=true: anyone who reaches this port can write data");
        } else if (properties.tokens().isEmpty()) {
            log.warn("No caplab.ingest.tokens configured: every ingest write will be refused with 401");
        }
        TokenAuthenticator authenticator = new TokenAuthenticator(properties.tokens(), properties.authDisabled());
        FilterRegistrationBean<IngestRequestFilter> registration =
                new FilterRegistrationBean<>(new IngestRequestFilter(authenticator, properties.maxBodyBytes()));
        registration.addUrlPatterns("/write", EventsController.PATH, K6Controller.PATH, RunsController.PATH,
                RunsController.PATH + "/*");
        registration.setName("caplabIngestFilter");
        return registration;
    }
}
