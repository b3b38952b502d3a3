package dev.caplab.app.cli;

import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.lifecycle.RunEndRequest;
import dev.caplab.ingest.lifecycle.RunStartRequest;
import dev.caplab.ingest.publish.LifecyclePublisher;
import dev.caplab.ingest.publish.ProducerSettings;
import dev.caplab.stepper.CommandTemplate;
import dev.caplab.stepper.ConclusionText;
import dev.caplab.stepper.KafkaConclusionSource;
import dev.caplab.stepper.StepPlan;
import dev.caplab.stepper.SteppedLoadController;
import dev.caplab.stepper.StepperOutcome;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code caplab stepper --steps 12,25,50,75,100 --hold 120s --warmup 20s -- k6 run --vus {load} script.js}: runs
 * the tool once per step, publishes the lifecycle, prints progress and stops when the run conclusion streams stores
 * (topic {@code caplab.conclusions}) names a first failing step; the max stable load it prints is that conclusion's.
 */
@Command(name = "stepper", mixinStandardHelpOptions = true,
        description = "Stepped-load controller: run a tool once per load step ({load}, {step}, {hold}, {run} are "
                + "substituted), emit lifecycle events, after each step wait for the run conclusion and stop when it "
                + "names a first failing step (a contaminated step does not count). Exit 0 when no step failed, 2 "
                + "when one did or the tool exited non-zero.")
public final class StepperCommand implements Callable<Integer> {

    @Mixin RunCommand.KafkaOptions kafka;
    @Option(names = "--steps", required = true, split = ",", description = "Load of each step, e.g. 12,25,50.")
    List<Double> steps;
    @Option(names = "--hold", defaultValue = "120s", description = "Length of each step (default: ${DEFAULT-VALUE}).")
    String hold;
    @Option(names = "--warmup", defaultValue = "0s", description = "Warm-up at the start of each step.") String warmup;
    @Option(names = "--dimension", defaultValue = "load", description = "Name of the load dimension, e.g. users.")
    String dimension;
    @Option(names = "--run", description = "An already started run; without it the stepper starts (and ends) one.")
    String runId;
    @Option(names = "--sut", description = "System under test when the stepper starts the run.") String sut;
    @Option(names = "--provider") String provider;
    @Option(names = "--tier") String tier;
    @Option(names = "--slo", description = "SLO rule when the stepper starts the run; repeatable.")
    List<String> slo = new ArrayList<>();
    @Option(names = {"--conclusion-timeout", "--verdict-timeout"}, defaultValue = "60s",
            description = "How long to wait after a step for the run conclusion to account for it before continuing;"
                    + " streams closes a step after its grace, 30 s by default (default: ${DEFAULT-VALUE}).")
    String conclusionTimeout;
    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "The load tool's command line, after --.")
    List<String> command;

    @Override
    public Integer call() throws Exception {
        StepPlan plan = new StepPlan(steps, StepCommand.Durations.parse(hold), StepCommand.Durations.parse(warmup),
                dimension);
        boolean ownsRun = runId == null;
        if (ownsRun && sut == null) {
            throw new IllegalArgumentException("give --run of a started run, or --sut so the stepper starts one");
        }
        LifecycleEvents events = new LifecycleEvents(Clock.systemUTC());
        try (LifecyclePublisher publisher = new LifecyclePublisher(
                new ProducerSettings(kafka.bootstrapServers, "caplab-stepper", kafka.kafkaLogin.security()));
                KafkaConclusionSource conclusions = new KafkaConclusionSource(kafka.bootstrapServers,
                        kafka.kafkaLogin.security())) {
            String run = runId;
            if (ownsRun) {
                RunStarted started = (RunStarted) events.toEvent(new RunStartRequest(null, sut, null, null, provider,
                        null, tier, null, null, null, null, null, command.getFirst(), Map.of(),
                        steps.stream().map(l -> Map.of(dimension, l)).toList(), slo, dimension, null), null);
                publisher.publish(started).join();
                run = started.getRunId();
                System.out.println("run " + run);
            }
            StepperOutcome outcome = new SteppedLoadController(publisher, conclusions,
                    StepCommand.Durations.parse(conclusionTimeout), Clock.systemUTC(), System.out)
                    .run(run, plan, new CommandTemplate(command));
            if (ownsRun) {
                publisher.publish(events.toEvent(new RunEndRequest(run,
                        outcome.failedStep().isPresent() ? RunStatus.ABORTED : RunStatus.COMPLETED,
                        outcome.stopReason(), null, false), run)).join(); // the tool it runs sends the samples
            }
            outcome.conclusion().ifPresentOrElse(c -> System.out.println("run conclusion: " + ConclusionText.of(c)),
                    () -> System.out.println("run conclusion: none arrived (is caplab streams running?)"));
            OptionalInt stable = outcome.lastPassedStep();
            if (stable.isPresent() && stable.getAsInt() < plan.loads().size()) {
                System.out.println("max stable load: " + dimension + "=" + plan.loads().get(stable.getAsInt()));
            }
            return outcome.failedStep().isPresent() ? 2 : 0;
        }
    }
}
