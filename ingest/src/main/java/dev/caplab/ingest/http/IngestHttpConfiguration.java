package dev.caplab.ingest.http;

import dev.caplab.ingest.k6.K6JsonReader;
import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.publish.KafkaSampleSink;
import dev.caplab.ingest.publish.LifecyclePublisher;
import dev.caplab.ingest.publish.ProducerSettings;
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
    KafkaSampleSink ingestSampleSink(IngestProperties properties) {
        return new KafkaSampleSink(new ProducerSettings(properties.bootstrapServers(), "caplab-ingest-samples",
                properties.kafkaSecurity()));
    }

    @Bean(destroyMethod = "close")
    LifecyclePublisher ingestLifecyclePublisher(IngestProperties properties) {
        return new LifecyclePublisher(new ProducerSettings(properties.bootstrapServers(),
                "caplab-ingest-lifecycle", properties.kafkaSecurity()));
    }

    @Bean
    AckedPublisher ingestAckedPublisher(KafkaSampleSink samples, LifecyclePublisher lifecycle,
            IngestProperties properties) {
        return new AckedPublisher(samples, lifecycle, properties.ackTimeout());
    }

    @Bean
    K6JsonReader ingestK6JsonReader(KafkaSampleSink samples) {
        return new K6JsonReader(samples);
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
