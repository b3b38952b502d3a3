package dev.caplab.recipes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.sample.Samples;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The recipes on samples made by hand: how devices are classed, how a difference pairs its two gauges, what no recipe
 * knows, and the door the caller hands in. Against real exporters' scrapes, as ingest applies them behind its door:
 * ingest's {@code ExporterRecipesTest}.
 */
class RecipesTest {

    private static final Instant AT = Instant.parse("2026-12-02T18:00:00Z");
    private static final Recipes RECIPES = Recipes.exporters(s -> true);

    @Test
    void devicesAreClassedByName() {
        List<String> physical = List.of("eth0", "ens3", "enp0s31f6", "eno1", "wlan0", "wlp2s0");
        List<String> virtual = List.of("docker0", "veth1a2b3c", "br-3f2a9c", "br0", "virbr0", "vnet3", "cni0",
                "flannel.1", "cali12ab", "vxlan.calico", "cilium_host", "kube-ipvs0", "tun0", "tap1", "wg0", "bond0",
                "eth0.100", "eth0@if12", "ifb0", "dummy0", "lxcbr0", "podman0", "weave");
        List<Sample> raw = new ArrayList<>();
        for (String device : concat(physical, virtual, List.of("lo"))) {
            raw.add(Samples.counter(AT, "h", "node_network_transmit_bytes_total", 1, Map.of("device", device)));
        }
        List<Sample> out = RECIPES.derive(raw);

        // lo keeps the plain name: streams reports interface=lo apart as net.tx.bytes.loopback
        assertThat(select(out, "net.tx.bytes", Map.of()).stream().map(s -> s.getLabels().get("interface")))
                .containsExactlyInAnyOrderElementsOf(concat(physical, List.of(), List.of("lo")));
        assertThat(select(out, "net.tx.bytes.virtual", Map.of()).stream().map(s -> s.getLabels().get("interface")))
                .containsExactlyInAnyOrderElementsOf(virtual);
    }

    @Test
    void aDifferencePairsTheNearestPartnerWithinOneSecondOfTheSameSeries() {
        Map<String, String> none = Map.of();
        List<Sample> raw = List.of(
                Samples.gauge(AT, "h", "node_memory_MemTotal_bytes", 1000, none),
                Samples.gauge(AT.plusMillis(300), "h", "node_memory_MemAvailable_bytes", 400, none),
                Samples.gauge(AT.plusSeconds(10), "h", "node_memory_MemTotal_bytes", 1000, none),
                Samples.gauge(AT.plusSeconds(12), "h", "node_memory_MemAvailable_bytes", 300, none),
                Samples.gauge(AT, "other", "node_memory_MemAvailable_bytes", 100, none),
                Samples.gauge(AT, "h", "node_memory_MemAvailable_bytes", 200, Map.of("instance", "x")));

        List<Sample> mem = select(RECIPES.derive(raw), "mem.bytes", none);

        assertThat(mem).hasSize(1);
        assertThat(mem.getFirst().getValue()).isEqualTo(600.0);
        assertThat(mem.getFirst().getTimestamp()).isEqualTo(AT.plusMillis(300));
    }

    @Test
    void samplesNoRecipeKnowsGiveNothing() {
        List<Sample> raw = List.of(Samples.gauge(AT, "h", "cpu.cores", 1.5, Map.of()),
                Samples.counter(AT, "h", "http_requests_total", 10, Map.of("code", "200")));

        assertThat(RECIPES.derive(raw)).isEmpty();
    }

    @Test
    void aDerivedSampleTheDoorRefusesIsNotMade() {
        Sample raw = Samples.counter(AT, "h", "node_network_transmit_bytes_total", 1, Map.of("device", "eth0"));
        List<Sample> asked = new ArrayList<>();

        List<Sample> out = Recipes.exporters(s -> {
            asked.add(s);
            return false;
        }).derive(List.of(raw));

        assertThat(out).isEmpty();
        assertThat(asked).singleElement().satisfies(s -> assertThat(s.getMetric()).isEqualTo("net.tx.bytes"));
    }

    private static List<Sample> select(List<Sample> samples, String metric, Map<String, String> labels) {
        return samples.stream().filter(s -> s.getMetric().equals(metric) && labels.entrySet().stream()
                .allMatch(e -> e.getValue().equals(s.getLabels().get(e.getKey())))).toList();
    }

    private static List<String> concat(List<String> a, List<String> b, List<String> c) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        out.addAll(c);
        return out;
    }
}
