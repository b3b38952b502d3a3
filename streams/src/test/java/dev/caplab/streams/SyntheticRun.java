package dev.caplab.streams;

import static dev.caplab.streams.Events.gauge;

import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * A stepped run with a known answer: users = 2, 4, …, 16; host CPU = 0.35 + 0.05·users cores up to 10 users, then a
 * cliff (seeds/000: 18 → 19 sessions took one vCPU from 45 % to 88–103 %); p95 latency 120 ms until the cliff, 900 ms
 * after it; tx bytes counter at 10 kB/s per user. One sample per metric per second, 30 s steps, 5 s warm-up.
 */
public final class SyntheticRun {

    public static final int STEPS = 8;
    public static final double BASE_CORES = 0.35;
    public static final double CORES_PER_USER = 0.05;
    public static final int STEP_SECONDS = 30;
    public static final int WARMUP_SECONDS = 5;
    public static final int FIRST_FAILING_STEP = 5;

    /** One input record: a lifecycle event or one batch of samples. */
    public record Input(SpecificRecord lifecycle, List<Sample> samples) {
    }

    private SyntheticRun() {
    }

    public static double users(int step) {
        return 2.0 * (step + 1);
    }

    public static double cores(int step) {
        double users = users(step);
        return users <= 10 ? BASE_CORES + CORES_PER_USER * users : 0.9 + 0.35 * (users - 10);
    }

    public static List<Input> inputs(String runId) {
        List<Input> out = new ArrayList<>();
        out.add(new Input(Events.runStarted(runId, "users",
                List.of(Events.rule("p95 latency", "http_req_duration", "p95", Comparator.LE, 500)), 4), null));
        double tx = 0;
        List<Sample> baseline = new ArrayList<>();
        for (int s = 0; s < 10; s++) {
            baseline.add(gauge("host", "cpu.cores", s, 0.05));
        }
        out.add(new Input(null, baseline));
        for (int step = 0; step < STEPS; step++) {
            double start = 10 + step * STEP_SECONDS;
            out.add(new Input(Events.stepStarted(runId, step, Map.of("users", users(step)), start, WARMUP_SECONDS),
                    null));
            for (int s = 0; s < STEP_SECONDS; s += 10) {
                List<Sample> batch = new ArrayList<>();
                for (int k = s; k < s + 10; k++) {
                    double t = start + k;
                    double wobble = (k % 3 - 1) * 0.01;
                    batch.add(gauge("host", "cpu.cores", t, cores(step) + wobble));
                    batch.add(gauge("client", "http_req_duration", t, step < FIRST_FAILING_STEP ? 120 : 900));
                    tx += 10_000 * users(step);
                    batch.add(Events.sample("host", "net.tx.bytes", SampleKind.COUNTER, t, tx, Map.of()));
                }
                out.add(new Input(null, batch));
            }
            out.add(new Input(Events.stepEnded(runId, step, start + STEP_SECONDS), null));
        }
        double end = 10 + STEPS * STEP_SECONDS;
        out.add(new Input(Events.runEnded(runId, end), null));
        return out;
    }

    /** {@link #inputs} with every lifecycle event after all the samples (samples first, steps defined last). */
    public static List<Input> lifecycleLast(String runId) {
        List<Input> inputs = inputs(runId);
        List<Input> out = new ArrayList<>(inputs.stream().filter(i -> i.samples() != null).toList());
        out.addAll(inputs.stream().filter(i -> i.lifecycle() != null).toList());
        return out;
    }

    /**
     * {@link #inputs} with lifecycle and the load tool's samples in order, and every sample of source {@code host}
     * (cpu, net) at the end: after the load tool's event time closed every step.
     */
    public static List<Input> hostLast(String runId) {
        List<Input> out = new ArrayList<>();
        List<Input> host = new ArrayList<>();
        for (Input i : inputs(runId)) {
            if (i.samples() == null) {
                out.add(i);
                continue;
            }
            List<Sample> client = i.samples().stream().filter(s -> !s.getSource().toString().equals("host")).toList();
            if (!client.isEmpty()) {
                out.add(new Input(null, client));
            }
            host.add(new Input(null, i.samples().stream().filter(s -> s.getSource().toString().equals("host"))
                    .toList()));
        }
        out.addAll(host);
        return out;
    }

    /**
     * {@link #inputs} backwards: the run's end first and its start last, every batch's samples newest first, as a
     * file read from the end or shards of a remote write that flush in any order deliver them.
     */
    public static List<Input> reversed(String runId) {
        List<Input> out = new ArrayList<>();
        for (Input i : inputs(runId).reversed()) {
            out.add(i.samples() == null ? i : new Input(null, List.copyOf(i.samples().reversed())));
        }
        return out;
    }

    /** How many samples {@link #inputs} holds. */
    public static int sampleCount() {
        return 10 + STEPS * STEP_SECONDS * 3;
    }
}
