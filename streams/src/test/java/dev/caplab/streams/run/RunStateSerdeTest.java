package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.streams.step.LevelPoint;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import dev.caplab.analysis.conclusion.ResourceEstimates;
import dev.caplab.analysis.conclusion.ResourceUse;
import dev.caplab.analysis.conclusion.StepJudgement;
import dev.caplab.analysis.fit.LinearFit;
import dev.caplab.schema.event.RunThroughputLimit;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** Format 2 holds strings past 65,535 bytes; format 1 state (from before) is migrated; unknown formats refused. */
class RunStateSerdeTest {

    @Test
    void aRunIdAndCliffKeyPast65535BytesRoundTrip() {
        String id = "r".repeat(70_000);
        RunState s = new RunState(id, null, List.of(), Map.of(), List.of(new LevelPoint("vus", 1, 10)), 5, -1, 0, 0,
                Map.of("host|" + id, 1.0), List.of(), Set.of("c".repeat(70_000)), false, false, 0, 0, 123, 2,
                Map.of(0, new StepMark(new dev.caplab.streams.step.StepWindow(0, Map.of("vus", 10.0), 1, 5, 0, false),
                        3, 7, new StepJudgement(0, OptionalDouble.of(10), dev.caplab.analysis.conclusion.StepStatus.FAILED, true,
                                Optional.of(new ResourceUse("host", "cpu.cores", 1.5, 2)), OptionalDouble.of(93.5)))),
                Set.of(0), true, 4, 2, 9, 16, 5, 1234, false,
                List.of(ResourceEstimates.of("host", "cpu.cores", new LinearFit(0.35, 0.006, 1e-4, 1e-8, -1e-6,
                        Double.NaN, 0, 2, 1), 10, 20, OptionalDouble.of(2), OptionalDouble.empty(), true,
                        OptionalInt.of(3), OptionalDouble.of(20))), 6, Map.of(4, 9_000_000L),
                throughputLimit());
        assertThat(RunStateSerde.decode(RunStateSerde.encode(s), 2000)).isEqualTo(s);
    }

    /**
     * A format-6 state as existing run-state stores and changelogs hold it, with two estimates (one with a cliff and
     * an unknown σ, one with a knee and no ceiling): a format, once written, reads back as the same state and is
     * written again byte for byte.
     */
    private static final String FORMAT_6_BYTES =
            "060000000572756e2d3100000000000000000000000000000001000000037675730000000000000001402400000000000000" +
            "00000000000005ffffffffffffffff000000000000000000000000000000010000000a686f73747c72756e2d313ff0000000" +
            "00000000000000000000010000000163000000000000000000000000000000000000000000000000007b0000000200000001" +
            "0000000000000000000000010000000376757340240000000000000000000000000001000000000000000500000000000000" +
            "000000000000000000030000000000000007010000000001402400000000000001010100000004686f737400000009637075" +
            "2e636f7265733ff8000000000000400000000000000001405760000000000000000000010000000001000000000000000400" +
            "0000000000000200000000000000090000000000000010000000000000000500000000000004d2000000000200000004686f" +
            "7374000000096370752e636f7265733fd66666666666663f789374bc6a7efa3f1a36e2eb1c432d3e45798ee2308c3abeb0c6" +
            "f7a0b5ed8d7ff800000000000000000000000000023ff0000000000000402400000000000040340000000000000140000000" +
            "0000000000010000000301403400000000000000000003737276000000096d656d2e62797465734197d78400000000413e84" +
            "80000000004222a05f200000004197d78400000000c1ddcd650000000040dd4c000000000000000003000000053fefae147a" +
            "e147ae402400000000000040490000000000000001404180000000000000ffffffff00000000000000000600000001000000" +
            "040000000000895440014062c0000000000040618000000000007ff800000000000040a77000000000004034000000000000" +
            "3fe00000000000003eb0c6f7a0b5ed8d0000000900000000006acfc0";

    @Test
    void aFormat6StateWithEstimatesReadsBackAndIsWrittenAgainUnchanged() {
        RunState s = new RunState("run-1", null, List.of(), Map.of(), List.of(new LevelPoint("vus", 1, 10)), 5, -1, 0,
                0, Map.of("host|run-1", 1.0), List.of(), Set.of("c"), false, false, 0, 0, 123, 2,
                Map.of(0, new StepMark(new dev.caplab.streams.step.StepWindow(0, Map.of("vus", 10.0), 1, 5, 0, false),
                        3, 7, new StepJudgement(0, OptionalDouble.of(10),
                                dev.caplab.analysis.conclusion.StepStatus.FAILED, true,
                                Optional.of(new ResourceUse("host", "cpu.cores", 1.5, 2)), OptionalDouble.of(93.5)))),
                Set.of(0), true, 4, 2, 9, 16, 5, 1234, false,
                List.of(ResourceEstimates.of("host", "cpu.cores", new LinearFit(0.35, 0.006, 1e-4, 1e-8, -1e-6,
                                Double.NaN, 0, 2, 1), 10, 20, OptionalDouble.of(2), OptionalDouble.empty(), true,
                                OptionalInt.of(3), OptionalDouble.of(20)),
                        ResourceEstimates.of("srv", "mem.bytes", new LinearFit(1e8, 2e6, 4e10, 1e8, -2e9, 3e4, 3, 5,
                                0.99), 10, 50, OptionalDouble.empty(), OptionalDouble.of(35), false,
                                OptionalInt.empty(), OptionalDouble.empty())),
                6, Map.of(4, 9_000_000L),
                throughputLimit());
        byte[] written = java.util.HexFormat.of().parseHex(FORMAT_6_BYTES);
        RunState read = RunStateSerde.decode(written, 2000);
        assertThat(read).isEqualTo(s);
        assertThat(read.estimates().getFirst().getResidualStdErr()).as("unknown σ").isNull();
        assertThat(RunStateSerde.encode(read)).isEqualTo(written);
    }

    @Test
    void formatOneStateIsMigratedWithItsLevelSamplesReducedToPlateaus() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(1);
        out.writeUTF("old-run");
        out.writeInt(0); // no RunStarted
        out.writeInt(0); // declared steps
        out.writeInt(0); // end-seen times
        out.writeInt(300); // every level sample, as format 1 kept them: 100 at 10, 100 at 20, 100 at 10
        for (int i = 0; i < 300; i++) {
            out.writeUTF("vus");
            out.writeLong(i * 1_000_000L);
            out.writeDouble(i / 100 == 1 ? 20 : 10);
        }
        out.writeLong(299_000_000L);
        out.writeLong(-1);
        out.writeLong(0);
        out.writeInt(0);
        out.writeInt(0); // baseline
        out.writeInt(0); // fit points
        out.writeInt(0); // cliffs
        out.writeBoolean(false);
        out.writeBoolean(false);
        out.writeLong(0);
        out.writeLong(7);
        RunState s = RunStateSerde.decode(bytes.toByteArray(), 2000);
        // each plateau's first and last report: 10 over 0..99 s, 20 over 100..199 s, 10 over 200..299 s
        assertThat(s.levels()).containsExactly(new LevelPoint("vus", 0, 10), new LevelPoint("vus", 99_000_000L, 10),
                new LevelPoint("vus", 100_000_000L, 20), new LevelPoint("vus", 199_000_000L, 20),
                new LevelPoint("vus", 200_000_000L, 10), new LevelPoint("vus", 299_000_000L, 10));
        assertThat(s.lateSamples()).isEqualTo(7);
        assertThat(s.lastInputWallMillis()).as("unknown before format 2").isZero();
    }

    /**
     * A throughput limit at 150 (lower 95 % bound 140, upper unknown), 3000/s, 20/s per x then 0.5, p = 1e-6, of a
     * 9-step fit at 7 s; format 6 wrote the unknown bound as NaN.
     */
    private static RunThroughputLimit throughputLimit() {
        return RunThroughputLimit.newBuilder().setKneeX(150).setKneeLower95(140.0).setKneeUpper95(null)
                .setPlateauRatePerSecond(3000).setSlopeBeforePerX(20).setSlopeAfterPerX(0.5).setBreakpointPValue(1e-6)
                .setStepsUsed(9).setFittedAt(java.time.Instant.ofEpochSecond(7)).build();
    }

    @Test
    void anUnknownFormatIsRefusedNamingIt() {
        assertThatThrownBy(() -> RunStateSerde.decode(new byte[] {9, 0, 0}, 2000))
                .isInstanceOf(SerializationException.class).hasMessageContaining("unknown format 9");
    }
}
