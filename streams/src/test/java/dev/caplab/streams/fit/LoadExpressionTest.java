package dev.caplab.streams.fit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Load expressions from the field reports: subscriptions = cameras × (participants − 1) (seeds/000). */
class LoadExpressionTest {

    @Test
    void evaluatesArithmeticOverLoadDimensions() {
        assertThat(LoadExpression.evaluate("cameras*(participants-1)", Map.of("cameras", 20.0, "participants", 20.0)))
                .isEqualTo(380.0);
        assertThat(LoadExpression.evaluate("subscribers * publishers * 2 / 4 + 1",
                Map.of("subscribers", 10.0, "publishers", 10.0))).isEqualTo(51.0);
        assertThat(LoadExpression.evaluate("load", Map.of("users", 400.0))).as("default names the only dimension")
                .isEqualTo(400.0);
    }

    @Test
    void unknownDimensionsAndSyntaxErrorsAreTyped() {
        assertThatThrownBy(() -> LoadExpression.evaluate("users*2", Map.of("vus", 1.0)))
                .isInstanceOf(LoadExpressionException.class).hasMessageContaining("unknown load dimension 'users'");
        assertThatThrownBy(() -> LoadExpression.evaluate("(users", Map.of("users", 1.0)))
                .isInstanceOf(LoadExpressionException.class).hasMessageContaining("missing ')'");
    }
}
