package dev.caplab.query.plan;

import dev.caplab.analysis.conclusion.ResourceEstimates;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.analysis.Finite;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.row.RunRow;
import dev.caplab.schema.vocabulary.Planning;
import dev.caplab.analysis.capacity.CapacityPlan;
import dev.caplab.analysis.capacity.ConferenceProfile;
import dev.caplab.analysis.capacity.ProfileAssessment;
import dev.caplab.analysis.capacity.WorkloadProfile;
import dev.caplab.query.format.Figures;
import dev.caplab.query.runs.RunService;
import dev.caplab.query.web.BadRequestParameterException;
import dev.caplab.query.web.NotFoundException;
import dev.caplab.store.access.RunFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.stereotype.Service;

/**
 * Places a workload profile on measured tiers: a pure function (analysis {@link CapacityPlan}) of each run's stored
 * capacity estimates — the run conclusion's pre-knee lines, ceilings and cliffs — at the requested margin, so a plan
 * at the run's margin agrees with the run page.
 */
@Service
public class PlanService {

    static final int MAX_TIERS = 20;

    private final RunRepository runs;
    private final RunConclusionRepository conclusions;
    private final RunService details;

    PlanService(RunRepository runs, RunConclusionRepository conclusions, RunService details) {
        this.runs = runs;
        this.conclusions = conclusions;
        this.details = details;
    }

    public Plan plan(PlanRequest request) {
        WorkloadProfile profile = profile(request.profile());
        double margin = request.margin() == null ? Planning.DEFAULT_MARGIN : request.margin();
        if (!(margin > 0 && margin <= 1)) {
            throw new BadRequestParameterException("margin", margin, "must be in (0, 1]");
        }
        List<RunRow> tierRuns = tierRuns(request);
        List<String> ids = tierRuns.stream().map(RunRow::runId).toList();
        Map<String, RunConclusion> concluded = conclusions.latestOf(ids);
        Map<String, Double> tested = details.testedToX(ids);
        List<TierPlan> plans = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (RunRow run : tierRuns) {
            plan(run, Optional.ofNullable(concluded.get(run.runId())), profile, margin, warnings)
                    .map(p -> p.testedTo(tested.get(run.runId()))).ifPresent(plans::add);
        }
        return new Plan(profile.name(), profile.load(), margin, CapacityPlan.MODEL_NAME + "/" + CapacityPlan.MODEL_VERSION,
                plans, warnings);
    }

    private static Optional<TierPlan> plan(RunRow run, Optional<RunConclusion> conclusion,
                                           WorkloadProfile profile, double margin, List<String> warnings) {
        Optional<List<ResourceEstimate>> concluded = conclusion.map(RunConclusion::getResources);
        List<ResourceEstimate> estimates = concluded.orElse(List.of());
        List<CapacityPlan.Placed> placed = estimates.stream()
                .flatMap(e -> ResourceEstimates.placed(e, margin).stream()).toList();
        if (placed.isEmpty()) {
            warnings.add("run " + run.runId() + " (" + (run.tier() == null ? "no tier declared" : "tier " + run.tier())
                    + ") is left out: " + (concluded.isEmpty() ? "it has no run conclusion yet (no step closed)"
                    : estimates.isEmpty() ? "its conclusion has no fitted resource (a fit needs readings of one"
                    + " resource of the system under test or its host in 3 uncontaminated steps with a load x)"
                    : "none of its fitted resources " + estimates.stream()
                    .map(ResourceEstimate::getMetric).distinct().toList() + " has a ceiling (declare the run's vcpu,"
                    + " memory or egress)"));
            return Optional.empty();
        }
        CapacityPlan plan = CapacityPlan.of(placed, margin);
        List<ResourceNeed> needs = plan.resources().stream().map(p -> {
            double ceiling = p.capacity().ceiling();
            double needed = p.preKnee().predict(profile.load());
            return new ResourceNeed(p.metric(), ceiling, needed, needed / ceiling, p.capacity().safeX(),
                    p.capacity().xMaxStdErr(), p.capacity().cappedByCliff());
        }).toList();
        OptionalDouble failedAt = Finite.optional(conclusion.get().getFirstFailingX());
        OptionalDouble stableAt = Finite.optional(conclusion.get().getMaxStableX());
        ProfileAssessment a = plan.assess(profile, failedAt, stableAt);
        if (failedAt.isPresent()) {
            warnings.add(String.format(Locale.ROOT, "run %s failed a step at x=%s: no load beyond its last passing"
                    + " step (%s) is offered on it", run.runId(), num(failedAt.getAsDouble()),
                    stableAt.isPresent() ? "x=" + num(stableAt.getAsDouble()) : "none passed"));
        }
        return Optional.of(new TierPlan(run.runId(), run.provider(), run.tier(), run.vcpu(), a.load(), a.fit().name(),
                a.bottleneckResource(), a.safeLoad(), a.fullCeilingLoad(), a.safeLoad() - a.load(), needs, null));
    }

    /**
     * The runs a plan covers: those asked for by id, and the newest run of each tier asked for, of one system (the
     * one asked for, else the requested runs', else the most recent run's). Like compare's cohorts, a plan covers
     * one system and one load expression: a profile in one load unit means nothing on another system's curve.
     * Their number is checked before any is read (each tier name costs one query).
     */
    private List<RunRow> tierRuns(PlanRequest request) {
        if (request.runIds().size() > MAX_TIERS) {
            throw new BadRequestParameterException("runIds", request.runIds().size() + " run ids", "at most "
                    + MAX_TIERS + " run ids and tiers together");
        }
        if (request.runIds().size() + request.tiers().size() > MAX_TIERS) {
            throw new BadRequestParameterException("tiers", request.tiers().size() + " tiers besides "
                    + request.runIds().size() + " run ids", "at most " + MAX_TIERS + " run ids and tiers together");
        }
        if (request.runIds().isEmpty() && request.tiers().isEmpty()) {
            throw new BadRequestParameterException("tiers", "[]", "name at least one tier or run id");
        }
        List<RunRow> out = new ArrayList<>(runs.findAll(request.runIds()));
        if (out.size() < request.runIds().size()) {
            throw new NotFoundException("runs " + request.runIds() + " asked, only "
                    + out.stream().map(RunRow::runId).toList() + " exist");
        }
        String system = request.sut() != null ? request.sut() : !out.isEmpty() ? out.getFirst().sutName()
                : runs.find(filter(null, null)).stream().findFirst().map(RunRow::sutName).orElse(null);
        Map<String, RunRow> newest = runs.newestOfTiers(system, request.tiers());
        for (String tier : request.tiers()) {
            out.add(Optional.ofNullable(newest.get(tier))
                    .orElseThrow(() -> new NotFoundException("no measured run on tier '" + tier + "'"
                            + (system == null ? "" : " for " + system))));
        }
        Set<String> cohorts = new TreeSet<>();
        out.forEach(r -> cohorts.add(r.sutName() + " / " + r.loadExpression()));
        if (cohorts.size() > 1 || request.sut() != null && !request.sut().equals(out.getFirst().sutName())) {
            throw new BadRequestParameterException(request.runIds().isEmpty() ? "tiers" : "runIds",
                    out.stream().map(r -> r.runId() + " (" + r.sutName() + " / " + r.loadExpression() + ")").toList(),
                    "a plan covers one system and one load expression (as compare's cohorts do)"
                            + (request.sut() == null ? "" : " of sut=" + request.sut()) + "; got " + cohorts);
        }
        return out;
    }

    private static RunFilter filter(String sut, String tier) {
        return new RunFilter(sut, null, null, null, tier, null, Map.of(), null, null, 1, 0);
    }

    private static String num(double v) {
        return Figures.number(v);
    }

    private static WorkloadProfile profile(PlanRequest.Profile p) {
        if (p == null) {
            throw new BadRequestParameterException("profile", null, "a workload profile is required");
        }
        String name = p.name() == null || p.name().isBlank() ? "profile" : p.name();
        if (p.load() != null) {
            if (!(p.load() >= 0) || p.load().isInfinite()) {
                throw new BadRequestParameterException("profile.load", p.load(), "must be a finite load >= 0");
            }
            return new LoadProfile(name, p.load());
        }
        if (p.rooms() != null && p.participants() != null && p.cameras() != null) {
            try {
                return new ConferenceProfile(name, p.rooms(), p.participants(), p.cameras());
            } catch (IllegalArgumentException e) {
                throw new BadRequestParameterException("profile", p, e.getMessage());
            }
        }
        throw new BadRequestParameterException("profile", p, "give load, or rooms, participants and cameras");
    }

    /** A profile already expressed in the fit's x. */
    record LoadProfile(String name, double load) implements WorkloadProfile {
    }
}
