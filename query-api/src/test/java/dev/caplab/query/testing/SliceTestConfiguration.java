package dev.caplab.query.testing;

import dev.caplab.access.AccessConfiguration;
import dev.caplab.query.QueryApiProperties;
import dev.caplab.query.compare.CompareService;
import dev.caplab.query.endpoints.EndpointService;
import dev.caplab.query.live.LiveProperties;
import dev.caplab.query.live.LiveService;
import dev.caplab.query.live.TimelineService;
import dev.caplab.query.plan.PlanService;
import dev.caplab.query.report.ReportService;
import dev.caplab.query.runs.RunService;
import dev.caplab.query.throughput.ThroughputService;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Import;

/** What a {@code @WebMvcTest} of the query controllers needs besides the web layer: the fake store and services. */
@TestConfiguration(proxyBeanMethods = false)
@EnableConfigurationProperties({QueryApiProperties.class, LiveProperties.class})
// the SQL endpoint's collaborators are package-private; no statement reaches ClickHouse in slice tests
@ComponentScan("dev.caplab.query.sql")
@ComponentScan("dev.caplab.query.history")
@Import({RunService.class, ThroughputService.class, EndpointService.class, CompareService.class, PlanService.class, ReportService.class,
        LiveService.class, TimelineService.class, AccessConfiguration.class})
public class SliceTestConfiguration {

    @Bean
    FakeStore fakeStore() {
        return FakeStore.withLightNode1Vcpu();
    }

    /**
     * The live page's services read ClickHouse directly; slice tests send them nothing, and a call that reached them
     * would fail here, naming why, rather than pass on a fake.
     */
    @Bean
    DataSource noStore() {
        return new DataSource() {
            @Override
            public Connection getConnection() throws SQLException {
                throw new SQLException("slice tests have no store: test the live endpoints against chDB (ITs)");
            }

            @Override
            public Connection getConnection(String user, String password) throws SQLException {
                return getConnection();
            }

            @Override
            public PrintWriter getLogWriter() {
                return null;
            }

            @Override
            public void setLogWriter(PrintWriter out) {
            }

            @Override
            public void setLoginTimeout(int seconds) {
            }

            @Override
            public int getLoginTimeout() {
                return 0;
            }

            @Override
            public Logger getParentLogger() {
                return Logger.getGlobal();
            }

            @Override
            public <T> T unwrap(Class<T> type) throws SQLException {
                throw new SQLException("not a wrapper");
            }

            @Override
            public boolean isWrapperFor(Class<?> type) {
                return false;
            }
        };
    }
}
