package dev.caplab.app.cli;

import dev.caplab.ingest.adapter.IntervalPublisher;
import dev.caplab.sampler.HostSampler;
import dev.caplab.sampler.HostSamplerSettings;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code caplab sample}: the built-in host sampler (/proc/stat, /proc/meminfo, /proc/net/dev, cgroup v2 CPU and
 * memory) publishing samples of a run at a fixed interval, with its own CPU cost, until Ctrl-C or --duration.
 */
@Command(name = "sample", mixinStandardHelpOptions = true,
        description = "Samples this host's CPU, memory, network and chosen cgroups into a run.")
public final class SampleCommand implements Callable<Integer> {

    @Option(names = "--run", required = true, description = "Run id the samples belong to.")
    String runId;

    @Option(names = "--interval", defaultValue = "2s", paramLabel = "DURATION",
            description = "Sampling interval (default: ${DEFAULT-VALUE}).")
    String interval;

    @Option(names = "--cgroup", paramLabel = "PATH",
            description = "cgroup v2 path under /sys/fs/cgroup to sample too, e.g. system.slice/docker-<id>.scope "
                    + "(repeatable).")
    List<String> cgroups = new ArrayList<>();

    @Option(names = "--host", paramLabel = "NAME", description = "Source name of the host (default: its hostname).")
    String host;

    @Option(names = "--duration", paramLabel = "DURATION", description = "Stop after this long (default: until Ctrl-C).")
    String duration;

    @Mixin
    IngestCommand.SinkOptions sinkOptions;

    @Mixin
    RunMetadataOptions metadata;

    @Override
    public Integer call() throws Exception {
        String source = host != null ? host : InetAddress.getLocalHost().getHostName();
        HostSampler sampler = new HostSampler(HostSamplerSettings.local(cgroups, source), Clock.systemUTC());
        AtomicLong problems = new AtomicLong();
        CountDownLatch stop = new CountDownLatch(1);
        try (IngestCommand.SinkOptions.Opened sink = sinkOptions.open("caplab-sample");
                IntervalPublisher loop = new IntervalPublisher(HostSampler.ADAPTER, runId,
                        StepCommand.Durations.parse(interval), sampler::sampleOnce, metadata.labelling(sink.sink()), p -> {
                            problems.incrementAndGet();
                            System.err.println("caplab sample: " + p.what());
                        })) {
            Thread hook = new Thread(() -> {
                stop.countDown();
                loop.stop();
            });
            Runtime.getRuntime().addShutdownHook(hook);
            loop.start();
            System.err.println("caplab sample: " + source + " every " + interval + " into run " + runId);
            if (duration == null) {
                stop.await();
            } else {
                Duration limit = StepCommand.Durations.parse(duration);
                stop.await(limit.toMillis(), TimeUnit.MILLISECONDS);
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            loop.stop();
            System.err.printf("caplab sample: %d samples in %d intervals to %s, %d problems%n",
                    loop.samplesPublished(), loop.ticks(), sink.landedIn(runId), problems.get());
            sink.warnings().forEach(w -> System.err.println("caplab sample: " + w));
        }
        return problems.get() == 0 ? 0 : 1;
    }
}
