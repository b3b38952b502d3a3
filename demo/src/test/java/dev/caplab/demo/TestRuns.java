package dev.caplab.demo;

import java.util.List;

/** The default demo runs, generated once per test JVM: the generator is pure, so sharing them is safe. */
final class TestRuns {

    static final List<DemoRun> ALL = DemoRuns.all();

    private TestRuns() {
    }

    static DemoRun byId(String runId) {
        return ALL.stream().filter(r -> r.runId().equals(runId)).findFirst()
                .orElseThrow(() -> new AssertionError("no demo run " + runId));
    }
}
