package dev.caplab.analysis.fit;

import dev.caplab.analysis.Finite;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.Segment;
import org.junit.jupiter.api.Test;

/** A fit's pieces as the schema's records: what is refused, what an unknown figure becomes, a segment's value. */
class PiecesTest {

    @Test
    void aSegmentKeepsItsFiguresAndAnUncomputableOneIsNull() {
        Segment s = Pieces.segment(10, 40, 0.5, Double.NaN, 0.02, 0.004, Double.NEGATIVE_INFINITY, 0.03);

        assertThat(s).isEqualTo(Segment.newBuilder().setFromX(10).setToX(40).setIntercept(0.5).setSlope(0.02)
                .setSlopeStdErr(0.004).setSlopeUpper95(0.03).build());
        assertThat(s.getInterceptStdErr()).isNull();
        assertThat(s.getSlopeLower95()).isNull();
        assertThat(Finite.orNaN(s.getSlopeLower95())).isNaN();
        assertThat(Finite.orNaN(s.getSlopeUpper95())).isEqualTo(0.03);
    }

    @Test
    void aSegmentRunsForwardWithFiniteCoefficients() {
        assertThatThrownBy(() -> Pieces.segment(40, 10, 0.5, 0.1, 0.02, 0.004, 0.01, 0.03))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("segment fromX 40.0 > toX 10.0");
        assertThatThrownBy(() -> Pieces.segment(Double.NaN, 10, 0.5, 0.1, 0.02, 0.004, 0.01, 0.03))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fromX NaN");
        assertThatThrownBy(() -> Pieces.segment(10, 40, Double.NaN, 0.1, 0.02, 0.004, 0.01, 0.03))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("segment coefficients must be finite: NaN, 0.02");
        assertThatThrownBy(() -> Pieces.segment(10, 40, 0.5, 0.1, Double.POSITIVE_INFINITY, 0.004, 0.01, 0.03))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be finite");
        assertThat(Pieces.segment(10, 10, 0.5, 0.1, 0.02, 0.004, 0.01, 0.03).getToX()).isEqualTo(10);
    }

    @Test
    void aBreakpointIsFiniteWithAnIntervalThatIsNotInverted() {
        Breakpoint b = Pieces.breakpoint(50, 2, 45.5, 54.5);
        assertThat(b).isEqualTo(Breakpoint.newBuilder().setX(50).setStdErr(2.0).setLower95(45.5).setUpper95(54.5)
                .build());
        assertThat(Pieces.breakpoint(50, Double.NaN, Double.NaN, Double.NaN)).isEqualTo(
                Breakpoint.newBuilder().setX(50).build());

        assertThatThrownBy(() -> Pieces.breakpoint(Double.NaN, 2, 45.5, 54.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("breakpoint x must be finite, got NaN");
        assertThatThrownBy(() -> Pieces.breakpoint(50, 2, 54.5, 45.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("breakpoint interval inverted: 54.5 > 45.5");
    }

    @Test
    void aSegmentsValueIsItsLineAtX() {
        Segment s = Pieces.segment(10, 40, 0.5, 0.1, 0.02, 0.004, 0.01, 0.03);
        assertThat(Pieces.valueAt(s, 25)).isCloseTo(0.5 + 0.02 * 25, within(1e-12));
        assertThat(Pieces.valueAt(s, 100)).as("beyond its range the line extends").isCloseTo(2.5, within(1e-12));
    }

    @Test
    void aLinesSlopeIntervalUsesStudentsTOnItsResidualDegreesOfFreedom() {
        // base 1, slope 2, Var(base) 0.09, Var(slope) 0.04 over 3 steps: 1 residual degree of freedom,
        // t(0.975, 1) = 12.7062 (any t table)
        LinearFit line = new LinearFit(1, 2, 0.09, 0.04, 0, 0.5, 1, 3, 0.99);
        Segment s = Pieces.line(line, 10, 30);
        assertThat(s.getInterceptStdErr()).isCloseTo(0.3, within(1e-12));
        assertThat(s.getSlopeStdErr()).isCloseTo(0.2, within(1e-12));
        assertThat(s.getSlopeLower95()).isCloseTo(2 - 12.7062 * 0.2, within(1e-4));
        assertThat(s.getSlopeUpper95()).isCloseTo(2 + 12.7062 * 0.2, within(1e-4));

        Segment twoSteps = Pieces.line(new LinearFit(1, 2, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, 2, 1),
                10, 20);
        assertThat(twoSteps.getSlopeStdErr()).as("no residual degrees of freedom: unknown").isNull();
        assertThat(twoSteps.getSlopeLower95()).isNull();
        assertThat(twoSteps.getSlopeUpper95()).isNull();
    }
}
