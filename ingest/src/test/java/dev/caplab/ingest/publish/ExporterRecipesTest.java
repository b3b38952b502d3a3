package dev.caplab.ingest.publish;

import static dev.caplab.ingest.adapter.Fixtures.only;
import static dev.caplab.ingest.adapter.Fixtures.select;
import static dev.caplab.ingest.adapter.Fixtures.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.sample.Samples;
import dev.caplab.ingest.adapter.UndatedRows;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.ingest.prometheus.PrometheusAdapter;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The exporter recipes as ingest applies them ({@link SampleBatches#EXPORTER_RECIPES}, behind the door) to exposition
 * text parsed by its Prometheus adapter: {@code prometheus/node_exporter-1.5.txt} is a real scrape of Debian's
 * node_exporter 1.5.0, {@code recipes/process-exporter-0.7.10.txt} a real scrape of Debian's process-exporter 0.7.10
 * ({@code -procnames java}), {@code recipes/cadvisor-documented.txt} is written by hand after cAdvisor's documented
 * format (no cAdvisor on the build machine). Expected values are the fixture's numbers, added up by hand.
 */
class ExporterRecipesTest {

    private static final Instant AT = Instant.parse("2026-12-02T18:00:00Z");

    private static List<Sample> scrape(String resource) {
        ParseResult parsed = new PrometheusAdapter("host-a:9100",
                new UndatedRows(PrometheusAdapter.FORMAT, Optional.of(AT))).parse(text(resource), AT);
        assertThat(parsed.errors()).isEmpty();
        return parsed.samples();
    }

    private static List<Sample> derived(String resource) {
        return SampleBatches.EXPORTER_RECIPES.derive(scrape(resource));
    }

    private static double sum(List<Sample> samples) {
        return samples.stream().mapToDouble(Sample::getValue).sum();
    }

    @Test
    void nodeExporterCpuIsEveryModeButIdleAndIowaitPerCpuAsCounters() {
        List<Sample> cpu = select(derived("prometheus/node_exporter-1.5.txt"), "cpu.cores",
                Map.of("recipe", "node_exporter"));

        // 2 CPUs x 6 busy modes (user nice system irq softirq steal)
        assertThat(cpu).hasSize(12).allSatisfy(s -> {
            assertThat(s.getKind()).isEqualTo(SampleKind.COUNTER);
            assertThat(s.getSource()).isEqualTo("host-a:9100");
            assertThat(s.getTimestamp()).isEqualTo(AT);
            assertThat(s.getLabels()).containsEntry("recipe", "node_exporter").containsKeys("cpu", "mode");
            assertThat(s.getLabels().get("mode")).isNotIn("idle", "iowait");
        });
        // cpu0: irq 0 + nice 0 + softirq 3.64 + steal 0 + system 83.78 + user 234.85
        assertThat(sum(select(cpu, "cpu.cores", Map.of("cpu", "0")))).isCloseTo(322.27, within(1e-9));
        // cpu1: 6.7 + 109.82 + 258.13
        assertThat(sum(select(cpu, "cpu.cores", Map.of("cpu", "1")))).isCloseTo(374.65, within(1e-9));
    }

    @Test
    void nodeExporterMemoryInUseIsTotalMinusAvailable() {
        Sample mem = only(derived("prometheus/node_exporter-1.5.txt"), "mem.bytes", Map.of("recipe", "node_exporter"));

        // 25,275,953,152 - 24,714,862,592
        assertThat(mem.getValue()).isEqualTo(561_090_560.0);
        assertThat(mem.getKind()).isEqualTo(SampleKind.GAUGE);
        assertThat(mem.getSource()).isEqualTo("host-a:9100");
    }

    @Test
    void nodeExporterNetworkPerInterfaceWithVirtualDevicesApart() {
        List<Sample> out = derived("prometheus/node_exporter-1.5.txt");

        assertThat(only(out, "net.tx.bytes", Map.of("interface", "eth0")).getValue()).isEqualTo(1_041_740.0);
        assertThat(only(out, "net.rx.bytes", Map.of("interface", "eth0")).getValue()).isEqualTo(508_301_574.0);
        assertThat(select(out, "net.tx.bytes", Map.of())).hasSize(1);
        // ifb0, ifb1: intermediate functional blocks mirror a real device's traffic
        assertThat(select(out, "net.tx.bytes.virtual", Map.of())).extracting(s -> s.getLabels().get("interface"))
                .containsExactlyInAnyOrder("ifb0", "ifb1");
        assertThat(select(out, "net.rx.bytes.virtual", Map.of())).hasSize(2)
                .allSatisfy(s -> assertThat(s.getKind()).isEqualTo(SampleKind.COUNTER));
    }

    @Test
    void processMetricsAreTheScrapedProcessUnderASourceOfItsOwn() {
        List<Sample> out = derived("prometheus/node_exporter-1.5.txt");

        Sample cpu = only(out, "cpu.cores", Map.of("recipe", "process"));
        assertThat(cpu.getValue()).isEqualTo(0.04);
        assertThat(cpu.getKind()).isEqualTo(SampleKind.COUNTER);
        assertThat(cpu.getSource()).isEqualTo("host-a:9100/process");
        Sample mem = only(out, "mem.bytes", Map.of("recipe", "process"));
        assertThat(mem.getValue()).isEqualTo(15_224_832.0);
        assertThat(mem.getSource()).isEqualTo("host-a:9100/process");
    }

    @Test
    void processExporterNameGroupsAreSourcesWithUserAndSystemCpuAndResidentMemory() {
        List<Sample> out = derived("recipes/process-exporter-0.7.10.txt");

        List<Sample> cpu = select(out, "cpu.cores", Map.of("recipe", "process-exporter"));
        assertThat(cpu).hasSize(2).allSatisfy(s -> {
            assertThat(s.getSource()).isEqualTo("java");
            assertThat(s.getKind()).isEqualTo(SampleKind.COUNTER);
            assertThat(s.getLabels()).containsEntry("groupname", "java").containsEntry("host", "host-a:9100");
        });
        // system 0.62 + user 1.68 (the exporter prints them with float noise)
        assertThat(sum(cpu)).isCloseTo(2.30, within(1e-9));
        // resident only: proportionalResident, swapped, virtual are other views of the same pages
        Sample mem = only(out, "mem.bytes", Map.of("recipe", "process-exporter"));
        assertThat(mem.getValue()).isEqualTo(4_010_467_328.0);
        assertThat(mem.getSource()).isEqualTo("java");
        // the exporter's own process_* metrics are the exporter's process, kept apart
        assertThat(only(out, "cpu.cores", Map.of("recipe", "process")).getSource()).isEqualTo("host-a:9100/process");
    }

    @Test
    void cadvisorContainersAreSourcesAndParentCgroupsAreLeftOut() {
        List<Sample> out = derived("recipes/cadvisor-documented.txt");
        List<Sample> cpu = select(out, "cpu.cores", Map.of("recipe", "cadvisor"));

        // "/", system.slice, the pod's cgroup and its POD sandbox contain the containers' work: not derived
        assertThat(cpu).extracting(Sample::getSource).containsExactlyInAnyOrder("web", "db", "db", "api-7d9f/api");
        assertThat(sum(select(cpu, "cpu.cores", Map.of("container", "web")))).isEqualTo(120.25);
        // percpu: cpu00 30.5 + cpu01 12.25
        assertThat(sum(cpu.stream().filter(s -> s.getSource().equals("db")).toList())).isEqualTo(42.75);
        assertThat(only(cpu, "cpu.cores", Map.of("pod", "api-7d9f")).getValue()).isEqualTo(79.5);
        assertThat(cpu).allSatisfy(s -> assertThat(s.getKind()).isEqualTo(SampleKind.COUNTER));

        assertThat(select(out, "mem.bytes", Map.of("recipe", "cadvisor"))).extracting(Sample::getSource, Sample::getValue)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("web", 12_582_912.0),
                        org.assertj.core.groups.Tuple.tuple("db", 268_435_456.0),
                        org.assertj.core.groups.Tuple.tuple("api-7d9f/api", 524_288_000.0));
        // the pod's sandbox owns the network in Kubernetes; the host's own "/" row is not a container
        assertThat(select(out, "net.tx.bytes", Map.of("recipe", "cadvisor"))).extracting(Sample::getSource,
                Sample::getValue).containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("web", 7.5e8),
                org.assertj.core.groups.Tuple.tuple("api-7d9f", 3.0e8));
        assertThat(only(out, "net.rx.bytes", Map.of("container", "web")).getValue()).isEqualTo(2.5e7);
        assertThat(only(out, "net.rx.bytes", Map.of("container", "web")).getLabels())
                .containsEntry("interface", "eth0").containsEntry("host", "host-a:9100");
    }

    @Test
    void aScrapeCutIntoSeveralBatchesGivesTheSameSeriesAsWhole() {
        List<Sample> raw = scrape("prometheus/node_exporter-1.5.txt");
        List<Sample> whole = SampleBatches.EXPORTER_RECIPES.derive(raw);
        List<Sample> cut = new ArrayList<>();
        for (int from = 0; from < raw.size(); from += 7) {
            cut.addAll(SampleBatches.EXPORTER_RECIPES.derive(raw.subList(from, Math.min(raw.size(), from + 7))));
        }

        // every per-series recipe is unaffected; a difference whose two halves fell apart is missing, not wrong
        assertThat(cut.stream().filter(s -> !s.getMetric().equals("mem.bytes")).toList())
                .containsExactlyInAnyOrderElementsOf(whole.stream().filter(s -> !s.getMetric().equals("mem.bytes"))
                        .toList());
        assertThat(select(cut, "mem.bytes", Map.of("recipe", "node_exporter")))
                .allSatisfy(s -> assertThat(s.getValue()).isEqualTo(561_090_560.0));
    }

    @Test
    void aDerivedSampleThatWouldNotPassTheDoorIsNotMadeWhileItsRawSampleStays() {
        String longName = "c".repeat(600);
        Sample raw = Samples.gauge(AT, "cadvisor:8080", "container_memory_working_set_bytes", 5,
                Map.of("name", longName, "id", "/docker/x"));

        assertThat(SampleBatches.EXPORTER_RECIPES.derive(List.of(raw))).isEmpty();
    }
}
