package dev.caplab.stepper;

import java.time.Duration;
import java.util.List;

/**
 * The load tool's command line with placeholders filled per step: {@code {load}} (the step's load, integral loads
 * without ".0"), {@code {step}} (index from 0), {@code {hold}} (seconds) and {@code {run}} (run id).
 */
public record CommandTemplate(List<String> argv) {

    public CommandTemplate {
        argv = List.copyOf(argv);
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("a command is required after --, e.g. -- k6 run --vus {load} script.js");
        }
    }

    public List<String> render(String runId, int stepIndex, double load, Duration hold) {
        String loadText = load == Math.rint(load) ? Long.toString((long) load) : Double.toString(load);
        return argv.stream()
                .map(a -> a.replace("{load}", loadText).replace("{step}", Integer.toString(stepIndex))
                        .replace("{hold}", Long.toString(hold.toSeconds())).replace("{run}", runId))
                .toList();
    }
}
