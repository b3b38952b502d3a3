package dev.caplab.query.testing;

import dev.caplab.access.AccessConfiguration;
import dev.caplab.query.QueryApiProperties;
import dev.caplab.query.compare.CompareService;
import dev.caplab.query.endpoints.EndpointService;
import dev.caplab.query.plan.PlanService;
import dev.caplab.query.report.ReportService;
import dev.caplab.query.runs.RunService;
import dev.caplab.query.throughput.ThroughputService;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Import;

/** What a {@code @WebMvcTest} of the query controllers needs besides the web layer: the fake store and services. */
@TestConfiguration(proxyBeanMethods = false)
@EnableConfigurationProperties(QueryApiProperties.class)
// the SQL endpoint's collaborators are package-private; no statement reaches ClickHouse in slice tests
@ComponentScan("dev.caplab.query.sql")
@ComponentScan("dev.caplab.query.history")
@Import({RunService.class, ThroughputService.class, EndpointService.class, CompareService.class, PlanService.class, ReportService.class,
        AccessConfiguration.class})
public class SliceTestConfiguration {

    @Bean
    FakeStore fakeStore() {
        return FakeStore.withLightNode1Vcpu();
    }
}
