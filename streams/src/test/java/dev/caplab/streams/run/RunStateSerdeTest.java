package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.streams.step.LevelPoint;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import dev.caplab.analysis.capacity.ResourceEstimate;
import dev.caplab.analysis.conclusion.ResourceUse;
import dev.caplab.analysis.conclusion.StepJudgement;
import dev.caplab.analysis.fit.LinearFit;
import dev.caplab.analysis.throughput.ThroughputLimit;
import dev.caplab.streams.fit.FittedThroughputLimit;
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
                List.of(new ResourceEstimate("host", "cpu.cores", new LinearFit(0.35, 0.006, 1e-4, 1e-8, -1e-6,
                        Double.NaN, 0, 2, 1), 10, 20, OptionalDouble.of(2), OptionalDouble.empty(), true,
                        OptionalInt.of(3), OptionalDouble.of(20))), 6, Map.of(4, 9_000_000L),
                new FittedThroughputLimit(new ThroughputLimit(150, 140, Double.NaN, 3000, 20, 0.5, 1e-6), 9,
                        7_000_000L));
        assertThat(RunStateSerde.decode(RunStateSerde.encode(s), 2000)).isEqualTo(s);
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

    @Test
    void anUnknownFormatIsRefusedNamingIt() {
        assertThatThrownBy(() -> RunStateSerde.decode(new byte[] {9, 0, 0}, 2000))
                .isInstanceOf(SerializationException.class).hasMessageContaining("unknown format 9");
    }
}
