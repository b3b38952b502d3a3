package dev.caplab.sampler;

import static dev.caplab.ingest.adapter.Fixtures.only;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.caplab.ingest.adapter.IntervalPublisher;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.ingest.adapter.RecordingSink;
import dev.caplab.ingest.parse.ParseResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Samples this machine's real /proc and cgroup root. */
class HostSamplerIT {

    @Test
    void realProcGivesPlausibleFigures() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")), "needs Linux /proc");
        long cores = Files.readAllLines(Path.of("/proc/stat")).stream().filter(l -> l.matches("cpu\\d+ .*")).count();
        HostSampler sampler = new HostSampler(HostSamplerSettings.local(List.of("/"), "this-host"),
                Clock.systemUTC());

        sampler.sampleOnce();
        Thread.sleep(500);
        ParseResult second = sampler.sampleOnce();

        double used = only(second.samples().stream().filter(s -> s.getSource().equals("this-host")).toList(),
                MetricNames.CPU_CORES, Map.of()).getValue();
        // ticks are 10 ms, so a 0.5 s window can read up to one tick per core high
        assertThat(used).isBetween(0.0, cores * 1.05);
        assertThat(second.samples()).anySatisfy(s -> {
            assertThat(s.getMetric()).isEqualTo(MetricNames.NET_RX_BYTES);
            assertThat(s.getLabels()).containsEntry("interface", "lo");
        });
        assertThat(only(second.samples(), MetricNames.MEM_LIMIT_BYTES, Map.of()).getValue()).isPositive();
        assertThat(second.samples()).anySatisfy(s -> assertThat(s.getMetric()).isEqualTo(MetricNames.SAMPLER_CPU_MS));
        // the root cgroup has cpu.stat on v2 and hybrid hosts alike
        assertThat(second.samples()).anySatisfy(s -> {
            assertThat(s.getMetric()).isEqualTo(MetricNames.CPU_USAGE_SECONDS);
            assertThat(s.getSource()).isEqualTo("/");
        });
    }

    @Test
    void publishesEveryInterval() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")), "needs Linux /proc");
        HostSampler sampler = new HostSampler(HostSamplerSettings.local(List.of(), "this-host"), Clock.systemUTC());
        RecordingSink sink = new RecordingSink();
        List<IntervalPublisher.Problem> problems = new CopyOnWriteArrayList<>();
        try (IntervalPublisher loop = new IntervalPublisher(HostSampler.ADAPTER, "run-7", Duration.ofMillis(200),
                sampler::sampleOnce, sink, problems::add)) {
            loop.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (sink.batches().size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        }

        assertThat(problems).isEmpty();
        assertThat(sink.batches()).hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(b -> assertThat(b.adapter()).isEqualTo(HostSampler.ADAPTER));
        assertThat(sink.batches().get(2).samples())
                .anySatisfy(s -> assertThat(s.getMetric()).isEqualTo(MetricNames.CPU_CORES));
    }
}
