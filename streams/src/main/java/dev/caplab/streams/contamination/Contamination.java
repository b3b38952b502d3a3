package dev.caplab.streams.contamination;

import java.util.Optional;

/** Whether a step was contaminated by load outside the system under test, and why. */
public record Contamination(boolean contaminated, Optional<String> reason) {

    public static final Contamination CLEAN = new Contamination(false, Optional.empty());
}
