package dev.caplab.query.plan;

import dev.caplab.analysis.capacity.CapacityEstimate;
import dev.caplab.analysis.capacity.CapacityModel;
import dev.caplab.analysis.capacity.CapacityPlan;
import dev.caplab.analysis.capacity.ConferenceProfile;
import dev.caplab.analysis.capacity.ProfileAssessment;
import dev.caplab.analysis.capacity.WorkloadProfile;
import dev.caplab.analysis.fit.LinearFit;
import dev.caplab.query.fits.FitReader;
import dev.caplab.query.fits.FitView;
import dev.caplab.query.runs.RunFilter;
import dev.caplab.query.runs.RunReader;
import dev.caplab.query.runs.RunSummary;
import dev.caplab.query.steps.MaxStableLoad;
import dev.caplab.query.steps.StepReader;
import dev.caplab.query.web.BadRequestParameterException;
import dev.caplab.query.web.NotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.springframework.stereotype.Service;

/** Places a workload profile on measured tiers with analysis' capacity formula, x_max = (C·margin − base)/slope. */
@Service
public class PlanService {

    static final int MAX_TIERS = 20;

    private final RunReader runs;
    private final StepReader steps;
    private final FitReader fits;

    PlanService(RunReader runs, StepReader steps, FitReader fits) {
        this.runs = runs;
        this.steps = steps;
        this.fits = fits;
    }

    public Plan plan(PlanRequest request) {
        WorkloadProfile profile = profile(request.profile());
        double margin = request.margin() == null ? CapacityModel.DEFAULT_MARGIN : request.margin();
        if (!(margin > 0 && margin <= 1)) {
            throw new BadRequestParameterException("margin", margin, "must be in (0, 1]");
        }
        List<RunSummary> tierRuns = tierRuns(request);
        List<TierPlan> plans = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (RunSummary run : tierRuns) {
            plan(run, profile, margin, warnings).ifPresent(plans::add);
        }
        return new Plan(profile.name(), profile.load(), margin, CapacityPlan.MODEL_NAME + "/" + CapacityPlan.MODEL_VERSION,
                plans, warnings);
    }

    private Optional<TierPlan> plan(RunSummary run, WorkloadProfile profile, double margin, List<String> warnings) {
        MaxStableLoad stable = MaxStableLoad.of(steps.steps(run.runId()));
        List<CapacityEstimate> estimates = new ArrayList<>();
        List<ResourceNeed> needs = new ArrayList<>();
        for (FitView fit : fits.fits(run.runId(), Optional.empty())) {
            if (fit.capacity() == null || fit.baseline() == null || fit.slopePerX() == null) {
                continue;
            }
            // Only the slope's standard error is stored, so the interval ignores the base's variance: a lower bound.
            double slopeSe = fit.segments().getFirst().slopeStdErr() == null ? 0 : fit.segments().getFirst().slopeStdErr();
            LinearFit line = new LinearFit(fit.baseline(), fit.slopePerX(), 0, slopeSe * slopeSe, 0, Double.NaN,
                    Math.max(0, fit.stepsUsed() - 2), Math.max(2, fit.stepsUsed()),
                    fit.rSquared() == null ? Double.NaN : fit.rSquared());
            OptionalDouble lastStable = fit.cliff() && stable.maxStableX() != null
                    ? OptionalDouble.of(stable.maxStableX()) : OptionalDouble.empty();
            CapacityEstimate e = CapacityModel.estimate(fit.metric(), line, fit.capacity(), margin, lastStable);
            estimates.add(e);
            double needed = line.predict(profile.load());
            needs.add(new ResourceNeed(fit.metric(), fit.capacity(), needed, needed / fit.capacity(), e.safeX(),
                    e.xMaxStdErr(), e.cappedByCliff()));
        }
        if (estimates.isEmpty()) {
            warnings.add("run " + run.runId() + " (" + run.tier() + ") has no fit with a ceiling; it is left out");
            return Optional.empty();
        }
        ProfileAssessment a = CapacityPlan.of(estimates).assess(profile);
        return Optional.of(new TierPlan(run.runId(), run.provider(), run.tier(), run.vcpu(), a.load(), a.fit().name(),
                a.bottleneckResource(), a.safeLoad(), a.fullCeilingLoad(), a.safeLoad() - a.load(), needs));
    }

    private List<RunSummary> tierRuns(PlanRequest request) {
        List<RunSummary> out = new ArrayList<>(runs.getAll(request.runIds()));
        if (out.size() < request.runIds().size()) {
            throw new NotFoundException("runs " + request.runIds() + " asked, only "
                    + out.stream().map(RunSummary::runId).toList() + " exist");
        }
        for (String tier : request.tiers()) {
            out.add(runs.find(new RunFilter(request.sut(), null, null, null, tier, null, Map.of(), null, null, 1, 0))
                    .stream().findFirst()
                    .orElseThrow(() -> new NotFoundException("no measured run on tier '" + tier + "'"
                            + (request.sut() == null ? "" : " for " + request.sut()))));
        }
        if (out.isEmpty()) {
            throw new BadRequestParameterException("tiers", "[]", "name at least one tier or run id");
        }
        if (out.size() > MAX_TIERS) {
            throw new BadRequestParameterException("tiers", out.size(), "at most " + MAX_TIERS);
        }
        return out;
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
