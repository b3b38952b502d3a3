package dev.caplab.query.live;

import dev.caplab.store.access.DeletedRunRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.RunSteps;
import dev.caplab.query.runs.RunNotFoundException;
import dev.caplab.query.steps.StepView;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.RunStep;
import dev.caplab.store.access.RunActivityRepository;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Service;

/**
 * A run's live status ({@link LiveRun}), assembled from the store at each call: no state is kept between requests,
 * so any number of API instances answer alike.
 */
@Service
public class LiveService {

    /** The sample rate is counted over at most this many seconds before the latest sample. */
    static final int RATE_WINDOW_SECONDS = 10;

    private final RunRepository runs;
    private final DeletedRunRepository deletions;
    private final RunSteps steps;
    private final RunActivityRepository activity;
    private final LiveProperties properties;
    private final Clock clock;

    @Autowired
    LiveService(RunRepository runs, DeletedRunRepository deletions, RunSteps steps,
            RunActivityRepository activity, LiveProperties properties) {
        this(runs, deletions, steps, activity, properties, Clock.systemUTC());
    }

    LiveService(RunRepository runs, DeletedRunRepository deletions, RunSteps steps,
            RunActivityRepository activity, LiveProperties properties, Clock clock) {
        this.runs = runs;
        this.deletions = deletions;
        this.steps = steps;
        this.activity = activity;
        this.properties = properties;
        this.clock = clock;
    }

    public LiveRun of(String runId) {
        RunRow run = RunNotFoundException.require(runId, runs, deletions);
        Instant now = clock.instant();
        RunActivityRepository.Activity a = activity.activity(runId, RATE_WINDOW_SECONDS);
        int window = rateWindowSeconds(run.startedAt(), a.lastSampleAt());
        long inWindow = window == RATE_WINDOW_SECONDS ? a.samplesInWindow()
                : activity.activity(runId, window).samplesInWindow();
        List<RunStep> known = steps.ofRun(runId);
        Instant until = run.endedAt() != null ? run.endedAt() : now;
        return new LiveRun(runId, run.status(), run.origin(), run.startedAt(), run.endedAt(), now,
                seconds(run.startedAt(), until), a.samples(), a.lastSampleAt(),
                a.samples() == 0 ? 0 : (double) inWindow / window, window, current(known, until), StepView.of(known),
                end(run, a.lastSampleAt()));
    }

    /** The rate window: 10 s, or the time from the start to the latest sample when shorter (at least 1 s). */
    static int rateWindowSeconds(Instant startedAt, Instant lastSampleAt) {
        if (lastSampleAt == null) {
            return RATE_WINDOW_SECONDS;
        }
        long sinceStart = Duration.between(startedAt, lastSampleAt).toSeconds();
        return (int) Math.max(1, Math.min(RATE_WINDOW_SECONDS, sinceStart));
    }

    /**
     * The highest-numbered step not yet ended, else the last step; null without steps. A step without an end of its
     * own lasts until {@code until}: now while the run runs, else the run's end (which closed it).
     */
    static LiveRun.CurrentStep current(List<RunStep> known, Instant until) {
        RunStep step = known.stream().filter(s -> s.endedAt() == null)
                .max(Comparator.comparingInt(RunStep::stepIndex))
                .orElse(known.stream().max(Comparator.comparingInt(RunStep::stepIndex)).orElse(null));
        if (step == null) {
            return null;
        }
        Double elapsed = step.startedAt() == null ? null
                : seconds(step.startedAt(), step.endedAt() != null ? step.endedAt() : until);
        return new LiveRun.CurrentStep(step.stepIndex(), step.load(), step.x(), step.startedAt(), step.endedAt(),
                elapsed);
    }

    private LiveRun.RunEnd end(RunRow run, Instant lastSampleAt) {
        if (run.endedAt() != null || !RunRow.RUNNING.equals(run.status())) {
            return new LiveRun.RunEnd("ENDED", null, null, run.endedAt());
        }
        boolean inferred = "INFERRED".equals(run.origin());
        Duration idle = inferred ? properties.runIdleEnd() : properties.declaredIdleEnd();
        Instant from = lastSampleAt != null ? lastSampleAt : run.startedAt();
        return new LiveRun.RunEnd(inferred ? "IDLE" : "RUN_END", idle.toSeconds(), from.plus(idle), null);
    }

    private static double seconds(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).toMillis() / 1000.0);
    }
}
