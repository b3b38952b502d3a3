package dev.caplab.query.runs;

import dev.caplab.schema.vocabulary.RunGenerationIds;
import dev.caplab.store.row.RunRow;
import java.util.Optional;
import java.util.function.Function;

/**
 * How a run nobody declared links to the tests sent to the same run id before and after it ({@link RunGenerationIds}:
 * {@code k6}, {@code k6.2}, ...): {@code continues} the run it follows, {@code continuedBy} the one that follows it
 * (each null when there is none), and the sentence the page and the report both show.
 */
public record RunContinuation(String continues, String continuedBy, String text) {

    /** The links of {@code run}, empty when it has none; {@code runs} looks a run up by id. */
    public static Optional<RunContinuation> of(RunRow run, Function<String, Optional<RunRow>> runs) {
        if (!inferred(run)) {
            return Optional.empty();
        }
        String continues = RunGenerationIds.previous(run.runId()).flatMap(runs)
                .filter(RunContinuation::inferred).map(RunRow::runId).orElse(null);
        String continuedBy = runs.apply(RunGenerationIds.next(run.runId()))
                .filter(RunContinuation::inferred).map(RunRow::runId).orElse(null);
        if (continues == null && continuedBy == null) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder();
        if (continues != null) {
            text.append("Continues run ").append(continues).append(": a new test sent to the same run id after ")
                    .append(continues).append(" had ended (nobody started it; it had no input for the idle time).");
        }
        if (continuedBy != null) {
            text.append(text.isEmpty() ? "" : " ").append("Continued by run ").append(continuedBy)
                    .append(": the next test sent to the same run id after this one ended.");
        }
        return Optional.of(new RunContinuation(continues, continuedBy, text.toString()));
    }

    private static boolean inferred(RunRow r) {
        return "INFERRED".equals(r.origin());
    }
}
