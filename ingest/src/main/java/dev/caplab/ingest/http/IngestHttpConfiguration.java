package dev.caplab.ingest.http;

import dev.caplab.access.AccessConfiguration;
import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.otlp.DeltaTotals;
import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.publish.GroupCommit;
import dev.caplab.ingest.publish.ProducerSettings;
import dev.caplab.ingest.publish.TransactionalPublisher;
import dev.caplab.ingest.runs.LifecycleWatcher;
import dev.caplab.ingest.runs.RunDirectory;
import dev.caplab.ingest.runs.RunGenerations;
import java.time.Clock;
import java.util.List;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTP ingest endpoints and their beans: {@code /write} (InfluxDB 1.x), {@code /api/v2/write} (InfluxDB 2.x),
 * {@code /api/v1/write} (Prometheus remote write 1.0), {@code /v1/metrics} (OTLP/HTTP), {@code /api/v1/k6},
 * {@code /api/v1/events}, {@code /api/v1/runs/...} (POST), the door filter every body passes (query-string parameters
 * only, gzip, size limit), the access check ({@link AccessConfiguration}: each controller method declares its scope),
 * and the Kafka producers. Import it into the Spring Boot app; configure with {@code caplab.ingest.*}
 * ({@link IngestProperties}) and {@code caplab.access.*}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IngestProperties.class)
@Import({InfluxWriteController.class, InfluxV2WriteController.class, RemoteWriteController.class,
        OtlpMetricsController.class, K6Controller.class, EventsController.class, RunsController.class,
        IngestErrorHandler.class, AccessConfiguration.class})
public class IngestHttpConfiguration {

    /** Client id of the ingest producers, and so the start of their transactional ids. */
    public static final String PRODUCER_CLIENT_ID = "caplab-ingest";

    @Bean(destroyMethod = "close")
    TransactionalPublisher ingestTransactionalPublisher(IngestProperties properties) {
        return new TransactionalPublisher(new ProducerSettings(properties.bootstrapServers(), PRODUCER_CLIENT_ID,
                properties.kafkaSecurity()), properties.ackTimeout());
    }

    @Bean
    SampleChecks ingestSampleChecks() {
        return new SampleChecks(IngestLimits.DEFAULTS);
    }

    /**
     * Concurrent requests share transactions: up to {@code caplab.ingest.transactions-in-flight} commit at once, the
     * others queue for the next, and a group waits up to {@code caplab.ingest.group-wait} for writes already received.
     */
    @Bean
    GroupCommit ingestGroupCommit(TransactionalPublisher publisher, IngestProperties properties) {
        return new GroupCommit(publisher, properties.transactionsInFlight(), GroupCommit.MAX_GROUP_BYTES,
                properties.ackTimeout(), properties.groupWait());
    }

    /**
     * Write requests announce themselves to the group commit from arrival to answer; only when a group may wait for
     * them ({@code group-wait} above 0, off by default), since no group reads the announcements otherwise.
     */
    @Bean
    FilterRegistrationBean<ArrivalsFilter> ingestArrivalsFilter(GroupCommit groupCommit, IngestProperties properties) {
        FilterRegistrationBean<ArrivalsFilter> registration = new FilterRegistrationBean<>(
                new ArrivalsFilter(groupCommit));
        registration.addUrlPatterns(InfluxWriteController.WRITE_PATH, InfluxV2WriteController.PATH,
                RemoteWriteController.WRITE_PATH, K6Controller.PATH, EventsController.PATH);
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 11);
        registration.setName("caplabArrivalsFilter");
        registration.setEnabled(properties.groupWait().isPositive());
        return registration;
    }

    @Bean
    RunDirectory ingestRunDirectory() {
        return new RunDirectory();
    }

    /** Keeps {@link RunDirectory} current from {@code caplab.runs}, so writes after an idle end begin a new run. */
    @Bean(destroyMethod = "close")
    LifecycleWatcher ingestLifecycleWatcher(IngestProperties properties, RunDirectory directory) {
        return new LifecycleWatcher(properties.bootstrapServers(), properties.kafkaSecurity(), directory);
    }

    @Bean
    AckedPublisher ingestAckedPublisher(GroupCommit publisher, RunDirectory directory) {
        return new AckedPublisher(publisher, IngestLimits.DEFAULTS, Clock.systemUTC(), new RunGenerations(directory));
    }

    @Bean
    LineProtocolWrites ingestLineProtocolWrites(AckedPublisher publisher, SampleChecks checks) {
        return new LineProtocolWrites(publisher, checks, Clock.systemUTC());
    }

    /** Running totals of OTLP delta series: one per process, shared by every request. */
    @Bean
    DeltaTotals ingestOtlpDeltaTotals() {
        return new DeltaTotals(DeltaTotals.DEFAULT_MAX_SERIES);
    }

    @Bean
    LifecycleEvents ingestLifecycleEvents() {
        return new LifecycleEvents(Clock.systemUTC());
    }

    /** JSON bodies of ingest requests are read whatever their Content-Type ({@link IngestJsonBodies}). */
    @Bean
    WebMvcConfigurer ingestJsonBodies(JsonMapper mapper) {
        return new WebMvcConfigurer() {
            @Override
            public void extendMessageConverters(List<HttpMessageConverter<?>> converters) {
                converters.add(new IngestJsonBodies(mapper));
            }
        };
    }

    /** First after character encoding, so nothing before it can parse a form body, for every path on the port. */
    @Bean
    FilterRegistrationBean<IngestRequestFilter> ingestRequestFilter(IngestProperties properties) {
        FilterRegistrationBean<IngestRequestFilter> registration =
                new FilterRegistrationBean<>(new IngestRequestFilter(properties.maxBodyBytes()));
        registration.addUrlPatterns("/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        registration.setName("caplabIngestFilter");
        return registration;
    }
}
