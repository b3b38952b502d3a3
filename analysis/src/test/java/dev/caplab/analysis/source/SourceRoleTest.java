package dev.caplab.analysis.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The role rule against the series real exporters and samplers produce (labels as ingest/README.md lists them). */
class SourceRoleTest {

    @Test
    void exportersOwnProcessAndSamplerCostAreAgents() {
        // process-exporter's, node_exporter's and Prometheus' own process_cpu_seconds_total, through the recipe
        assertThat(SourceRole.of("127.0.0.1:9256/process", "cpu.cores", Map.of("recipe", "process")))
                .isEqualTo(SourceRole.AGENT);
        assertThat(SourceRole.of("localhost:9090", "process_cpu_seconds_total", Map.of("job", "prometheus")))
                .isEqualTo(SourceRole.AGENT);
        assertThat(SourceRole.of("lab-1", "sampler.process.cpu.cores", Map.of("sampler", "host-sampler")))
                .isEqualTo(SourceRole.AGENT);
        assertThat(SourceRole.of("telegraf-1", "internal_agent.metrics_gathered", Map.of()))
                .isEqualTo(SourceRole.AGENT);
        // process-exporter groups and containers of the agents themselves (comm is cut at 15 characters)
        assertThat(SourceRole.of("prometheus-proc", "cpu.cores", Map.of("recipe", "process-exporter",
                "groupname", "prometheus-proc"))).isEqualTo(SourceRole.AGENT);
        assertThat(SourceRole.of("cadvisor", "cpu.cores", Map.of("recipe", "cadvisor", "container", "cadvisor")))
                .isEqualTo(SourceRole.AGENT);
    }

    @Test
    void hostsAreNodeExporterAndTheHostSampler() {
        assertThat(SourceRole.of("node:9100", "cpu.cores", Map.of("recipe", "node_exporter", "cpu", "0")))
                .isEqualTo(SourceRole.HOST);
        assertThat(SourceRole.of("node:9100", "node_memory_MemTotal_bytes", Map.of())).isEqualTo(SourceRole.HOST);
        assertThat(SourceRole.of("lab-1", "cpu.cores", Map.of("sampler", "host-sampler"))).isEqualTo(SourceRole.HOST);
        // a cgroup the host sampler reads is part of the system under test
        assertThat(SourceRole.of("/system.slice/app.service", "cpu.cores", Map.of("sampler", "host-sampler",
                "cgroup", "/system.slice/app.service"))).isEqualTo(SourceRole.SUT);
    }

    @Test
    void processGroupsContainersAndTheRestAreTheSystemUnderTest() {
        assertThat(SourceRole.of("jitsi-jvb", "cpu.cores", Map.of("recipe", "process-exporter",
                "groupname", "jitsi-jvb"))).isEqualTo(SourceRole.SUT);
        assertThat(SourceRole.of("livekit", "cpu.cores", Map.of())).isEqualTo(SourceRole.SUT);
        assertThat(SourceRole.of("group:system=jitsi", "cpu.cores", Map.of())).isEqualTo(SourceRole.SUT);
    }

    @Test
    void aRoleLabelOverridesTheInference() {
        assertThat(SourceRole.of("gen", "cpu.util.percent", Map.of("role", "loadgen"))).isEqualTo(SourceRole.LOADGEN);
        assertThat(SourceRole.of("app:8080/process", "cpu.cores", Map.of("recipe", "process", "role", "sut")))
                .isEqualTo(SourceRole.SUT);
        assertThat(SourceRole.of("lab-1", "cpu.cores", Map.of("sampler", "host-sampler", "role", "Agent ")))
                .isEqualTo(SourceRole.AGENT);
        // a value that names no role is no override
        assertThat(SourceRole.of("node:9100", "cpu.cores", Map.of("recipe", "node_exporter", "role", "primary")))
                .isEqualTo(SourceRole.HOST);
    }

    @Test
    void onlyTheSystemAndItsHostsArePlanned() {
        assertThat(SourceRole.SUT.planned()).isTrue();
        assertThat(SourceRole.HOST.planned()).isTrue();
        assertThat(SourceRole.AGENT.planned()).isFalse();
        assertThat(SourceRole.LOADGEN.planned()).isFalse();
    }
}
