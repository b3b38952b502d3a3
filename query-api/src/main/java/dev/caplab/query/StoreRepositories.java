package dev.caplab.query;

import dev.caplab.query.web.RequestReads;
import dev.caplab.store.access.AlertRepository;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.DeletedRunRepository;
import dev.caplab.store.access.RunActivityRepository;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.RunLatenessRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.RunSteps;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.StepRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.store.access.TrafficSampleRepository;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The store's repositories the query services read through, the same the sink writes with; each per-run read is
 * made once per HTTP request ({@link RequestReads}), however many services ask for it.
 */
@Configuration(proxyBeanMethods = false)
public class StoreRepositories {

    @Bean
    RunRepository runRepository(DataSource dataSource) {
        return new RunRepository(dataSource, RequestReads.SCOPE);
    }

    @Bean
    DeletedRunRepository deletedRunRepository(DataSource dataSource) {
        return new DeletedRunRepository(dataSource, RequestReads.SCOPE);
    }

    @Bean
    StepRepository stepRepository(DataSource dataSource) {
        return new StepRepository(dataSource, RequestReads.SCOPE);
    }

    @Bean
    StepVerdictRepository stepVerdictRepository(DataSource dataSource) {
        return new StepVerdictRepository(dataSource, RequestReads.SCOPE);
    }

    @Bean
    RunSteps runSteps(StepRepository steps, StepVerdictRepository verdicts) {
        return new RunSteps(steps, verdicts);
    }

    @Bean
    StepAggregateRepository stepAggregateRepository(DataSource dataSource) {
        return new StepAggregateRepository(dataSource, RequestReads.SCOPE);
    }

    @Bean
    CapacityFitRepository capacityFitRepository(DataSource dataSource) {
        return new CapacityFitRepository(dataSource, RequestReads.SCOPE);
    }

    @Bean
    RunConclusionRepository runConclusionRepository(DataSource dataSource) {
        return new RunConclusionRepository(dataSource, RequestReads.SCOPE);
    }

    @Bean
    AlertRepository alertRepository(DataSource dataSource) {
        return new AlertRepository(dataSource, RequestReads.SCOPE);
    }

    @Bean
    RunLatenessRepository runLatenessRepository(DataSource dataSource) {
        return new RunLatenessRepository(dataSource, RequestReads.SCOPE);
    }

    @Bean
    TrafficSampleRepository trafficSampleRepository(DataSource dataSource) {
        return new TrafficSampleRepository(dataSource);
    }

    @Bean
    RunActivityRepository runActivityRepository(DataSource dataSource) {
        return new RunActivityRepository(dataSource);
    }
}
