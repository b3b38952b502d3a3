package dev.caplab.analysis.conclusion;

/**
 * What a step says about the system, the one spelling every reader uses: it passed or failed the run's SLO rules, no
 * rule judged it, other processes contaminated it (so it says nothing, pass or fail), or it has no verdict yet.
 * {@link #word()} is how pages, reports and the API's words name it. A step's verdict proper ({@link StepJudgement})
 * is one of the first three; contamination and pending are what a reader sees on top of it ({@link #of}).
 */
public enum StepStatus {
    PASSED("pass"),
    FAILED("fail"),
    NOT_JUDGED("not judged"),
    CONTAMINATED("contaminated"),
    PENDING("pending");

    private final String word;

    StepStatus(String word) {
        this.word = word;
    }

    /** The word a reader sees: pass, fail, not judged, contaminated, pending. */
    public String word() {
        return word;
    }

    /**
     * The status of a step: contaminated first (it says nothing about the system), else not judged when no rule
     * judged it, else pending while it has no verdict ({@code passed} null), else passed or failed.
     */
    public static StepStatus of(boolean contaminated, boolean judged, Boolean passed) {
        if (contaminated) {
            return CONTAMINATED;
        }
        if (!judged) {
            return NOT_JUDGED;
        }
        return passed == null ? PENDING : passed ? PASSED : FAILED;
    }

    /** A verdict proper: what the rules said of a closed step, before contamination is looked at. */
    public boolean verdict() {
        return this == PASSED || this == FAILED || this == NOT_JUDGED;
    }
}
