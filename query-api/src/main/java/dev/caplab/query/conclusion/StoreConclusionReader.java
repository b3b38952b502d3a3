package dev.caplab.query.conclusion;

import dev.caplab.query.web.RequestReads;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunWarning;
import dev.caplab.schema.serde.AvroJson;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.row.RunConclusionRow;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/**
 * Reads {@code run_conclusions} through the store's repository, the one the sink writes it with; a run's conclusion
 * once per request ({@link RequestReads}).
 */
@Component
class StoreConclusionReader implements ConclusionReader {

    private final RunConclusionRepository repository;

    StoreConclusionReader(DataSource dataSource) {
        this.repository = new RunConclusionRepository(dataSource);
    }

    @Override
    public Optional<ConclusionView> conclusion(String runId) {
        return RequestReads.once("conclusion", List.of(runId),
                () -> repository.latest(runId).map(StoreConclusionReader::view));
    }

    @Override
    public Map<String, ConclusionView> conclusions(Collection<String> runIds) {
        Map<String, ConclusionView> out = new LinkedHashMap<>();
        repository.ofRuns(runIds).forEach(r -> out.put(r.runId(), view(r)));
        return out;
    }

    /**
     * The view of a stored conclusion; the bottleneck's role is its resource's (both rules name a fitted resource
     * or a step's resource of the same source).
     */
    static ConclusionView view(RunConclusionRow r) {
        List<EstimateView> estimates = AvroJson.<ResourceEstimate>decodeArray(r.resourcesJson(),
                ResourceEstimate.getClassSchema()).stream().map(StoreConclusionReader::estimate).toList();
        String role = estimates.stream().filter(e -> e.source().equals(r.bottleneckSource()))
                .sorted(Comparator.comparing(e -> !e.metric().equals(r.bottleneckMetric())))
                .map(EstimateView::role).filter(Objects::nonNull).findFirst().orElse(null);
        BottleneckView bottleneck = r.bottleneckMetric() == null ? null : new BottleneckView(r.bottleneckSource(),
                r.bottleneckMetric(), r.bottleneckRule(), r.bottleneckValue(), r.bottleneckStepIndex(), role);
        return new ConclusionView(r.maxStableX(), r.maxStableStepIndex(), r.firstFailingX(), r.firstFailingStepIndex(),
                r.stepsJudged(), r.stepsSkipped(), bottleneck, r.margin(), estimates,
                r.runClosed(), r.model(), r.concludedAt(), r.version(),
                AvroJson.<RunWarning>decodeArray(r.warningsJson(), RunWarning.getClassSchema()).stream()
                        .map(w -> new WarningView(w.getKind().toString(), w.getMessage().toString())).toList(),
                r.rulesFrom(), r.throughputLimit(), r.egressCeiling());
    }

    private static EstimateView estimate(ResourceEstimate e) {
        return new EstimateView(e.getSource().toString(), e.getMetric().toString(), e.getIntercept(), e.getSlope(),
                e.getInterceptVariance(), e.getSlopeVariance(), e.getCovariance(), e.getResidualStdErr(),
                e.getDegreesOfFreedom(), e.getPreKneeSteps(), e.getRSquared(), e.getFromX(), e.getToX(),
                e.getCeiling(), e.getSafeCapacityX(), e.getSafeCapacityStdErr(), e.getSafeCapacityLower95(),
                e.getSafeCapacityUpper95(), e.getCappedByCliff(), e.getKneeX(), e.getCliff(), e.getCliffStepIndex(),
                e.getLastStableX(), e.getRole() == null ? null : e.getRole().toString());
    }
}
