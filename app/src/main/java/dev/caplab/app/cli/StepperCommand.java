package dev.caplab.app.cli;

import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.lifecycle.RunEndRequest;
import dev.caplab.ingest.lifecycle.RunStartRequest;
import dev.caplab.ingest.publish.LifecyclePublisher;
import dev.caplab.ingest.publish.ProducerSettings;
import dev.caplab.ingest.stepper.CommandTemplate;
import dev.caplab.ingest.stepper.KafkaVerdictSource;
import dev.caplab.ingest.stepper.StepPlan;
import dev.caplab.ingest.stepper.SteppedLoadController;
import dev.caplab.ingest.stepper.StepperOutcome;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code caplab stepper --steps 12,25,50,75,100 --hold 120s --warmup 20s -- k6 run --vus {load} script.js}: runs
 * the tool once per step, publishes the lifecycle, prints progress and stops at the first failing step; the max stable
 * load it prints is the run conclusion's rule ({@code StepperOutcome.lastPassedStep}).
 */
@Command(name = "stepper", mixinStandardHelpOptions = true,
        description = "Stepped-load controller: run a tool once per load step ({load}, {step}, {hold}, {run} are "
                + "substituted), emit lifecycle events, stop at the first failing verdict (a contaminated step does "
                + "not count, as in the run conclusion). Exit 0 when every step passed or had no verdict, 2 when a "
                + "step failed.")
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
    @Option(names = "--verdict-timeout", defaultValue = "30s",
            description = "How long to wait for a step's verdict before continuing (default: ${DEFAULT-VALUE}).")
    String verdictTimeout;
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
                KafkaVerdictSource verdicts = new KafkaVerdictSource(kafka.bootstrapServers,
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
            StepperOutcome outcome = new SteppedLoadController(publisher, verdicts,
                    StepCommand.Durations.parse(verdictTimeout), Clock.systemUTC(), System.out)
                    .run(run, plan, new CommandTemplate(command));
            if (ownsRun) {
                publisher.publish(events.toEvent(new RunEndRequest(run,
                        outcome.failedStep().isPresent() ? RunStatus.ABORTED : RunStatus.COMPLETED,
                        outcome.stopReason(), null), run)).join();
            }
            outcome.lastPassedStep().ifPresent(i -> System.out.println("max stable load: " + dimension + "="
                    + plan.loads().get(i)));
            return outcome.failedStep().isPresent() ? 2 : 0;
        }
    }
}
