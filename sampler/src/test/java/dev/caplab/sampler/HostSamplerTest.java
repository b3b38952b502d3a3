package dev.caplab.sampler;

import static dev.caplab.ingest.adapter.Fixtures.only;
import static dev.caplab.ingest.adapter.Fixtures.select;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.ingest.adapter.ResultBuilder;
import dev.caplab.ingest.parse.ParseError;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.schema.event.SampleKind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** proc-1 and proc-2 are /proc/stat, meminfo and net/dev of this 2-core machine read one second apart. */
class HostSamplerTest {

    private static final Instant T0 = Instant.parse("2026-12-02T17:00:00Z");
    private static final Duration GAP = Duration.ofMillis(1150);

    @TempDir
    Path root;

    @Test
    void cpuCoresFromTwoReadingsOfProcStat() throws IOException {
        List<ParseResult> results = sampleTwice();

        assertThat(select(results.get(0).samples(), MetricNames.CPU_CORES, Map.of())).isEmpty();
        ParseResult second = new ParseResult(results.get(1).samples().stream()
                .filter(s -> s.getSource().equals("node-a")).toList(), results.get(1).errors());
        assertThat(second.errors()).isEmpty();
        // machine: busy 403034 → 403264 ticks = 2.30 s in 1.15 s; idle and iowait did not move
        assertThat(only(second.samples(), MetricNames.CPU_CORES, Map.of()).getValue()).isCloseTo(2.0, within(1e-9));
        assertThat(only(second.samples(), MetricNames.CPU_UTIL_PERCENT, Map.of()).getValue())
                .isCloseTo(100.0, within(1e-9));
        // cpu0: busy 198028 → 198144 = 1.16 s
        assertThat(only(second.samples(), MetricNames.CPU_CORE_CORES, Map.of("cpu", "0")).getValue())
                .isCloseTo(1.16 / 1.15, within(1e-9));
        assertThat(only(second.samples(), MetricNames.CPU_CORE_CORES, Map.of("cpu", "1")).getValue())
                .isCloseTo(1.14 / 1.15, within(1e-9));
    }

    @Test
    void memoryAndInterfaces() throws IOException {
        ParseResult second = sampleTwice().get(1);

        // MemTotal 24683548 kB, MemAvailable 23142476 kB
        assertThat(only(second.samples(), MetricNames.MEM_LIMIT_BYTES, Map.of()).getValue())
                .isEqualTo(24683548.0 * 1024);
        assertThat(select(second.samples(), MetricNames.MEM_BYTES, Map.of()).stream()
                .filter(s -> s.getSource().equals("node-a")).toList())
                .singleElement().satisfies(s -> assertThat(s.getValue()).isEqualTo((24683548.0 - 23142476) * 1024));
        var eth0 = only(second.samples(), MetricNames.NET_RX_BYTES, Map.of("interface", "eth0"));
        assertThat(eth0.getValue()).isEqualTo(525966222.0);
        assertThat(eth0.getKind()).isEqualTo(SampleKind.COUNTER);
        assertThat(only(second.samples(), MetricNames.NET_TX_PACKETS, Map.of("interface", "eth0")).getValue())
                .isEqualTo(12148.0);
    }

    @Test
    void cgroupCpuAndMemory() throws IOException {
        List<ParseResult> results = sampleTwice();
        ParseResult second = results.get(1);
        Map<String, String> livekit = Map.of("cgroup", "/app.slice/livekit");

        // usage_usec 123456789 → 125756789: 2.3 s of CPU in 1.15 s
        assertThat(only(second.samples(), MetricNames.CPU_CORES, livekit).getValue()).isCloseTo(2.0, within(1e-9));
        assertThat(only(second.samples(), MetricNames.CPU_USAGE_SECONDS, livekit).getValue())
                .isCloseTo(125.756789, within(1e-9));
        assertThat(only(second.samples(), MetricNames.MEM_BYTES, livekit).getValue()).isEqualTo(209715200.0);
        assertThat(only(results.get(0).samples(), MetricNames.MEM_LIMIT_BYTES, livekit).getValue())
                .isEqualTo(1610612736.0);
        // memory.max "max": no limit, no sample
        assertThat(select(second.samples(), MetricNames.MEM_LIMIT_BYTES, livekit)).isEmpty();
    }

    @Test
    void ownOverheadIsReported() throws IOException {
        ParseResult second = sampleTwice().get(1);

        assertThat(only(second.samples(), MetricNames.SAMPLER_CPU_MS, Map.of()).getValue()).isGreaterThanOrEqualTo(0);
        assertThat(only(second.samples(), MetricNames.SAMPLER_DURATION_MS, Map.of()).getValue()).isPositive();
        assertThat(select(second.samples(), MetricNames.SAMPLER_PROCESS_CPU_CORES, Map.of())).hasSize(1);
    }

    @Test
    void missingFilesAndBadLinesAreErrorsNotSilence() throws IOException {
        Files.createDirectories(root.resolve("proc/net"));
        Files.writeString(root.resolve("proc/stat"), "cpu  10 0 5 100 0 0 0 0 0 0\ncpu0 ten 0 5 100\n");
        Files.writeString(root.resolve("proc/meminfo"), "MemTotal:  100 kB\nMemFree:  lots kB\n");
        HostSampler sampler = new HostSampler(new HostSamplerSettings(root.resolve("proc"), root.resolve("cg"),
                List.of("absent"), "node-a", 100), Clock.fixed(T0, ZoneOffset.UTC));

        ParseResult first = sampler.sampleOnce();
        ParseResult again = sampler.sampleOnce();

        assertThat(first.errors()).extracting(ParseError::field).contains("cpu0.user", "MemFree")
                .anySatisfy(f -> assertThat(f).endsWith("net/dev"))
                .anySatisfy(f -> assertThat(f).endsWith("absent/cpu.stat"));
        assertThat(first.errors()).filteredOn(e -> "cpu0.user".equals(e.field())).singleElement()
                .satisfies(e -> assertThat(e.line()).isEqualTo(2));
        assertThat(only(first.samples(), MetricNames.MEM_LIMIT_BYTES, Map.of()).getValue()).isEqualTo(102400.0);
        // a missing cgroup file is said once, not every interval
        assertThat(again.errors()).noneSatisfy(e -> assertThat(e.field()).endsWith("absent/cpu.stat"));
    }

    @Test
    void procStatParserKeepsGoodLines() {
        ResultBuilder errors = new ResultBuilder();
        var cpus = ProcFiles.stat("cpu 1 2 3 4 5 6 7 8 0 0\ncpu0 1 2\nintr 5\ncpu1 1 0 1 10 0 0 0 0\n", "stat", errors);

        assertThat(cpus).containsOnlyKeys("cpu", "cpu1");
        assertThat(cpus.get("cpu")).isEqualTo(new CpuTimes(1 + 2 + 3 + 6 + 7 + 8, 36));
        assertThat(errors.build().errors()).singleElement().satisfies(e -> assertThat(e.line()).isEqualTo(2));
    }

    private List<ParseResult> sampleTwice() throws IOException {
        Path proc = root.resolve("proc");
        Path cgroups = root.resolve("cgroup");
        MutableClock clock = new MutableClock(T0);
        HostSampler sampler = new HostSampler(new HostSamplerSettings(proc, cgroups, List.of("app.slice/livekit"),
                "node-a", 100), clock);
        copy("host/proc-1", proc, "stat", "meminfo", "net/dev");
        copy("host/cgroup-1/app.slice/livekit", cgroups.resolve("app.slice/livekit"), "cpu.stat", "memory.current",
                "memory.max");
        ParseResult first = sampler.sampleOnce();
        clock.now = T0.plus(GAP);
        copy("host/proc-2", proc, "stat", "meminfo", "net/dev");
        copy("host/cgroup-2/app.slice/livekit", cgroups.resolve("app.slice/livekit"), "cpu.stat", "memory.current",
                "memory.max");
        return List.of(first, sampler.sampleOnce());
    }

    private static void copy(String resourceDir, Path target, String... files) throws IOException {
        for (String file : files) {
            Path to = target.resolve(file);
            Files.createDirectories(to.getParent());
            try (InputStream in = HostSamplerTest.class.getResourceAsStream("/" + resourceDir + "/" + file)) {
                Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** A clock the test moves between samples. */
    private static final class MutableClock extends Clock {
        Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
