package dev.caplab.ingest.iperf;

import static dev.caplab.ingest.adapter.Fixtures.only;
import static dev.caplab.ingest.adapter.Fixtures.select;
import static dev.caplab.ingest.adapter.Fixtures.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.ingest.adapter.AdapterOptions;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.ingest.parse.ParseResult;
import dev.caplab.schema.event.Sample;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reports written by Debian's iperf3 3.12 over loopback: client, client -R -P 2, UDP, server side, refused. */
class IperfAdapterTest {

    private static final Instant READ_AT = Instant.parse("2026-12-02T18:00:00Z");

    @Test
    void clientMeasuresEgressAsWhatArrived() {
        IperfMeasurement m = IperfReport.parse(text("iperf/tcp-client.json"));

        assertThat(m.direction()).isEqualTo(Direction.EGRESS);
        // end.sum_received.bits_per_second = 13566498276.74091
        assertThat(m.measuredEgressMbps().getAsDouble()).isCloseTo(13566.49827674091, within(1e-9));
        assertThat(m.senderMbps().getAsDouble()).isCloseTo(13629.902298948225, within(1e-9));
        assertThat(m.measuredIngressMbps()).isEmpty();
        assertThat(m.streams()).isEqualTo(1);
        assertThat(m.startedAt()).isEqualTo(Instant.ofEpochSecond(1796230959L));
        assertThat(m.intervals()).hasSize(2);
    }

    @Test
    void reverseModeMeasuresIngress() {
        IperfMeasurement m = IperfReport.parse(text("iperf/tcp-reverse-2streams.json"));

        assertThat(m.direction()).isEqualTo(Direction.INGRESS);
        assertThat(m.streams()).isEqualTo(2);
        assertThat(m.measuredEgressMbps()).isEmpty();
        assertThat(m.measuredIngressMbps().getAsDouble()).isCloseTo(12955.1242572328, within(1e-9));
        assertThat(m.retransmits().getAsDouble()).isEqualTo(13.0);
    }

    @Test
    void serverReportHasOnlyTheReceiverSide() {
        IperfMeasurement m = IperfReport.parse(text("iperf/server-side.json"));

        assertThat(m.direction()).isEqualTo(Direction.INGRESS);
        assertThat(m.senderMbps()).isEmpty();
        assertThat(m.receiverMbps().getAsDouble()).isCloseTo(11301.669298763464, within(1e-9));
    }

    @Test
    void udpReportsJitterAndLoss() {
        IperfMeasurement m = IperfReport.parse(text("iperf/udp-client.json"));

        assertThat(m.protocol()).isEqualTo("UDP");
        assertThat(m.ceilingMbps().getAsDouble()).isCloseTo(50.053136624323845, within(1e-9));
        assertThat(m.jitterMillis().getAsDouble()).isCloseTo(0.02969108036078183, within(1e-12));
        assertThat(m.lossPercent().getAsDouble()).isZero();
    }

    @Test
    void samplesCarrySidesAndIntervals() {
        ParseResult result = IperfAdapter.of(AdapterOptions.NONE).parse(text("iperf/tcp-client.json"), READ_AT);

        assertThat(result.errors()).isEmpty();
        Sample receiver = only(result.samples(), MetricNames.NET_THROUGHPUT_MBPS,
                Map.of("scope", "test", "side", "receiver"));
        assertThat(receiver.getSource()).isEqualTo("127.0.0.1");
        assertThat(receiver.getLabels()).containsEntry("direction", "egress").containsEntry("streams", "1");
        assertThat(select(result.samples(), MetricNames.NET_THROUGHPUT_MBPS, Map.of("scope", "interval")))
                .extracting(Sample::getValue).containsExactly(13520.562531000542, 13740.25217329701);
    }

    @Test
    void failedAndTruncatedReportsAreErrors() {
        ParseResult refused = IperfAdapter.of(AdapterOptions.NONE).parse(text("iperf/refused.json"), READ_AT);
        assertThat(refused.samples()).isEmpty();
        assertThat(refused.errors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("error");
            assertThat(e.reason()).contains("Connection refused");
        });

        ParseResult truncated = IperfAdapter.of(AdapterOptions.NONE).parse(text("iperf/truncated.json"), READ_AT);
        assertThat(truncated.samples()).isEmpty();
        assertThat(truncated.errors()).singleElement().satisfies(e -> assertThat(e.line()).isGreaterThan(60));

        assertThatThrownBy(() -> IperfReport.parse("{\"start\":{}}")).isInstanceOf(IperfReportException.class)
                .hasMessageContaining("truncated");
    }
}
